// Rate limits through the admin API: the limit against the busiest minute and the 429s, checked
// against the events, and the feed's "raised the rate limit" only when it was raised.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as schema from '@ops-console/contract/schemas';
import type { ConsoleServer } from '../src/index.ts';
import { knownEvents, NOW } from './events.ts';
import { call, ingest, startServer, type EventInput } from './harness.ts';

const owner = { id: 'u_lee', name: 'Lee Park' };
const at = (minutes: number, seconds = 0) => new Date(Date.parse(NOW) - minutes * 60_000 + seconds * 1000).toISOString();
const request = (ts: string, customerId: string, status = 200): EventInput => ({
  ts,
  method: 'GET',
  route: '/contacts',
  status,
  durationMs: 20,
  keyId: `key_${customerId}`,
  customerId,
});

// Acme's busiest minute is 40 minutes ago (4 requests, 2 of them refused), and two minutes tie at 3 later on.
const events: EventInput[] = [
  ...knownEvents(),
  ...[0, 10, 20, 30].map((s, i) => request(at(40, s), 'cus_acme', i % 2 ? 429 : 200)),
  ...[0, 20, 40].map((s) => request(at(30, s), 'cus_acme')),
  ...[0, 20, 40].map((s) => request(at(20, s), 'cus_acme', 429)),
  request(at(45), 'cus_globex', 429),
  request(at(45, 30), 'cus_globex'),
];

describe('rate limits', () => {
  let server: ConsoleServer;
  const admin = (path: string, body: unknown, token = 'admin-a') => call(server, `/admin/v1${path}`, { token, method: 'PUT', body });
  const feed = async () =>
    (await call(server, '/console/v1/activity?kind=rate-limit-raised', { token: 'token-a' })).json.items as {
      text: string;
      actor: { name: string };
      subject?: unknown;
    }[];

  before(async () => {
    server = await startServer({ clock: () => new Date(NOW) });
    await ingest(server, events);
    for (const [id, name] of [
      ['cus_acme', 'Acme Ltd'],
      ['cus_globex', 'Globex Corp'],
    ])
      await admin(`/customers/${id}`, { name, plan: 'Pro', status: 'Active', owner });
  });
  after(() => server.close());

  test('a customer shows its limit, its busiest minute and its 429s, from the events', async () => {
    assert.equal((await admin('/customers/cus_acme/limits', { requestsPerMinute: 3 })).status, 200);
    const { status, json } = await call(server, '/console/v1/customers/cus_acme', { token: 'token-a' });
    assert.equal(status, 200);
    assert.ok(schema.customer.safeParse(json).success, 'the answer is the contract’s');
    const recent = events.filter((e) => e.customerId === 'cus_acme' && Date.parse(e.ts) > Date.parse(NOW) - 30 * 86_400_000);
    const perMinute = new Map<number, number>();
    for (const e of recent) perMinute.set(Math.floor(Date.parse(e.ts) / 60_000), (perMinute.get(Math.floor(Date.parse(e.ts) / 60_000)) ?? 0) + 1);
    const peak = Math.max(...perMinute.values());
    const peakMinute = Math.max(...[...perMinute].filter(([, n]) => n === peak).map(([m]) => m));
    assert.deepEqual(json.rateLimit, { requestsPerMinute: 3, peakPerMinute: peak, peakAt: new Date(peakMinute * 60_000).toISOString().replace('.000Z', 'Z') });
    assert.equal(peak, 4);
    assert.equal(json.throttled, recent.filter((e) => e.status === 429).length);
  });

  test('the customer list shows each customer’s 429s', async () => {
    const { json } = await call(server, '/console/v1/customers', { token: 'token-a' });
    assert.ok(schema.customerPage.safeParse(json).success);
    const throttled = Object.fromEntries((json.items as { id: string; throttled: number }[]).map((c) => [c.id, c.throttled]));
    assert.deepEqual(throttled, {
      cus_acme: events.filter((e) => e.customerId === 'cus_acme' && e.status === 429).length,
      cus_globex: 1,
    });
  });

  test('only a raise tells the feed: not a first limit, not a lower one', async () => {
    assert.deepEqual(await feed(), [], 'the first limit is no raise');
    const raised = await admin('/customers/cus_acme/limits', { requestsPerMinute: 600, actor: owner });
    assert.deepEqual(raised.json, { customerId: 'cus_acme', requestsPerMinute: 600, previous: 3 });
    assert.equal((await admin('/customers/cus_acme/limits', { requestsPerMinute: 500 })).json.previous, 600);
    const items = await feed();
    assert.deepEqual(
      items.map((i) => [i.actor.name, i.text, i.subject]),
      [['Lee Park', 'raised the rate limit for Acme Ltd', { kind: 'customer', id: 'cus_acme' }]],
    );
    assert.equal((await call(server, '/console/v1/customers/cus_acme', { token: 'token-a' })).json.rateLimit.requestsPerMinute, 500);
    assert.equal((await call(server, '/console/v1/customers/cus_globex', { token: 'token-a' })).json.rateLimit.requestsPerMinute, null, 'no limit set');
  });

  test('bad bodies are refused, an unknown customer is not found, and another account reaches none of them', async () => {
    for (const body of [{}, { requestsPerMinute: 0 }, { requestsPerMinute: 1.5 }, { requestsPerMinute: '600' }])
      assert.equal((await admin('/customers/cus_acme/limits', body)).status, 422, JSON.stringify(body));
    assert.equal((await admin('/customers/cus_nobody/limits', { requestsPerMinute: 10 })).status, 404);
    assert.equal((await admin('/customers/cus_acme/limits', { requestsPerMinute: 10 }, 'admin-b')).status, 404);
    assert.equal((await call(server, '/console/v1/customers/cus_acme', { token: 'token-a' })).json.rateLimit.requestsPerMinute, 500);
  });
});
