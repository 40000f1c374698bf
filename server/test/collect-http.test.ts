// The node:http collector on a real server on loopback: what it records for ordinary, streamed
// and abandoned requests, into a store in the same process and into a console server over HTTP;
// and that the host's answers are the same when the console server cannot be reached.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { collectHttp, createCollector, openDuckDbStores, serve, type Collector, type HttpCollectOptions } from '../src/index.ts';
import { SLOW_MS, abandonSlow, slowArrivals } from './collect-suite.ts';
import { eventsOfBody } from './column-form.ts';
import { call, startServer } from './harness.ts';
import { keptRequests } from './kept.ts';

/** A small API: a JSON route with an id, a created resource, a streamed answer and a slow one. */
const api: RequestListener = (request, response) => {
  const path = (request.url ?? '/').split('?')[0]!;
  if (request.method === 'GET' && /^\/v2\/contacts\/[^/]+$/.test(path)) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: path.split('/').pop(), name: 'x'.repeat(80) }));
  } else if (request.method === 'POST' && path === '/v2/messages') {
    response.writeHead(201).end('created');
  } else if (path === '/v2/usage/stream') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const timer = setInterval(() => {
      response.write('chunk-');
      if (++sent === 3) {
        clearInterval(timer);
        response.end('done');
      }
    }, 20);
  } else if (path === '/v2/slow') {
    slowArrivals.emit('arrived');
    setTimeout(() => response.writeHead(200).end('late'), SLOW_MS);
  } else {
    response.writeHead(404).end();
  }
};

const route = (request: { url?: string }) => {
  const path = (request.url ?? '/').split('?')[0]!;
  return path.replace(/^\/v\d+/, '').replace(/^\/contacts\/[^/]+$/, '/contacts/{id}');
};
const options: HttpCollectOptions = {
  route,
  apiVersion: { pathPrefix: true },
  identify: (request) => ({ keyId: String(request.headers['x-key'] ?? '') || undefined }),
};

async function listen(listener: RequestListener): Promise<{ server: Server; origin: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return { status: response.status, body, elapsed: performance.now() - started };
}

test('records route template, version, status, bytes, key and a duration within the client’s own measurement', async () => {
  const stores = await openDuckDbStores(':memory:');
  const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
  const { server, origin } = await listen(collectHttp(collector, api, options));
  try {
    const contact = await timed(`${origin}/v2/contacts/c_42?secret=1`, { headers: { 'x-key': 'key_9' } });
    const created = await timed(`${origin}/v2/messages`, { method: 'POST', body: 'hello' });
    const streamed = await timed(`${origin}/v2/usage/stream`);
    assert.equal(streamed.body, 'chunk-chunk-chunk-done');
    await collector.flush();
    const events = (await keptRequests(stores.telemetry, 'acct_a', { limit: 10 })).reverse();
    assert.deepEqual(
      events.map((e) => [e.method, e.route, e.path, e.status, e.apiVersion, e.bytes, e.keyId]),
      [
        ['GET', '/contacts/{id}', '/v2/contacts/c_42', 200, 'v2', Buffer.byteLength(contact.body), 'key_9'],
        ['POST', '/messages', '/v2/messages', 201, 'v2', 7, null],
        ['GET', '/usage/stream', '/v2/usage/stream', 200, 'v2', 22, null],
      ],
      'the query string is never recorded',
    );
    for (const [event, client] of [
      [events[0]!, contact],
      [events[1]!, created],
      [events[2]!, streamed],
    ] as const) {
      assert.ok(event.durationMs > 0 && event.durationMs <= client.elapsed, `${event.path}: ${event.durationMs} ms within the client's ${client.elapsed} ms`);
    }
    // libuv schedules timers against a millisecond clock read at the start of each loop turn, so each
    // 20 ms tick can come up to 1 ms early by performance.now(); the first chunk alone would be ~20 ms.
    assert.ok(events[2]!.durationMs >= 57, `the stream is measured to its last chunk (3 × 20 ms), got ${events[2]!.durationMs} ms`);
    assert.equal(collector.stats().sent, 3);
  } finally {
    server.close();
    await collector.close();
    await stores.close();
  }
});

