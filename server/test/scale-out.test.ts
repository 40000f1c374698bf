// The scale-out stores on real ClickHouse and PostgreSQL processes started here: two console
// servers sharing them; exact percentiles and key counts from the rollups, checked against the
// events; retention; and the databases going away mid-run (the processes are killed and started
// again): while one is away, ingest and console routes answer 503 with Retry-After and change
// nothing, the collector keeps its events, and once it is back everything acknowledged is there
// exactly once. (The route and figure suites run on these stores too: test/with-databases.ts.)
import assert from 'node:assert/strict';
import { createClient } from '@clickhouse/client';
import { createServer, type RequestListener, type Server } from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { collectHttp, createConsoleServer, createCollector, openClickHouseTelemetry, openStores, serve, type ConsoleServer } from '../src/index.ts';
import { isStoreUnavailable } from '../src/store/unavailable.ts';
import { createRequestIds } from '../src/request-ids.ts';
import { startClickHouse, startDatabases, startPostgres, type DatabaseProcess } from './databases.ts';
import { INGEST_KEYS, TOKENS, call, figures, nearestRankP95 } from './harness.ts';
import type { RequestEvent } from '../src/index.ts';

let clickhouse: DatabaseProcess;
let postgres: DatabaseProcess;
let server: ConsoleServer;
let http: { url: string; close(): Promise<void> };

const event = (path: string, secondsAgo: number) => ({
  ts: new Date(Date.now() - secondsAgo * 1000).toISOString(),
  method: 'POST',
  route: '/messages',
  path,
  status: 201,
  durationMs: 4,
});

