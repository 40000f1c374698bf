// The checks every framework adapter passes, on a real app of that framework served on loopback.
// Each app serves the same small API under /v2 (see `SampleRoutes`), with the collector installed
// as that framework's users would install it.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createCollector, openDuckDbStores, type Collector, type CollectOptions, type MeasuredRequest } from '../src/index.ts';
import type { TelemetryStore } from '../src/store/types.ts';
import { keptRequests, type KeptRequest } from './kept.ts';

/**
 * What each framework's app serves:
 * - GET /v2/contacts/:id → 200 JSON `{ id }`
 * - POST /v2/messages → 201 `created`
 * - POST /v2/webhooks → the handler throws; the framework's own error answer (500)
 * - GET /v2/usage/stream → 200, `chunk-` three times 20 ms apart, then the end
 * - GET /v2/slow → says it arrived (`slowArrivals`), then 200 after `SLOW_MS` (the client gives up before)
 * - POST /v2/orders → the JSON body read by the framework's own parser (`orderAnswer`)
 * - anything else → the framework's 404
 */

/** POST /v2/orders: 201 with what the app read of the order (its card echoed), or 422 without items. */
export function orderAnswer(body: unknown): [201 | 422, Record<string, unknown>] {
  const order = body as { items?: unknown[]; card?: string } | undefined;
  if (!Array.isArray(order?.items)) return [422, { error: 'items_missing', card: order?.card ?? null }];
  return [201, { orderId: 'ord_1', count: order.items.length, card: order.card ?? null }];
}
/** Told when a request reaches /v2/slow, so a test gives up on it only once the app has it (a timer could fire before it was sent). */
export const slowArrivals = new EventEmitter();
/** Long enough that the client's going away is seen first, however busy the machine. */
export const SLOW_MS = 2_000;

/** Asks for /v2/slow and goes away once the app has the request. */
export async function abandonSlow(origin: string): Promise<void> {
  const arrived = once(slowArrivals, 'arrived');
  const controller = new AbortController();
  const asked = fetch(`${origin}/v2/slow`, { signal: controller.signal });
  await arrived;
  controller.abort();
  await asked.then(
    () => assert.fail('the slow answer came before the client went away'),
    () => undefined,
  );
}

export type StartApp = (collector: Collector, options: CollectOptions<unknown>) => Promise<{ origin: string; close: () => Promise<void> }>;

/** The options the suite installs the collector with: version from the path, key from a header, one header kept, ids hidden by redact. */
const options = {
  apiVersion: { pathPrefix: true },
  headers: ['X-Request-Id', 'user-agent', 'Authorization', 'x-note'],
  redact: (request: MeasuredRequest) => (request.path.endsWith('/hidden') ? null : { ...request, path: request.path.replace(/\/c_\w+/, '/c_…') }),
} satisfies CollectOptions<unknown>;

async function timed(url: string, init?: RequestInit) {
  const sentAt = Date.now();
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return { status: response.status, body, elapsed: performance.now() - started, sentAt, answeredAt: Date.now() };
}

async function eventually(store: TelemetryStore, collector: Collector, count: number): Promise<KeptRequest[]> {
  let events: KeptRequest[] = [];
  for (let i = 0; i < 200 && events.length < count; i++) {
    await collector.flush();
    events = await keptRequests(store, 'acct_a', { limit: 50 });
    if (events.length < count) await sleep(20);
  }
  return events.reverse();
}