test('capture keeps both sides’ headers and bodies, masked, whether the app sets its headers with setHeader or hands them to writeHead in any of its forms', async () => {
  const stores = await openDuckDbStores(':memory:');
  const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
  // The app reads the body as a stream, as a plain node:http API does, and answers with its card.
  const orders: RequestListener = (request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => answer(request, response, text));
  };
  const answer = (request: IncomingMessage, response: ServerResponse, text: string) => {
    const order = JSON.parse(text) as { card: string };
    const body = JSON.stringify({ orderId: 'ord_http', card: order.card });
    if (request.url === '/v2/orders/set') {
      response.setHeader('content-type', 'application/json');
      response.setHeader('x-order', 'ord_http');
      response.statusCode = 201;
      response.end(body);
    } else if (request.url === '/v2/orders/head') {
      response.writeHead(201, { 'Content-Type': 'application/json', 'X-Order': 'ord_http', 'Set-Cookie': ['sid=sess_http_1'] }).end(body);
    } else {
      // No reason phrase, then the headers as a flat list, one name twice.
      response.writeHead(201, undefined, ['Content-Type', 'application/json', 'X-Order', 'ord_http', 'x-order', 'ord_http_2']).end(body);
    }
  };
  const { server, origin } = await listen(collectHttp(collector, orders, { ...options, capture: { headers: true, bodies: true } }));
  try {
    const card = '4242 4242 4242 4242';
    for (const path of ['/v2/orders/set', '/v2/orders/head', '/v2/orders/list']) {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_http' },
        body: JSON.stringify({ password: 'pw_http_1', card }),
      });
      assert.deepEqual(await response.json(), { orderId: 'ord_http', card }, `${path}: the app read its body whole`);
    }
    await collector.flush();
    const events = (await keptRequests(stores.telemetry, 'acct_a', { limit: 10 })).reverse();
    for (const event of events) {
      const payload = (await stores.telemetry.payload('acct_a', event))!;
      assert.equal(payload.headers!['authorization'], '[masked]', event.path);
      assert.deepEqual(JSON.parse(payload.requestBody!.text!), { password: '[masked]', card: '[masked]' }, event.path);
      assert.equal(payload.responseHeaders!['content-type'], 'application/json', event.path);
      assert.equal(payload.responseHeaders!['x-order'], event.path.endsWith('list') ? 'ord_http, ord_http_2' : 'ord_http', event.path);
      assert.deepEqual(
        [payload.responseBody!.contentType, JSON.parse(payload.responseBody!.text!)],
        ['application/json', { orderId: 'ord_http', card: '[masked]' }],
        event.path,
      );
      const stored = JSON.stringify(payload);
      for (const secret of ['sk_live_http', 'pw_http_1', card, 'sess_http_1']) assert.ok(!stored.includes(secret), `${event.path}: ${secret} was kept`);
    }
    assert.equal(events.length, 3);
  } finally {
    server.close();
    await collector.close();
    await stores.close();
  }
});

test('two collectors on one API each record every response, with its bytes counted once', async () => {
  const stores = await openDuckDbStores(':memory:');
  const outer = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_outer' }, flushIntervalMs: 50 });
  const inner = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_inner' }, flushIntervalMs: 50 });
  const { server, origin } = await listen(collectHttp(outer, collectHttp(inner, api, options), options));
  try {
    const contact = await timed(`${origin}/v2/contacts/c_7`);
    const streamed = await timed(`${origin}/v2/usage/stream`);
    assert.equal(streamed.body, 'chunk-chunk-chunk-done', 'the host answers as without them');
    await Promise.all([outer.flush(), inner.flush()]);
    for (const account of ['acct_outer', 'acct_inner']) {
      const events = (await keptRequests(stores.telemetry, account, { limit: 10 })).reverse();
      assert.deepEqual(
        events.map((e) => [e.path, e.status, e.bytes]),
        [
          ['/v2/contacts/c_7', 200, Buffer.byteLength(contact.body)],
          ['/v2/usage/stream', 200, Buffer.byteLength(streamed.body)],
        ],
        account,
      );
    }
  } finally {
    server.close();
    await Promise.all([outer.close(), inner.close()]);
    await stores.close();
  }
});

test('a request the client abandons is recorded as 499 when the server lets go of it', async () => {
  const stores = await openDuckDbStores(':memory:');
  const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
  const { server, origin } = await listen(collectHttp(collector, api, options));
  try {
    await abandonSlow(origin);
    let events = await keptRequests(stores.telemetry, 'acct_a', { limit: 10 });
    for (let i = 0; i < 100 && !events.length; i++) {
      await sleep(20);
      await collector.flush();
      events = await keptRequests(stores.telemetry, 'acct_a', { limit: 10 });
    }
    assert.deepEqual(
      events.map((e) => [e.route, e.status]),
      [['/slow', 499]],
    );
  } finally {
    server.closeAllConnections();
    server.close();
    await collector.close();
    await stores.close();
  }
});

test('events reach a console server through its ingest API', async () => {
  const console = await startServer();
  const http = await serve(console, { port: 0 });
  const collector = createCollector({ sink: { url: http.url, ingestKey: 'ingest-a' }, flushIntervalMs: 50 });
  const { server, origin } = await listen(collectHttp(collector, api, options));
  try {
    for (let i = 0; i < 5; i++) await timed(`${origin}/v2/contacts/c_${i}`);
    await collector.flush();
    const { json } = await call(console, '/console/v1/endpoints', { token: 'token-a' });
    assert.deepEqual(
      json.items.map((e: { method: string; path: string; requests: number }) => [e.method, e.path, e.requests]),
      [['GET', '/contacts/{id}', 5]],
    );
    assert.deepEqual(collector.stats(), { sent: 5, rejected: 0, queued: 0, droppedQueueFull: 0, droppedFailed: 0, droppedAtClose: 0, failedAttempts: 0 });
  } finally {
    server.close();
    await collector.close();
    await http.close();
    await console.close();
  }
});