async function send(
  path: string,
  { method = 'GET', token = 'token-a', body, headers = {} }: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${http.url}${path}`, {
    method: body === undefined ? method : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: JSON.parse(text) };
}

/** A client that honours 503: asks again (a few times) until the store answers. */
async function sendUntilServed(path: string, options: Parameters<typeof send>[1]) {
  for (let attempt = 0; ; attempt++) {
    const answer = await send(path, options);
    if (answer.status !== 503 || attempt === 10) return answer;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function assertUnavailable(answer: Awaited<ReturnType<typeof send>>, what: string) {
  assert.equal(answer.status, 503, `${what}: 503`);
  assert.equal(answer.headers.get('content-type'), 'application/problem+json', `${what}: problem+json`);
  assert.equal(answer.headers.get('retry-after'), '5', `${what}: Retry-After`);
  assert.equal(answer.json.title, 'Service unavailable');
}

const paths = async () => ((await sendUntilServed('/console/v1/requests?limit=500', {})).json.items as { path: string }[]).map((r) => r.path).sort();

before(async () => {
  [clickhouse, postgres] = await startDatabases(startClickHouse(), startPostgres());
  server = await createConsoleServer({ telemetry: clickhouse.url, records: postgres.url, auth: { tokens: TOKENS }, ingestKeys: INGEST_KEYS });
  http = await serve(server, { port: 0 });
});

after(async () => {
  await http.close();
  await server.close();
  await Promise.all([clickhouse.dispose(), postgres.dispose()]);
});

describe('ClickHouse stopped mid-run', () => {
  test('ingest and console routes answer 503 with Retry-After; the collector keeps its events; after the restart each acknowledged event is there once', async () => {
    const first = Array.from({ length: 20 }, (_, i) => event(`/messages/a${i}`, 60 + i));
    assert.equal((await send('/ingest/v1/requests', { token: 'ingest-a', body: { events: first } })).status, 202);

    // A real API with the collector installed, sending to the console server over HTTP.
    let clock = Date.now();
    const collector = createCollector({ sink: { url: http.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, now: () => clock });
    const api: RequestListener = (_request, response) => response.writeHead(201).end('created');
    const apiServer: Server = createServer(collectHttp(collector, api, { route: () => '/messages' }));
    await new Promise<void>((resolve) => apiServer.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
    try {
      await clickhouse.stop();
      const second = Array.from({ length: 15 }, (_, i) => event(`/messages/b${i}`, 30 + i));
      assertUnavailable(await send('/ingest/v1/requests', { token: 'ingest-a', body: { events: second } }), 'ingest');
      assertUnavailable(await send('/console/v1/overview'), 'overview');
      assertUnavailable(await send('/console/v1/requests'), 'request log');
      assertUnavailable(await send('/console/v1/endpoints'), 'endpoints');

      for (let i = 0; i < 5; i++) assert.equal((await fetch(`${origin}/messages/c${i}`, { method: 'POST' })).status, 201, 'the API answers as ever');
      await collector.flush();
      const waiting = collector.stats();
      assert.equal(waiting.sent, 0);
      assert.equal(waiting.queued, 5, 'the collector keeps what it could not send');
      assert.equal(waiting.droppedFailed + waiting.droppedQueueFull, 0);
      assert.ok(waiting.failedAttempts >= 1);

      await clickhouse.start();
      for (let i = 0; i < 10 && collector.stats().sent < 5; i++) {
        clock += 60_000; // past any Retry-After and backoff
        await collector.flush();
      }
      assert.equal((await sendUntilServed('/ingest/v1/requests', { token: 'ingest-a', body: { events: second } })).status, 202);

      const expected = [...first, ...second].map((e) => e.path).concat(Array.from({ length: 5 }, (_, i) => `/messages/c${i}`));
      assert.deepEqual(await paths(), expected.sort(), 'every acknowledged event, none twice');
      assert.deepEqual(collector.stats(), {
        sent: 5,
        rejected: 0,
        queued: 0,
        droppedQueueFull: 0,
        droppedFailed: 0,
        droppedAtClose: 0,
        failedAttempts: collector.stats().failedAttempts,
      });
      const overview = await sendUntilServed('/console/v1/overview', {});
      assert.equal(overview.json.figures.requestsToday.value, expected.length - countYesterday([...first, ...second]));
    } finally {
      apiServer.close();
      await collector.close();
    }
  });
});

/** Events of the batches sent before today's midnight (UTC), which "requests today" leaves out. */
function countYesterday(events: { ts: string }[]): number {
  const midnight = new Date();
  midnight.setUTCHours(0, 0, 0, 0);
  return events.filter((e) => Date.parse(e.ts) < midnight.getTime()).length;
}

describe('PostgreSQL stopped mid-run', () => {
  test('writes and record routes answer 503 and change nothing; the same Idempotency-Key after the restart creates exactly one record', async () => {
    // The error record below names POST /messages, which must have been called (also when this test runs alone).
    assert.equal((await sendUntilServed('/ingest/v1/requests', { token: 'ingest-a', body: { events: [event('/messages/p0', 5)] } })).status, 202);
    const before = await paths();
    // Going away in the middle of a transaction: the transaction fails as "unavailable", the process lives on.
    const cut = await server.stores.records
      .atomically(async (records) => {
        await records.customers('acct_a');
        await postgres.stop();
        return records.customers('acct_a');
      })
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    assert.ok(isStoreUnavailable(cut), `a transaction cut off fails as unavailable: ${String(cut)}`);
    const record = { code: 500, endpoint: 'POST /messages', count: 2, firstSeen: '2026-09-01', status: 'Open' };
    const write = () => send('/console/v1/errors', { body: record, headers: { 'idempotency-key': 'k-outage' } });
    assertUnavailable(await write(), 'a new error record');
    assertUnavailable(await send('/console/v1/customers'), 'customers');
    // A batch's Idempotency-Key lives in PostgreSQL, so such a batch waits for it (and says so).
    const keyed = { token: 'ingest-a', body: { events: [event('/messages/d1', 5)] }, headers: { 'idempotency-key': 'ingest-outage' } };
    assertUnavailable(await send('/ingest/v1/requests', keyed), 'ingest with a key');
    // Request ids need no PostgreSQL: a batch without a key is taken, and its event opens by its id.
    const taken = await send('/ingest/v1/requests', { token: 'ingest-a', body: { events: [event('/messages/d0', 5)] } });
    assert.deepEqual([taken.status, taken.json.accepted], [202, 1], 'ingest without a key');
    const [logged] = (await send('/console/v1/requests?path=/messages/d0')).json.items as { id: string }[];
    assert.equal((await send(`/console/v1/requests/${logged!.id}`)).json.path, '/messages/d0');

    await postgres.start();
    const created = await sendUntilServed('/console/v1/errors', { body: record, headers: { 'idempotency-key': 'k-outage' } });
    assert.equal(created.status, 201);
    const again = await write();
    assert.equal(again.status, 201);
    assert.equal(again.json.id, created.json.id, 'the same answer for the same key');
    const list = await sendUntilServed('/console/v1/errors', {});
    assert.deepEqual(
      (list.json.items as { id: string }[]).map((r) => r.id),
      [created.json.id],
    );
    assert.deepEqual(await paths(), [...before, '/messages/d0'].sort(), 'the refused batch left nothing behind');
  });
});

describe('PostgreSQL failing a commit after ClickHouse took the events', () => {
  test('the retry of the batch (same Idempotency-Key) adds nothing twice: each event once, in the log and in the counts', async () => {
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    // A real failure at COMMIT, after every statement of the transaction (ClickHouse's insert among them) went through.
    await db.query(`CREATE FUNCTION refuse_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the commit fails'; END $$`);
    await db.query(`CREATE CONSTRAINT TRIGGER refuse_once AFTER INSERT ON idempotency DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW WHEN (NEW.key = 'ingest lost-commit') EXECUTE PROCEDURE refuse_once()`);
    const countBefore = (await sendUntilServed('/console/v1/overview', {})).json.figures.requestsToday.value as number;
    try {
      const batch = Array.from({ length: 12 }, (_, i) => event(`/messages/commit${i}`, 3 + i));
      const sendBatch = () => send('/ingest/v1/requests', { token: 'ingest-a', body: { events: batch }, headers: { 'idempotency-key': 'lost-commit' } });
      const failed = await sendBatch();
      assert.ok(failed.status >= 500, `the failed commit is a server error, not an acknowledgement (${failed.status})`);
      await db.query('DROP TRIGGER refuse_once ON idempotency');
      const retried = await sendBatch();
      assert.deepEqual([retried.status, retried.json.accepted], [202, 12]);
      const repeated = await sendBatch();
      assert.deepEqual([repeated.status, repeated.json.accepted], [202, 12]);
      const stored = (await paths()).filter((path) => path.startsWith('/messages/commit'));
      assert.deepEqual(stored, batch.map((e) => e.path).sort(), 'each event of the batch once');
      const today = batch.length - countYesterday(batch);
      assert.equal((await sendUntilServed('/console/v1/overview', {})).json.figures.requestsToday.value, countBefore + today, 'counted once');
    } finally {
      await db.query('DROP TRIGGER IF EXISTS refuse_once ON idempotency');
      await db.query('DROP FUNCTION IF EXISTS refuse_once()');
      await db.end();
    }
  });
});

