// The Koa middleware on a real Koa 3 app with @koa/router (Koa's own error and 404 answers, a
// streamed body), served on loopback: the checks every adapter passes.
import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectKoa } from '../src/index.ts';
import { SLOW_MS, collectorSuite, orderAnswer, slowArrivals } from './collect-suite.ts';

/** The request's JSON body, read as a body parser reads it. */
async function jsonBody(request: NodeJS.ReadableStream): Promise<unknown> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

collectorSuite('Koa', async (collector, options) => {
  const app = new Koa();
  // Koa answers a thrown error with 500 itself; it need not print it.
  app.silent = true;
  app.use(collectKoa(collector, options));
  const router = new Router({ prefix: '/v2' });
  router.get('/contacts/:id', (ctx) => {
    ctx.body = { id: ctx.params['id'] };
  });
  router.post('/orders', async (ctx) => {
    const [status, body] = orderAnswer(await jsonBody(ctx.req));
    ctx.status = status;
    ctx.body = body;
  });
  router.post('/messages', (ctx) => {
    ctx.status = 201;
    ctx.type = 'text/plain';
    ctx.body = 'created';
  });
  router.post('/webhooks', () => {
    throw new Error('the webhook target refused');
  });
  router.get('/usage/stream', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = Readable.from(
      (async function* () {
        for (let i = 0; i < 3; i++) {
          yield 'chunk-';
          await sleep(20);
        }
      })(),
    );
  });
  router.get('/slow', async (ctx) => {
    slowArrivals.emit('arrived');
    await sleep(SLOW_MS);
    ctx.body = 'late';
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
});
