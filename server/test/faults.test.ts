// The scale-out stores going away mid-run: the real ClickHouse and PostgreSQL processes are
// stopped and started again. While one is away, ingest and console routes answer 503 with
// Retry-After and change nothing; the collector keeps its events; once it is back, everything
// acknowledged is there exactly once. Also: retention drops whole months of raw events and keeps
// their counts.
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { collectHttp, createConsoleServer, createCollector, openStores, serve, type ConsoleServer } from '../src/index.ts';
import { startClickHouse, startPostgres, type DatabaseProcess } from './databases.ts';
import { INGEST_KEYS, TOKENS } from './harness.ts';

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
  [clickhouse, postgres] = await Promise.all([startClickHouse(), startPostgres()]);
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
      assert.deepEqual(collector.stats(), { sent: 5, queued: 0, droppedQueueFull: 0, droppedFailed: 0, failedAttempts: collector.stats().failedAttempts });
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
    const before = await paths();
    await postgres.stop();
    const record = { code: 500, endpoint: 'POST /messages', count: 2, firstSeen: '2026-09-01', status: 'Open' };
    const write = () => send('/console/v1/errors', { body: record, headers: { 'idempotency-key': 'k-outage' } });
    assertUnavailable(await write(), 'a new error record');
    assertUnavailable(await send('/console/v1/customers'), 'customers');
    // Request numbers come from PostgreSQL, so ingest waits for it too (and says so).
    assertUnavailable(await send('/ingest/v1/requests', { token: 'ingest-a', body: { events: [event('/messages/d0', 5)] } }), 'ingest');

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
    assert.deepEqual(await paths(), before, 'the refused batch left nothing behind');
  });
});

describe('retention', () => {
  test('drops whole months of raw events older than retention_months, and keeps their counts in the rollup', async () => {
    const url = clickhouse.url.replace('/ops_console', '/retention_check') + '?retention_months=12';
    const stores = await openStores({ telemetry: url, records: `${postgres.url}?schema=retention_check` });
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
      const telemetry = stores.telemetry as typeof stores.telemetry & { applyRetention(now: number): Promise<string[]> };
      assert.deepEqual(await telemetry.applyRetention(now), ['request_events_local 202509']);
      assert.equal((await stores.telemetry.requests('acct_r', { limit: 100 })).length, 4, 'the raw events of September 2025 are gone');
      assert.deepEqual(await stores.telemetry.perPeriod('acct_r', [september]), [{ requests: 6, errors: 0, bytes: 0 }], 'its counts stay');
    } finally {
      await stores.close();
    }
  });
});