describe('a ClickHouse database made before the batch columns', () => {
  test('gets them by its migrations, once, when the server opens it, and keeps its events readable', async () => {
    const ch = createClient({ url: `http://${new URL(clickhouse.url.replace('clickhouse:', 'http:')).host}` });
    try {
      await ch.command({ query: 'CREATE DATABASE IF NOT EXISTS legacy_check' });
      // request_events_local as the releases before the Idempotency-Key made it, with one event in it.
      await ch.command({
        query: `CREATE TABLE legacy_check.request_events_local (
          account_id String, seq UInt64, ts Int64, method String, route String, path String, status UInt16, duration_ms Float64,
          api_version Nullable(String), key_id Nullable(String), customer_id Nullable(String),
          actor_id Nullable(String), actor_name Nullable(String), bytes Nullable(Int64), headers Nullable(String)
        ) ENGINE = MergeTree PARTITION BY toYYYYMM(toDateTime(intDiv(ts, 1000), 'UTC')) ORDER BY (account_id, ts, seq)`,
      });
      const ts = Date.now() - 60_000;
      await ch.insert({
        table: 'legacy_check.request_events_local',
        format: 'JSONEachRow',
        values: [{ account_id: 'acct_l', seq: 1, ts, method: 'GET', route: '/old', path: '/old/1', status: 200, duration_ms: 2 }],
      });
      const telemetry = await openClickHouseTelemetry({ url: clickhouse.url.replace('/ops_console', '/legacy_check') });
      try {
        const fresh = {
          accountId: 'acct_l',
          ts,
          method: 'GET',
          route: '/new',
          path: '/new/1',
          status: 200,
          durationMs: 3,
          apiVersion: null,
          keyId: null,
          customerId: null,
          actor: null,
          bytes: null,
          headers: null,
        };
        await telemetry.appendBatch('acct_l', [fresh], { key: 'ingest k1', at: Date.now() });
        await telemetry.appendBatch('acct_l', [fresh], { key: 'ingest k1', at: Date.now() });
        const stored = await telemetry.requests('acct_l', { limit: 10 });
        assert.deepEqual(stored.map((r) => r.path).sort(), ['/new/1', '/old/1']);
        // The old event keeps the id of its position; the new one draws a tag, with no records store.
        const ids = createRequestIds('the records store’s secret');
        for (const r of stored) {
          const id = ids.encode('acct_l', r);
          assert.match(id, r.path === '/old/1' ? /^rq_[0-9a-f]{16}$/ : /^rq_[0-9a-f]{25}$/);
          const place = ids.decode('acct_l', id)!;
          const at = place.ts === undefined ? {} : { from: place.ts, to: place.ts + 1 };
          assert.deepEqual(
            (await telemetry.requests('acct_l', { limit: 2, seq: place.seq, ...at })).map((found) => found.path),
            [r.path],
            id,
          );
        }
        // Each migration ran once, in order, and a second server opening the database runs none again.
        const log = async () =>
          (
            await (
              await ch.query({ query: 'SELECT version FROM legacy_check.schema_migrations_local ORDER BY version', format: 'JSONEachRow' })
            ).json<{ version: number }>()
          ).map((row) => row.version);
        assert.deepEqual(await log(), [1, 2]);
        await (await openClickHouseTelemetry({ url: clickhouse.url.replace('/ops_console', '/legacy_check') })).close();
        assert.deepEqual(await log(), [1, 2]);
      } finally {
        await telemetry.close();
      }
    } finally {
      await ch.close();
    }
  });
});