test('with the console server unreachable the host answers as before, and what cannot be kept is counted', async () => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  probe.close();
  const collector: Collector = createCollector({ sink: { url: deadUrl, ingestKey: 'ingest-a' }, maxQueue: 5, batchSize: 2, flushIntervalMs: 20 });
  const { server, origin } = await listen(collectHttp(collector, api, options));
  try {
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await timed(`${origin}/v2/contacts/c_${i}`));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(12).fill(200),
    );
    await collector.flush();
    const stats = collector.stats();
    assert.equal(stats.sent, 0);
    assert.ok(stats.failedAttempts >= 1);
    assert.ok(stats.queued <= 5, 'the queue stays bounded');
    assert.equal(stats.queued + stats.droppedQueueFull + stats.droppedFailed, 12, 'every request is either waiting or counted as dropped');
  } finally {
    server.close();
    await collector.close();
  }
});

test('a busy console server (503, then 429) is retried no sooner than its Retry-After, and every event arrives once', async () => {
  // A stand-in ingest endpoint on loopback that answers as a console server under load would.
  const answers = [{ status: 503, retryAfter: '7' }, { status: 429, retryAfter: new Date(Date.UTC(2026, 10, 23, 12, 0, 9)).toUTCString() }, { status: 202 }];
  const received: { at: number; events: unknown[] }[] = [];
  let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
  const ingest = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ at: clock, events: eventsOfBody(body) });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)]!;
      response.writeHead(answer.status, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}).end('{}');
    });
  });
  await new Promise<void>((resolve) => ingest.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(ingest.address() as AddressInfo).port}`;
  const collector = createCollector({ sink: { url, ingestKey: 'ingest-a' }, flushIntervalMs: 10, now: () => clock });
  const { server } = await listen(collectHttp(collector, api, options));
  /** Waits until the collector has sent `count` times and read the answers (so the clock moves on only after it has). */
  const attempts = async (count: number) => {
    for (let i = 0; i < 500 && (received.length < count || collector.stats().failedAttempts + collector.stats().sent / 3 < count); i++) await sleep(10);
    return received.length;
  };
  try {
    // Recorded together, so one timer tick takes all three in one batch.
    for (let i = 0; i < 3; i++)
      collector.record({ ts: clock, method: 'GET', route: '/contacts/{id}', path: `/v2/contacts/c_${i}`, status: 200, durationMs: 1 });
    assert.equal(await attempts(1), 1);
    clock += 6_900;
    await sleep(150); // many flush ticks: none may send before the 7 s the server asked for
    assert.equal(received.length, 1, 'no retry before Retry-After: 7');
    clock += 100;
    assert.equal(await attempts(2), 2);
    clock += 1_900;
    await sleep(150);
    assert.equal(received.length, 2, 'no retry before the Retry-After date');
    clock += 100;
    assert.equal(await attempts(3), 3);
    await collector.flush();
    assert.deepEqual(
      received.map((r) => r.events.length),
      [3, 3, 3],
      'the same batch each time',
    );
    assert.deepEqual(
      (received[2]!.events as { path: string }[]).map((e) => e.path),
      ['/v2/contacts/c_0', '/v2/contacts/c_1', '/v2/contacts/c_2'],
    );
    assert.deepEqual(collector.stats(), { sent: 3, rejected: 0, queued: 0, droppedQueueFull: 0, droppedFailed: 0, droppedAtClose: 0, failedAttempts: 2 });
  } finally {
    server.close();
    ingest.close();
    await collector.close();
  }
});

test('a batch larger than its first buffer arrives whole, with text that is not ASCII', async () => {
  const console = await startServer();
  const http = await serve(console, { port: 0 });
  const collector = createCollector({ sink: { url: http.url, ingestKey: 'ingest-a' }, batchSize: 40 });
  try {
    const paths = Array.from({ length: 40 }, (_, i) => `/grow/${i}/${'ü€'.repeat(400)}`);
    for (const [i, path] of paths.entries())
      collector.record({ ts: Date.now() - 1000, method: 'GET', route: '/grow/:n/:name', path, status: 200, durationMs: i + 0.5 });
    await collector.flush();
    assert.deepEqual(collector.stats(), { sent: 40, rejected: 0, queued: 0, droppedQueueFull: 0, droppedFailed: 0, droppedAtClose: 0, failedAttempts: 0 });
    const stored = await keptRequests(console.stores.telemetry, 'acct_a', { limit: 100, pathContains: '/grow/' });
    assert.deepEqual(
      stored.map((e) => [e.path, e.durationMs]).sort((a, b) => Number(a[1]) - Number(b[1])),
      paths.map((path, i) => [path, i + 0.5]),
    );
  } finally {
    await collector.close();
    await http.close();
    await console.close();
  }
});