export function collectorSuite(framework: string, start: StartApp): void {
  void test(`${framework}: capture keeps both sides’ headers and bodies, masked before sending, sampled, while the app still reads its body`, async () => {
    const stores = await openDuckDbStores(':memory:');
    const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
    const app = await start(collector, {
      ...options,
      capture: { headers: true, bodies: true, maxBodyBytes: 120 },
      sample: { rate: 0, always: { status: '4xx' } },
    });
    try {
      const card = '4242424242424242';
      const post = async (order: unknown) => {
        const response = await fetch(`${app.origin}/v2/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_capture', 'x-request-id': 'req-9' },
          body: JSON.stringify(order),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const kept = await post({ items: [1, 2, 3], card });
      const failed = await post({ password: 'pw_capture_1', card, note: 'x'.repeat(300) });
      assert.deepEqual([kept, failed.status], [{ status: 201, body: { orderId: 'ord_1', count: 3, card } }, 422], 'the app read its body whole');
      const [ok, bad] = await eventually(stores.telemetry, collector, 2);
      const payloads = await Promise.all([ok!, bad!].map((e) => stores.telemetry.payload('acct_a', e as { ts: number; seq: number })));
      // A success is sampled out at rate 0: its headers stay, its bodies go; it is still counted.
      assert.equal(payloads[0]!.requestBody, null);
      assert.equal(payloads[0]!.headers!['authorization'], '[masked]');
      assert.equal(payloads[0]!.responseHeaders!['content-type']?.startsWith('application/json'), true);
      // A 4xx always keeps them: masked, cut at 120 bytes with its whole size.
      const sent = JSON.stringify({ password: 'pw_capture_1', card, note: 'x'.repeat(300) });
      const request = payloads[1]!.requestBody!;
      assert.deepEqual([request.contentType, request.size, request.truncated], ['application/json', Buffer.byteLength(sent), true]);
      assert.equal(request.text, `{"password":"[masked]","card":"[masked]","note":"${'x'.repeat(300)}"}`.slice(0, 120));
      assert.deepEqual(JSON.parse(payloads[1]!.responseBody!.text!), { error: 'items_missing', card: '[masked]' });
      const stored = JSON.stringify(payloads);
      for (const secret of ['sk_live_capture', 'pw_capture_1', card]) assert.ok(!stored.includes(secret), `${secret} was sent`);
    } finally {
      await app.close();
      await collector.close();
      await stores.close();
    }
  });

  void test(`${framework}: route templates, a thrown error, a stream to its end, a 404, kept headers and redaction, within the client’s measurement`, async () => {
    const stores = await openDuckDbStores(':memory:');
    const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
    const keyed = { ...options, identify: (request: unknown) => ({ keyId: keyOf(request) }) };
    const app = await start(collector, keyed);
    try {
      const headers = {
        'x-key': 'key_1',
        'x-request-id': 'req-77',
        authorization: 'Bearer secret',
        cookie: 'session=secret',
        'x-note': 'card 4242 4242 4242 4242',
      };
      const calls: Awaited<ReturnType<typeof timed>>[] = [];
      for (const [method, path] of [
        ['GET', '/v2/contacts/c_7?token=secret'],
        ['POST', '/v2/messages'],
        ['POST', '/v2/webhooks'],
        ['GET', '/v2/usage/stream'],
        ['GET', '/v2/nowhere'],
        ['GET', '/v2/contacts/hidden'],
      ] as const) {
        calls.push(await timed(`${app.origin}${path}`, { method, headers, ...(method === 'POST' ? { body: 'hello' } : {}) }));
      }
      assert.deepEqual(
        calls.map((c) => c.status),
        [200, 201, 500, 200, 404, 200],
      );
      assert.equal(calls[3]!.body, 'chunk-chunk-chunk-');
      const events = await eventually(stores.telemetry, collector, 5);
      assert.deepEqual(
        events.map((e) => [e.method, e.route, e.path, e.status, e.apiVersion, e.keyId, e.bytes]),
        [
          ['GET', '/contacts/:id', '/v2/contacts/c_…', 200, 'v2', 'key_1', Buffer.byteLength(calls[0]!.body)],
          ['POST', '/messages', '/v2/messages', 201, 'v2', 'key_1', 7],
          ['POST', '/webhooks', '/v2/webhooks', 500, 'v2', 'key_1', Buffer.byteLength(calls[2]!.body)],
          ['GET', '/usage/stream', '/v2/usage/stream', 200, 'v2', 'key_1', 18],
          ['GET', '/nowhere', '/v2/nowhere', 404, 'v2', 'key_1', Buffer.byteLength(calls[4]!.body)],
        ],
        'the query string is never recorded; the redacted request is left out',
      );
      for (const event of events) {
        assert.deepEqual(
          event.headers,
          { 'x-request-id': 'req-77', 'user-agent': 'node', authorization: '[masked]', 'x-note': 'card [masked]' },
          'only the named headers are kept, credentials and card numbers masked before they are sent',
        );
      }
      events.forEach((e, i) => assert.ok(e.durationMs > 0 && e.durationMs <= calls[i]!.elapsed, `${e.path}: ${e.durationMs} within ${calls[i]!.elapsed} ms`));
      // Stamped with the wall-clock time the request arrived: between the client's sending it and its answer (to the millisecond, either way).
      events.forEach((e, i) =>
        assert.ok(e.ts >= calls[i]!.sentAt - 1 && e.ts <= calls[i]!.answeredAt + 1, `${e.path}: ${e.ts} from ${calls[i]!.sentAt} to ${calls[i]!.answeredAt}`),
      );
      assert.ok(events[3]!.durationMs >= 40, 'the stream is measured to its end, not to the handler’s return');
    } finally {
      await app.close();
      await collector.close();
      await stores.close();
    }
  });

  void test(`${framework}: a request the client abandons is recorded as 499`, async () => {
    const stores = await openDuckDbStores(':memory:');
    const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 50 });
    const app = await start(collector, options);
    try {
      await abandonSlow(app.origin);
      const events = await eventually(stores.telemetry, collector, 1);
      assert.deepEqual(
        events.map((e) => [e.route, e.status]),
        [['/slow', 499]],
      );
    } finally {
      await app.close();
      await collector.close();
      await stores.close();
    }
  });

  void test(`${framework}: a store that hangs or fails changes none of the host’s answers; the queue stays bounded and drops are counted`, async () => {
    for (const failing of ['hangs', 'fails'] as const) {
      let appends = 0;
      const store = {
        append: () => {
          appends++;
          return failing === 'hangs' ? new Promise<void>(() => {}) : Promise.reject(new Error('the store went away'));
        },
      } as unknown as TelemetryStore;
      const collector = createCollector({ sink: { store, accountId: 'acct_a' }, maxQueue: 4, batchSize: 2, flushIntervalMs: 10 });
      const app = await start(collector, options);
      try {
        const answers = [];
        for (let i = 0; i < 10; i++) answers.push(await timed(`${app.origin}/v2/contacts/c_${i}`));
        assert.deepEqual(
          answers.map((a) => [a.status, JSON.parse(a.body)]),
          Array.from({ length: 10 }, (_, i) => [200, { id: `c_${i}` }]),
          `every answer arrives while the store ${failing}`,
        );
        // Wait (without asserting a time) until every request has been measured.
        let stats = collector.stats();
        for (let i = 0; i < 200 && stats.queued + stats.droppedQueueFull + stats.droppedFailed < 10; i++) {
          await sleep(10);
          stats = collector.stats();
        }
        assert.ok(appends >= 1, 'the collector tried the store');
        assert.equal(stats.sent, 0);
        assert.ok(stats.queued <= 4, `the queue stays bounded (${stats.queued})`);
        assert.ok(stats.droppedQueueFull > 0, 'what did not fit is counted');
        assert.equal(stats.queued + stats.droppedQueueFull + stats.droppedFailed, 10, 'every request is waiting (or being sent) or counted as dropped');
      } finally {
        await app.close();
        if (failing === 'fails') await collector.close(); // a hanging store would hold close() forever
      }
    }
  });
}

/** The `x-key` header of whichever request object the framework hands to `identify`. */
function keyOf(request: unknown): string | undefined {
  const r = request as { headers?: unknown; req?: { header(name: string): string | undefined }; raw?: { headers: Record<string, unknown> } };
  if (r.req && typeof r.req.header === 'function') return r.req.header('x-key'); // Hono's context
  const headers = (r.headers ?? r.raw?.headers) as Record<string, unknown> | undefined;
  const value = headers?.['x-key'];
  return typeof value === 'string' ? value : undefined;
}