describe('a ClickHouse database first served without a cluster', () => {
  test('gets its Distributed tables when a cluster is named, though its migrations are done, and takes and reads events through them', async () => {
    const plainUrl = clickhouse.url.replace('/ops_console', '/cluster_later');
    await (await openClickHouseTelemetry({ url: plainUrl })).close();
    const telemetry = await openClickHouseTelemetry({ url: `${plainUrl}?cluster=ops_console` });
    try {
      const ts = Date.now() - 60_000;
      const event = { accountId: 'acct_c', ts, method: 'GET', route: '/c', path: '/c/1', status: 200, durationMs: 2 };
      const none = { apiVersion: null, keyId: null, customerId: null, actor: null, bytes: null, headers: null };
      await telemetry.appendBatch('acct_c', [{ ...event, ...none }], { key: 'ingest c1', at: Date.now() });
      assert.deepEqual(
        (await telemetry.requests('acct_c', { limit: 10 })).map((r) => r.path),
        ['/c/1'],
      );
    } finally {
      await telemetry.close();
    }
  });
});

describe('headers kept with the events by versions before payloads', () => {
  test('are erased with their customer’s payloads and expire with the payloads, on the events themselves', async () => {
    const telemetry = await openClickHouseTelemetry({ url: clickhouse.url.replace('/ops_console', '/legacy_headers') });
    const ch = createClient({ url: `http://${new URL(clickhouse.url.replace('clickhouse:', 'http:')).host}` });
    try {
      const now = Date.now();
      // As a version before payloads wrote them: the headers in the event's own column.
      const legacy = (seq: number, customer: string, ts: number) => ({
        account_id: 'acct_h',
        seq,
        ts,
        method: 'POST',
        route: '/orders',
        path: `/orders/${seq}`,
        status: 201,
        duration_ms: 2,
        customer_id: customer,
        headers: JSON.stringify({ 'x-order': `ord_${seq}` }),
      });
      await ch.insert({
        table: 'legacy_headers.request_events_local',
        format: 'JSONEachRow',
        values: [legacy(1, 'cus_a', now - 60_000), legacy(2, 'cus_b', now - 60_000), legacy(3, 'cus_b', now - 30 * 86_400_000)],
      });
      const headersByPath = async () =>
        Object.fromEntries((await telemetry.requests('acct_h', { limit: 10 })).map((r) => [r.path, r.headers?.['x-order'] ?? null]));
      assert.deepEqual(await headersByPath(), { '/orders/1': 'ord_1', '/orders/2': 'ord_2', '/orders/3': 'ord_3' });
      await telemetry.erasePayloads('acct_h', 'cus_a');
      assert.deepEqual(await headersByPath(), { '/orders/1': null, '/orders/2': 'ord_2', '/orders/3': 'ord_3' });
      await telemetry.expirePayloads(now - 7 * 86_400_000);
      assert.deepEqual(await headersByPath(), { '/orders/1': null, '/orders/2': 'ord_2', '/orders/3': null });
      assert.equal((await telemetry.requests('acct_h', { limit: 10 })).length, 3, 'the requests stay');
    } finally {
      await ch.close();
      await telemetry.close();
    }
  });
});

