// What load balancers and orchestrators call: /healthz says the process is up, /readyz that the
// stores answer. Neither needs credentials, and neither says more than which database is away.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, goodEvent, startServer, storeSetup } from './harness.ts';

test(`/healthz and /readyz answer without credentials; with the stores gone, /readyz is a 503 naming the database (${storeSetup})`, async () => {
  const server = await startServer();
  const health = await call(server, '/healthz');
  assert.deepEqual([health.status, health.json], [200, { status: 'ok' }]);
  assert.equal(health.headers.get('cache-control'), 'no-store');
  const ready = await call(server, '/readyz');
  assert.deepEqual([ready.status, ready.json], [200, { status: 'ready' }]);

  await server.stores.close();
  const notReady = await call(server, '/readyz');
  assert.equal(notReady.status, 503);
  assert.equal(notReady.headers.get('content-type'), 'application/problem+json');
  assert.equal(notReady.headers.get('retry-after'), '5');
  const database = storeSetup === 'DuckDB' ? 'DuckDB' : 'ClickHouse';
  assert.equal(notReady.json.detail, `Not ready: ${database} does not answer.`);
  assert.doesNotMatch(JSON.stringify(notReady.json), /127\.0\.0\.1|closed|ECONN/, 'no address or error text');
  assert.equal((await call(server, '/healthz')).status, 200, 'the process is still up');
  await server.close().catch(() => undefined);
});

/** The value of one series in Prometheus text, e.g. `ops_console_ingest_events_total{outcome="accepted"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

test(`/metrics: Prometheus text for holders of the token: requests by route and status, ingest and OTLP outcomes, store errors (${storeSetup})`, async () => {
  const clock = () => new Date('2026-09-14T09:45:00Z');
  const server = await startServer({ metrics: { token: 'scrape-me' }, clock });
  const scrape = async () => {
    const answer = await call(server, '/metrics', { token: 'scrape-me' });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return answer.text;
  };
  try {
    assert.equal((await call(server, '/metrics')).status, 401);
    assert.equal((await call(server, '/metrics', { token: 'scrape-you' })).status, 401);

    const ingested = await call(server, '/ingest/v1/requests', {
      token: 'ingest-a',
      body: { events: [goodEvent(1), goodEvent(2), goodEvent(3), { ...goodEvent(4), status: 'teapot' }] },
    });
    assert.deepEqual([ingested.status, ingested.json.accepted, ingested.json.rejected.length], [202, 3, 1]);
    const span = (kind: number, path: string) => ({
      name: 'GET',
      kind,
      startTimeUnixNano: String(BigInt(clock().getTime() - 5_000) * 1_000_000n),
      endTimeUnixNano: String(BigInt(clock().getTime() - 5_000) * 1_000_000n + 7_000_000n),
      attributes: [
        { key: 'http.request.method', value: { stringValue: 'GET' } },
        { key: 'url.path', value: { stringValue: path } },
        { key: 'http.response.status_code', value: { intValue: '200' } },
      ],
    });
    const exported = await call(server, '/v1/traces', {
      token: 'ingest-a',
      body: { resourceSpans: [{ scopeSpans: [{ spans: [span(2, '/otlp/a'), span(2, '/otlp/b'), span(3, '/otlp/client')] }] }] },
    });
    assert.equal(exported.status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await call(server, '/console/v1/overview', { token: 'token-a' })).status, 200);

    const text = await scrape();
    assert.equal(sample(text, 'ops_console_ingest_events_total{outcome="accepted"}'), 5, 'three events and two server spans');
    assert.equal(sample(text, 'ops_console_ingest_events_total{outcome="rejected"}'), 1);
    assert.equal(sample(text, 'ops_console_otlp_spans_total{outcome="accepted"}'), 2);
    assert.equal(sample(text, 'ops_console_otlp_spans_total{outcome="ignored"}'), 1);
    assert.equal(sample(text, 'ops_console_ingest_bytes_in_flight'), 0, 'nothing read once the answers are in');
    assert.equal(sample(text, 'http_requests_total{method="GET",route="/console/v1/overview",status="200",ok="true"}'), 2);
    assert.equal(sample(text, 'http_requests_total{method="POST",route="/ingest/v1/requests",status="202",ok="true"}'), 1);
    assert.equal(sample(text, 'http_request_duration_seconds_count{method="GET",route="/console/v1/overview",status="200",ok="true"}'), 2);
    assert.match(text, /^process_cpu_seconds_total /m, 'the process metrics too');

    await server.stores.close();
    assert.equal((await call(server, '/console/v1/overview', { token: 'token-a' })).status, 503);
    assert.equal(sample(await scrape(), 'ops_console_store_errors_total{kind="unavailable"}'), 1);
  } finally {
    await server.close().catch(() => undefined);
  }
  const closed = await startServer();
  try {
    const off = await call(closed, '/metrics');
    assert.deepEqual([off.status, off.json.detail], [404, 'Metrics are off: set metrics.token (or metrics.public inside a private network).']);
  } finally {
    await closed.close();
  }
});
