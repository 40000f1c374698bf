// The Fastify plugin on a real Fastify 5 app (its own error and 404 answers, a streamed reply),
// served on loopback: the checks every adapter passes.
import Fastify from 'fastify';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectFastify } from '../src/index.ts';
import { SLOW_MS, collectorSuite, orderAnswer, slowArrivals } from './collect-suite.ts';

collectorSuite('Fastify', async (collector, options) => {
  const app = Fastify();
  await app.register(collectFastify(collector, options));
  app.get('/v2/contacts/:id', (request) => ({ id: (request.params as { id: string }).id }));
  app.post('/v2/orders', (request, reply) => {
    const [status, body] = orderAnswer(request.body);
    void reply.code(status).send(body);
  });
  app.post('/v2/messages', (_, reply) => {
    void reply.code(201).type('text/plain').send('created');
  });
  app.post('/v2/webhooks', () => {
    throw new Error('the webhook target refused');
  });
  app.get('/v2/usage/stream', async (_, reply) =>
    reply.type('text/plain').send(
      Readable.from(
        (async function* () {
          for (let i = 0; i < 3; i++) {
            yield 'chunk-';
            await sleep(20);
          }
        })(),
      ),
    ),
  );
  app.get('/v2/slow', async () => {
    slowArrivals.emit('arrived');
    await sleep(SLOW_MS);
    return 'late';
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin: address,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
});