describe('retention', () => {
  test('drops whole months of raw events older than retention_months, and keeps their counts in the rollup', async () => {
    // The telemetry store alone: openStores would also run retention in the background, by the real clock.
    const telemetry = await openClickHouseTelemetry({ url: clickhouse.url.replace('/ops_console', '/retention_check') + '?retention_months=12' });
    const stores = { telemetry, close: () => telemetry.close() };
    try {
      const now = Date.UTC(2026, 10, 24, 12);
      const old = Date.UTC(2025, 8, 10, 12); // September 2025: 14 months back
      const recent = Date.UTC(2026, 9, 10, 12);
      const make = (ts: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({
          accountId: 'acct_r',
          ts: ts + i * 60_000,
          method: 'GET',
          route: '/old',
          path: `/old/${i}`,
          status: 200,
          durationMs: 3,
          apiVersion: null,
          keyId: null,
          customerId: null,
          actor: null,
          bytes: null,
        }));
      await stores.telemetry.append([...make(old, 6), ...make(recent, 4)]);
      const september = { from: Date.UTC(2025, 8, 1), to: Date.UTC(2025, 9, 1) };
      assert.deepEqual(await telemetry.applyRetention(now), ['request_events_local 202509', 'request_durations_local 202509']);
      assert.equal((await stores.telemetry.requests('acct_r', { limit: 100 })).length, 4, 'the raw events of September 2025 are gone');
      assert.deepEqual(await figures(stores.telemetry).perPeriod('acct_r', [september]), [{ requests: 6, errors: 0, bytes: 0 }], 'its counts stay');
    } finally {
      await stores.close();
    }
  });
});

