// The Hono middleware on a real Hono app served on loopback by @hono/node-server (the host's
// own onError page, a streamed answer): the checks every adapter passes.
import { serve as serveNode } from '@hono/node-server';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectHono } from '../src/index.ts';
import { collectorSuite } from './collect-suite.ts';

collectorSuite('Hono', async (collector, options) => {
  const app = new Hono();
  app.use(collectHono(collector, options));
  app.get('/v2/contacts/:id', (c) => c.json({ id: c.req.param('id') }));
  app.post('/v2/messages', (c) => c.text('created', 201));
  app.onError((_, c) => c.text('Internal Server Error', 500));
  app.post('/v2/webhooks', () => {
    throw new Error('the webhook target refused');
  });
  app.get('/v2/usage/stream', (c) =>
    stream(c, async (s) => {
      for (let i = 0; i < 3; i++) {
        await s.write('chunk-');
        await s.sleep(20);
      }
    }),
  );
  app.get('/v2/slow', async (c) => {
    await sleep(300);
    return c.text('late');
  });
  const server = await new Promise<ReturnType<typeof serveNode>>((resolve) => {
    const s = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      (server as import('node:http').Server).closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
});
