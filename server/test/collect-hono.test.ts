// The Hono middleware on a real Hono app served on loopback by @hono/node-server (the host's
// own onError page, a streamed answer): the checks every adapter passes.
import { serve as serveNode } from '@hono/node-server';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectHono, createCollector, openDuckDbStores } from '../src/index.ts';
import { SLOW_MS, collectorSuite, orderAnswer, slowArrivals } from './collect-suite.ts';
import { keptRequests } from './kept.ts';

collectorSuite('Hono', async (collector, options) => {
  const app = new Hono();
  app.use(collectHono(collector, options));
  // An auth check in middleware, as real apps have: it lets every request here through.
  app.use('/:version{v[23]}/*', async (c, next) => {
    if (c.req.header('x-key') === 'revoked') return c.text('Unauthorized', 401);
    await next();
  });
  app.get('/v2/contacts/:id', (c) => c.json({ id: c.req.param('id') }));
  app.post('/v2/messages', (c) => c.text('created', 201));
  app.post('/v2/orders', async (c) => {
    const [status, body] = orderAnswer(await c.req.json());
    return c.json(body, status);
  });
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
    slowArrivals.emit('arrived');
    await sleep(SLOW_MS);
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

test('Hono: a request refused by middleware is recorded under the route it asked for', async () => {
  const stores = await openDuckDbStores(':memory:');
  const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
  const app = new Hono();
  app.use(collectHono(collector, { apiVersion: { pathPrefix: true } }));
  app.use('/:version{v[23]}/*', async (c, next) => {
    if (c.req.header('authorization') !== 'Bearer good') return c.text('Unauthorized', 401);
    await next();
  });
  app.post('/v2/messages', (c) => c.text('created', 201));
  const statuses = [];
  for (const authorization of ['Bearer good', 'Bearer revoked']) {
    const response = await app.request('/v2/messages', { method: 'POST', headers: { authorization } });
    await response.text(); // measured when its body has been read
    statuses.push(response.status);
  }
  assert.deepEqual(statuses, [201, 401]);
  await collector.flush();
  const events = (await keptRequests(stores.telemetry, 'acct_a', { limit: 10 })).reverse();
  assert.deepEqual(
    events.map((e) => [e.method, e.route, e.status]),
    [
      ['POST', '/messages', 201],
      ['POST', '/messages', 401],
    ],
  );
  await collector.close();
  await stores.close();
});