describe('two console servers sharing one ClickHouse and one PostgreSQL', () => {
  test('batches through both are all there with distinct ids, and a record written through one is read and guarded through the other', async () => {
    const shared = {
      telemetry: clickhouse.url.replace('/ops_console', '/shared_check'),
      records: `${postgres.url}?schema=shared_check`,
      auth: { tokens: TOKENS },
      ingestKeys: INGEST_KEYS,
    };
    const [one, two] = await Promise.all([createConsoleServer(shared), createConsoleServer(shared)]);
    try {
      const batch = (server: ConsoleServer, name: string) =>
        call(server, '/ingest/v1/requests', {
          token: 'ingest-a',
          body: { events: Array.from({ length: 30 }, (_, i) => event(`/messages/${name}${i}`, i + 1)) },
        });
      const answers = await Promise.all([batch(one, 'one'), batch(two, 'two'), batch(one, 'again'), batch(two, 'more')]);
      assert.deepEqual(
        answers.map((a) => a.status),
        [202, 202, 202, 202],
      );
      const listed = (await call(two, '/console/v1/requests?limit=500', { token: 'token-a' })).json.items as { id: string; path: string }[];
      assert.equal(listed.length, 120);
      assert.equal(new Set(listed.map((r) => r.id)).size, 120, 'no two requests share an id');
      assert.deepEqual((await call(one, '/console/v1/requests?limit=500', { token: 'token-a' })).json.items, listed, 'both servers list the same');

      const created = await call(one, '/console/v1/errors', {
        token: 'token-a',
        body: { code: 500, endpoint: 'POST /messages', count: 1, firstSeen: '2026-09-01', status: 'Open' },
      });
      assert.equal(created.status, 201);
      const changed = await call(two, `/console/v1/errors/${created.json.id}`, {
        token: 'token-a',
        method: 'PATCH',
        body: { status: 'Fixed' },
        headers: { 'if-match': `"${created.json.version}"` },
      });
      assert.equal(changed.status, 200);
      const stale = await call(one, `/console/v1/errors/${created.json.id}`, {
        token: 'token-a',
        method: 'PATCH',
        body: { status: 'Ignored' },
        headers: { 'if-match': `"${created.json.version}"` },
      });
      assert.equal(stale.status, 412, 'the other server’s change wins; the stale one is refused');
      assert.equal((await call(one, `/console/v1/errors/${created.json.id}`, { token: 'token-a' })).json.status, 'Fixed');

      // A spike arriving through both servers at once is one activity item.
      const spike = () =>
        Array.from({ length: 12 }, (_, i) => ({
          ts: new Date(Date.now() - i * 1000).toISOString(),
          method: 'POST',
          route: '/spiky',
          path: '/spiky',
          status: 500,
          durationMs: 9,
        }));
      const both = await Promise.all([one, two].map((server) => call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: spike() } })));
      assert.deepEqual(
        both.map((a) => a.status),
        [202, 202],
      );
      // Spike checks run after the answers: both servers' checks are done before the feed is read.
      await Promise.all([one.idle(), two.idle()]);
      const spikes = (await call(two, '/console/v1/activity?kind=error-spike', { token: 'token-a' })).json.items as { subject?: unknown }[];
      assert.equal(spikes.length, 1, 'one spike item, not one per server');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('long periods read from the rollups, exactly', () => {
  test('p95, active keys and counts over days, weeks and uneven periods equal those computed from the events', async () => {
    const stores = await openStores({ telemetry: clickhouse.url.replace('/ops_console', '/exact_check'), records: `${postgres.url}?schema=exact_check` });
    try {
      // Durations from 0.01 ms to 20 s (log-uniform, with ties), some requests without a key, over 40 days.
      let seed = 42;
      const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      const start = Date.UTC(2026, 8, 1, 3, 7);
      const events: RequestEvent[] = Array.from({ length: 4_000 }, (_, i) => ({
        accountId: 'acct_x',
        ts: start + Math.floor(rand() * 40 * 86_400_000),
        method: 'GET',
        route: '/x',
        path: `/x/${i}`,
        status: rand() < 0.05 ? 500 : 200,
        durationMs: i % 50 === 0 ? 120 : Math.round(10 ** (rand() * 6.3 - 2) * 1000) / 1000,
        apiVersion: null,
        keyId: rand() < 0.2 ? null : `key_${Math.floor(rand() * 300)}`,
        customerId: null,
        actor: null,
        bytes: null,
      }));
      // Requests on both sides of the ends of the periods below that fall inside a quarter hour.
      for (const [ts, durationMs] of [
        [Date.UTC(2026, 8, 5, 3, 5), 4_000],
        [Date.UTC(2026, 8, 5, 3, 12), 4_100],
        [Date.UTC(2026, 8, 12, 22, 47), 4_200],
        [Date.UTC(2026, 8, 12, 22, 52), 4_300],
      ] as const)
        events.push({ ...events[0]!, ts, durationMs, path: `/x/edge${ts}` });
      // A second account with slower copies of some of them, to be read in the same batches.
      const others = events.slice(0, 1_500).map((e) => ({ ...e, accountId: 'acct_y', durationMs: e.durationMs * 3 + 1 }));
      for (let i = 0; i < events.length; i += 1_000) await stores.telemetry.append(events.slice(i, i + 1_000));
      await stores.telemetry.append(others);
      const inPeriod = (p: { from: number; to: number }, of = events) => of.filter((e) => e.ts >= p.from && e.ts < p.to);
      const hours = (h: number) => h * 3_600_000;
      const periods = [
        { from: start, to: start + hours(40 * 24) },
        { from: Date.UTC(2026, 8, 3), to: Date.UTC(2026, 8, 13) },
        { from: Date.UTC(2026, 8, 3) + hours(5.75), to: Date.UTC(2026, 8, 20) - hours(5.75) },
        { from: Date.UTC(2026, 8, 10, 12, 1), to: Date.UTC(2026, 8, 13, 12, 1) },
        // Ends ten minutes into a quarter hour, in most of a day: the day less the rest of it, less the quarter hour less its rest.
        { from: Date.UTC(2026, 8, 5, 3, 10), to: Date.UTC(2026, 8, 12, 22, 50) },
      ];
      for (const period of periods) {
        const mine = inPeriod(period);
        const totals = await figures(stores.telemetry).totals('acct_x', period);
        assert.deepEqual(
          totals,
          {
            requests: mine.length,
            errors: mine.filter((e) => e.status >= 500).length,
            p95Ms: nearestRankP95(mine.map((e) => e.durationMs)),
            keys: new Set(mine.map((e) => e.keyId).filter(Boolean)).size,
            bytes: 0,
          },
          new Date(period.from).toISOString(),
        );
      }
      // Eight-day buckets that start at a quarter past the hour, as an uneven time zone's would.
      const buckets = Array.from({ length: 5 }, (_, i) => ({ from: start + hours(i * 8 * 24) + 8 * 60_000, to: start + hours((i + 1) * 8 * 24) + 8 * 60_000 }));
      const expected = (p: { from: number; to: number }) => {
        const mine = inPeriod(p);
        return { requests: mine.length, errors: mine.filter((e) => e.status >= 500).length, p95Ms: nearestRankP95(mine.map((e) => e.durationMs)) };
      };
      assert.deepEqual(await figures(stores.telemetry).latencyPerPeriod('acct_x', buckets), buckets.map(expected));
      // The days of a zone two hours ahead of UTC: each across a UTC midnight.
      const localDays = Array.from({ length: 5 }, (_, k) => ({ from: Date.UTC(2026, 8, 6 + k, 22), to: Date.UTC(2026, 8, 7 + k, 22) }));
      assert.deepEqual(await figures(stores.telemetry).latencyPerPeriod('acct_x', localDays), localDays.map(expected));
      // Asked all at once, as a route's Promise.all asks: the reads are batched into one query per
      // account, with periods that overlap; each answer is still its own period's, of its own account.
      const totalsOf = (mine: RequestEvent[]) => ({
        requests: mine.length,
        errors: mine.filter((e) => e.status >= 500).length,
        p95Ms: nearestRankP95(mine.map((e) => e.durationMs)),
        keys: new Set(mine.map((e) => e.keyId).filter(Boolean)).size,
        bytes: 0,
      });
      const [together, series, theirs, theirSeries] = await Promise.all([
        figures(stores.telemetry).totalsFor('acct_x', periods),
        figures(stores.telemetry).latencyPerPeriod('acct_x', buckets),
        Promise.all(periods.map((p) => figures(stores.telemetry).totals('acct_y', p))),
        figures(stores.telemetry).perPeriod('acct_y', buckets),
      ]);
      assert.deepEqual(
        together,
        periods.map((p) => totalsOf(inPeriod(p))),
        'overlapping periods read together',
      );
      assert.deepEqual(series, buckets.map(expected), 'buckets read in the same batch');
      assert.deepEqual(
        theirs,
        periods.map((p) => totalsOf(inPeriod(p, others))),
        "the other account's periods, in the same batch",
      );
      assert.deepEqual(
        theirSeries,
        buckets.map((b) => ({ requests: inPeriod(b, others).length, errors: inPeriod(b, others).filter((e) => e.status >= 500).length, bytes: 0 })),
      );
      // The same figures with the raw events gone: periods on quarter hours read nothing but the rollups and the durations.
      const admin = createClient({ url: `http://${clickhouse.url.slice('clickhouse://'.length).split('/')[0]!}` });
      const parts = await admin.query({
        query: "SELECT DISTINCT partition FROM system.parts WHERE database = 'exact_check' AND table = 'request_events_local' AND active",
        format: 'JSONEachRow',
      });
      for (const { partition } of await parts.json<{ partition: string }>())
        await admin.command({ query: `ALTER TABLE exact_check.request_events_local DROP PARTITION ${partition}` });
      await admin.close();
      assert.equal((await stores.telemetry.requests('acct_x', { limit: 10 })).length, 0, 'no raw events left');
      // (Each on its own: the periods overlap, and one call takes periods that do not.)
      for (const period of [periods[1]!, periods[2]!]) {
        assert.deepEqual(await figures(stores.telemetry).latencyPerPeriod('acct_x', [period]), [expected(period)]);
        const keys = new Set(inPeriod(period).map((e) => e.keyId));
        keys.delete(null);
        assert.equal((await figures(stores.telemetry).totals('acct_x', period)).keys, keys.size);
      }
    } finally {
      await stores.close();
    }
  });
});

describe('two shards', () => {
  test('accounts spread over both shards, each whole on one, each read exactly from its own shard, and served while the other shard is down', async () => {
    const cluster = await startClickHouse({ shards: 2 });
    const stores = await openStores({ telemetry: cluster.url, records: `${postgres.url}?schema=shards_check` });
    try {
      const accounts = Array.from({ length: 8 }, (_, i) => `acct_s${i}`);
      const events: RequestEvent[] = accounts.flatMap((accountId, a) =>
        Array.from({ length: a + 3 }, (_, i) => ({
          accountId,
          ts: Date.UTC(2026, 8, 1, 6) + i * 3_600_000,
          method: 'GET',
          route: '/s',
          path: '/s',
          status: i % 3 ? 200 : 500,
          durationMs: (i * 7) % 11,
          apiVersion: null,
          keyId: `k${i % 2}`,
          customerId: null,
          actor: null,
          bytes: 10,
        })),
      );
      await stores.telemetry.append(events);
      const hosts = cluster.url.slice('clickhouse://'.length).split('/')[0]!.split(',');
      const perShard = await Promise.all(
        hosts.map(async (host) => {
          const client = createClient({ url: `http://${host}` });
          const result = await client.query({ query: 'SELECT DISTINCT account_id FROM ops_console.request_events_local', format: 'JSONEachRow' });
          const rows = await result.json<{ account_id: string }>();
          await client.close();
          return rows.map((r) => r.account_id);
        }),
      );
      assert.ok(
        perShard.every((accountsThere) => accountsThere.length > 0),
        `both shards hold accounts: ${JSON.stringify(perShard)}`,
      );
      assert.deepEqual(perShard.flat().sort(), [...accounts].sort(), 'each account on exactly one shard');
      // Three days and more: read from the rollups, histograms and key sets of the account's shard.
      const period = { from: Date.UTC(2026, 8, 1), to: Date.UTC(2026, 8, 5) };
      const expected = (accountId: string) => {
        const mine = events.filter((e) => e.accountId === accountId);
        return {
          requests: mine.length,
          errors: mine.filter((e) => e.status >= 500).length,
          p95Ms: nearestRankP95(mine.map((e) => e.durationMs)),
          keys: 2,
          bytes: 10 * mine.length,
        };
      };
      for (const accountId of accounts) assert.deepEqual(await figures(stores.telemetry).totals(accountId, period), expected(accountId));
      // The second shard goes away: its accounts are unavailable (503), the first shard's are still
      // read in full (through the Distributed tables every read would need both shards).
      await cluster.stop(1);
      for (const accountId of perShard[0]!)
        assert.deepEqual(await figures(stores.telemetry).totals(accountId, period), expected(accountId), `${accountId} on the shard still up`);
      for (const accountId of perShard[1]!) {
        const outcome = await figures(stores.telemetry)
          .totals(accountId, period)
          .then(
            () => 'answered',
            (error: unknown) => error,
          );
        assert.ok(isStoreUnavailable(outcome), `${accountId} on the stopped shard is unavailable: ${String(outcome)}`);
      }
      // Writes and reads that need the stopped shard fail as unavailable (503): an account's events
      // go to its shard, and a store whose URL lists only the first shard reads the second through
      // the Distributed tables.
      const late = { ...events.find((e) => e.accountId === perShard[1]![0])!, ts: Date.UTC(2026, 8, 2) };
      const appended = await stores.telemetry.append([late]).then(
        () => 'stored',
        (error: unknown) => error,
      );
      assert.ok(isStoreUnavailable(appended), `an event for the stopped shard is unavailable: ${String(appended)}`);
      const firstOnly = await openClickHouseTelemetry({ url: `clickhouse://${hosts[0]}/ops_console?cluster=ops_console` });
      try {
        const through = await figures(firstOnly)
          .totals(perShard[1]![0]!, period)
          .then(
            () => 'answered',
            (error: unknown) => error,
          );
        assert.ok(isStoreUnavailable(through), `through the Distributed tables: unavailable: ${String(through)}`);
        assert.deepEqual(await figures(firstOnly).totals(perShard[0]![0]!, period), expected(perShard[0]![0]!));
      } finally {
        await firstOnly.close();
      }
      await cluster.start();
      for (const accountId of accounts)
        assert.deepEqual(await figures(stores.telemetry).totals(accountId, period), expected(accountId), `${accountId} after the restart`);
      // With the first shard down, a store that has not read the second shard's accounts yet still
      // finds their shard (any host computes the hash) and reads them.
      const fresh = await openClickHouseTelemetry({ url: cluster.url });
      try {
        await cluster.stop(0);
        for (const accountId of perShard[1]!)
          assert.deepEqual(await figures(fresh).totals(accountId, period), expected(accountId), `${accountId} with the first shard down`);
      } finally {
        await fresh.close();
        await cluster.start();
      }
    } finally {
      await stores.close();
      await cluster.dispose();
    }
  });
});
