// The Hono collector on a real Hono app served on loopback by @hono/node-server: route
// templates, a handler that throws, a streamed answer measured to its end, and a 404.
import assert from 'node:assert/strict';
import { serve as serveNode } from '@hono/node-server';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { collectHono, createCollector, openDuckDbStores } from '../src/index.ts';

test('records route templates, a thrown error as 500, a stream to its end and a 404, within the client’s measurement', async () => {
  const stores = await openDuckDbStores(':memory:');
  const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
  const app = new Hono();
  app.use(collectHono(collector, { apiVersion: { pathPrefix: true }, identify: (c) => ({ keyId: c.req.header('x-key') }) }));
  app.get('/v3/contacts/:id', (c) => c.json({ id: c.req.param('id') }));
  app.post('/v3/messages', (c) => c.text('created', 201));
  app.onError((_, c) => c.text('Internal Server Error', 500)); // the host's own error page, without a log line
  app.post('/v3/webhooks', () => {
    throw new Error('the webhook target refused');
  });
  app.get('/v3/usage/stream', (c) =>
    stream(c, async (s) => {
      for (let i = 0; i < 3; i++) {
        await s.write('chunk-');
        await s.sleep(20);
      }
    }),
  );
  const http = await new Promise<ReturnType<typeof serveNode>>((resolve) => {
    const server = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server));
  });
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  try {
    const calls: { path: string; elapsed: number; status: number; body: string }[] = [];
    for (const [method, path] of [
      ['GET', '/v3/contacts/c_7?token=secret'],
      ['POST', '/v3/messages'],
      ['POST', '/v3/webhooks'],
      ['GET', '/v3/usage/stream'],
      ['GET', '/v3/nowhere'],
    ] as const) {
      const started = performance.now();
      const response = await fetch(`${origin}${path}`, { method, headers: { 'x-key': 'key_1' } });
      const body = await response.text();
      calls.push({ path, elapsed: performance.now() - started, status: response.status, body });
    }
    assert.deepEqual(
      calls.map((c) => c.status),
      [200, 201, 500, 200, 404],
    );
    await collector.flush();
    const events = (await stores.telemetry.requests('acct_a', { limit: 10 })).reverse();
    assert.deepEqual(
      events.map((e) => [e.method, e.route, e.path, e.status, e.apiVersion, e.keyId, e.bytes]),
      [
        ['GET', '/v3/contacts/:id', '/v3/contacts/c_7', 200, 'v3', 'key_1', Buffer.byteLength(calls[0]!.body)],
        ['POST', '/v3/messages', '/v3/messages', 201, 'v3', 'key_1', 7],
        ['POST', '/v3/webhooks', '/v3/webhooks', 500, 'v3', 'key_1', Buffer.byteLength(calls[2]!.body)],
        ['GET', '/v3/usage/stream', '/v3/usage/stream', 200, 'v3', 'key_1', 18],
        ['GET', '/v3/nowhere', '/v3/nowhere', 404, 'v3', 'key_1', Buffer.byteLength(calls[4]!.body)],
      ],
    );
    events.forEach((e, i) => assert.ok(e.durationMs > 0 && e.durationMs <= calls[i]!.elapsed, `${e.path}: ${e.durationMs} within ${calls[i]!.elapsed} ms`));
    assert.ok(events[3]!.durationMs >= 40, 'the stream is measured to its end, not to the handler’s return');
  } finally {
    http.close();
    await collector.close();
    await stores.close();
  }
});
