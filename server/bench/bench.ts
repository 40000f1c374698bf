/**
 * `npm run bench:server`: what the collector costs an API next to the OpenTelemetry Node SDK
 * (CPU per request, p50/p99), the Python and Go collectors against bare handlers
 * (collect-native.ts) and the spans/s the OTLP receiver accepts (collect.ts); then, for
 * each store setup side by side (the DuckDB file, ClickHouse + PostgreSQL, two ClickHouse shards
 * + PostgreSQL; setups.ts), ingest throughput through the batch API (and, on ClickHouse, straight
 * into the store), then p50/p95 latency of every console route at 1,000,000 and 10,000,000
 * stored events (the bulk of them generated inside the database, since only the ingest rate
 * itself needs the HTTP path). Prints a table and writes .bench/server.json. Sizes:
 * BENCH_SIZES=1000000,10000000 (empty: none); calls: BENCH_CALLS; setups:
 * BENCH_STORES=duckdb,clickhouse,clickhouse-2shards; collector: BENCH_COLLECT_SECONDS,
 * BENCH_COLLECT_ROUNDS, BENCH_COLLECT_RATE, BENCH_COLLECT_SLOW_MS; OTLP: BENCH_OTLP_BATCHES.
 * Then tenant B's p95 while tenant A attacks, against B's with A idle (fairness.ts).
 * BENCH_PARTS=collect,otlp,fairness,ingest,routes,search runs only the parts named (default: all);
 * search: the request log's search over kept bodies (search.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsoleServer, openStores, serve } from '../src/index.ts';
import { toRequestEvent } from '@ops-console/contract/request-event';
import { demoEvent, random } from '../demo/traffic.ts';
import { measureCollector, measureOtlp, type Row } from './collect.ts';
import { measureNativeCollectors } from './collect-native.ts';
import { measureFairness } from './fairness.ts';
import { measureSearch } from './search.ts';
import { BENCH_ACCOUNT, clickHouseSetup, duckDbSetup, type Setup } from './setups.ts';

const SIZES = (process.env['BENCH_SIZES'] ?? '1000000,10000000').split(',').filter(Boolean).map(Number);
const CALLS = Number(process.env['BENCH_CALLS'] ?? 30);
const INGEST_EVENTS = Number(process.env['BENCH_INGEST'] ?? 200_000);
const PARTS = new Set((process.env['BENCH_PARTS'] ?? 'collect,otlp,fairness,ingest,routes,search').split(','));
const BATCH = 5_000;
const DAY = 86_400_000;
const auth = { tokens: { bench: { accountId: BENCH_ACCOUNT, user: { id: 'u_b', name: 'Bench' } } } };
const ingestKeys = { 'bench-ingest': BENCH_ACCOUNT };
const adminKeys = { 'bench-admin': BENCH_ACCOUNT };
const STORES = (process.env['BENCH_STORES'] ?? 'duckdb,clickhouse,clickhouse-2shards').split(',').filter(Boolean);

const dir = mkdtempSync(join(tmpdir(), 'ops-console-bench-'));
const rows: Row[] = [];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!;

/** Ingest through HTTP: `spread` says over how long before now the batch's timestamps lie. */
async function measureIngest(setup: Setup, label: string, spreadMs: (i: number) => number, budget: boolean) {
  const server = await createConsoleServer({ ...setup.config, auth, ingestKeys });
  const http = await serve(server, { port: 0 });
  const rand = random(7);
  const now = Date.now();
  const bodies: string[] = [];
  for (let i = 0; i < INGEST_EVENTS; i += BATCH) {
    bodies.push(JSON.stringify({ events: Array.from({ length: Math.min(BATCH, INGEST_EVENTS - i) }, (_, j) => demoEvent(rand, now - spreadMs(i + j))) }));
  }
  const started = performance.now();
  for (const body of bodies) {
    const response = await fetch(`${http.url}/ingest/v1/requests`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench-ingest', 'content-type': 'application/json' },
      body,
    });
    if (response.status !== 202) throw new Error(`ingest ${response.status}`);
    await response.arrayBuffer();
  }
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round(INGEST_EVENTS / seconds);
  rows.push({
    group: `ingest, ${setup.name}`,
    figure: `events/s through POST /ingest/v1/requests, ${label} (batches of ${BATCH.toLocaleString('en-US')}, ${INGEST_EVENTS.toLocaleString('en-US')} events)`,
    value: perSecond.toLocaleString('en-US'),
    budget: budget ? '≥ 50,000' : '—',
    result: budget ? (perSecond >= 50_000 ? 'pass' : 'FAIL') : '',
  });
  await http.close();
  await server.close();
}

/** Events/s straight into the store's append (what the database takes in batches, without HTTP and validation): 4 batches in flight. */
async function measureAppend(setup: Setup) {
  const stores = await openStores(setup.config);
  const rand = random(5);
  const now = Date.now();
  const batch = 20_000;
  const batches = Array.from({ length: Math.ceil((INGEST_EVENTS * 5) / batch) }, () =>
    Array.from({ length: batch }, () => {
      const e = demoEvent(rand, now - Math.floor(rand() * 3_600_000));
      return toRequestEvent(BENCH_ACCOUNT, { ...e, ts: Date.parse(e.ts) });
    }),
  );
  const started = performance.now();
  for (let i = 0; i < batches.length; i += 4) await Promise.all(batches.slice(i, i + 4).map((b) => stores.telemetry.append(b)));
  const perSecond = Math.round((batches.length * batch) / ((performance.now() - started) / 1000));
  await stores.close();
  rows.push({
    group: `ingest, ${setup.name}`,
    figure: `events/s through the store's append (batches of ${batch.toLocaleString('en-US')}, 4 in flight, ${(batches.length * batch).toLocaleString('en-US')} events)`,
    value: perSecond.toLocaleString('en-US'),
    budget: '≥ 200,000',
    result: perSecond >= 200_000 ? 'pass' : 'FAIL',
  });
}

const ROUTES = [
  '/overview',
  '/overview?range=12m',
  '/endpoints',
  '/endpoints?sort=-p95Ms&status=Failing',
  '/requests',
  '/requests?status=5xx&method=POST',
  '/requests/summary',
  '/traffic',
  '/customers/cus_1',
  '/webhooks/wh_bench',
  '/errors',
  '/errors/options',
  '/activity',
  '/versions',
  '/versions?range=24h',
  '/keys',
  '/keys?range=24h&status=Active',
  '/keys/key_7',
];

async function measureRoutes(setup: Setup, total: number) {
  const server = await createConsoleServer({ ...setup.config, auth, ingestKeys, adminKeys, alerts: { evaluateEverySeconds: 0 } });
  const group = `${setup.name}, ${(total / 1_000_000).toLocaleString('en-US')}M events`;
  // The budgets: 150 ms for the embedded file (its own issue), 200 ms at scale, 100 ms for the year-range overview on ClickHouse's rollups.
  const budgetMs = (route: string) => (total < 10_000_000 ? undefined : setup.name === 'DuckDB' ? 150 : route === '/overview?range=12m' ? 100 : 200);
  const http = await serve(server, { port: 0 });
  const admin = (path: string, body: unknown) =>
    fetch(`${http.url}${path}`, {
      method: 'PUT',
      headers: { authorization: 'Bearer bench-admin', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const owner = { id: 'u_b', name: 'Bench' };
  await admin('/admin/v1/customers/cus_1', { name: 'Customer 1', plan: 'Pro', status: 'Active', owner });
  await admin('/admin/v1/webhooks/wh_bench', { name: 'invoice.paid', customer: { id: 'cus_1', name: 'Customer 1' }, owner, endpoints: ['POST /webhooks'] });
  // One route in eight of the generated events: who still calls it is read from all of them.
  await admin('/admin/v1/deprecations/dep_bench', { endpoint: 'DELETE /contacts/{id}', sunsetAt: Date.now() + 30 * DAY, actor: owner });
  // Every tenth of the generated events' 400 keys registered, one revoked: the rest are listed as Unregistered.
  for (let k = 0; k < 400; k += 10)
    await admin(`/admin/v1/keys/key_${k}`, { name: `Key ${k}`, customerId: 'cus_1', ...(k === 10 ? { revokedAt: Date.now() - DAY } : {}) });
  await admin('/admin/v1/keys/key_7', { name: 'Key 7', customerId: 'cus_1', revokedAt: Date.now() - 7 * DAY });
  for (const route of ROUTES) {
    const times: number[] = [];
    for (let i = 0; i < CALLS + 2; i++) {
      const started = performance.now();
      const response = await fetch(`${http.url}/console/v1${route}`, { headers: { authorization: 'Bearer bench' } });
      if (response.status !== 200) throw new Error(`${route}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      if (i >= 2) times.push(performance.now() - started); // the first two warm caches
    }
    const p95 = percentile(times, 95);
    const budget = budgetMs(route);
    rows.push({
      group,
      figure: `GET ${route}: p50 / p95`,
      value: `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
      budget: budget ? `p95 ≤ ${budget} ms` : '—',
      result: budget ? (p95 <= budget ? 'pass' : 'FAIL') : '',
    });
  }
  // The writes: each call a new record (a new Idempotency-Key), then a change to one.
  const write = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${http.url}/console/v1${path}`, {
      method,
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; version: number };
  };
  const firstSeen = new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10);
  let record = await write(
    'POST',
    '/errors',
    { code: 500, endpoint: 'POST /webhooks', count: 1, firstSeen, status: 'Open' },
    { 'idempotency-key': `bench-${total}` },
  );
  const writes: [string, (i: number) => Promise<unknown>][] = [
    ['POST /customers/{id}/notes', (i) => write('POST', '/customers/cus_1/notes', { text: `Note ${i}` }, { 'idempotency-key': `note-${total}-${i}` })],
    [
      'POST /errors',
      (i) =>
        write('POST', '/errors', { code: 500, endpoint: 'POST /webhooks', count: 1, firstSeen, status: 'Open' }, { 'idempotency-key': `error-${total}-${i}` }),
    ],
    [
      'PATCH /errors/{id}',
      async (i) => (record = await write('PATCH', `/errors/${record.id}`, { notes: `Change ${i}` }, { 'if-match': `"${record.version}"` })),
    ],
  ];
  for (const [label, run] of writes) {
    const times: number[] = [];
    for (let i = 0; i < CALLS + 2; i++) {
      const started = performance.now();
      await run(i);
      if (i >= 2) times.push(performance.now() - started);
    }
    const p95 = percentile(times, 95);
    const budget = budgetMs(label);
    rows.push({
      group,
      figure: `${label}: p50 / p95`,
      value: `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
      budget: budget ? `p95 ≤ ${budget} ms` : '—',
      result: budget ? (p95 <= budget ? 'pass' : 'FAIL') : '',
    });
  }
  await measureAlerts(server, http.url, group, total);
  await http.close();
  await server.close();
}

/** One evaluation cycle of 100 rules (every metric, over the account, endpoints, customers and keys): its time, cycle after cycle. */
async function measureAlerts(server: Awaited<ReturnType<typeof createConsoleServer>>, url: string, group: string, total: number) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}/console/v1${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  };
  const endpoints = (
    (await (await fetch(`${url}/console/v1/endpoints?limit=20`, { headers: { authorization: 'Bearer bench' } })).json()) as { items: { id: string }[] }
  ).items;
  const metrics = ['errorRate', 'p95', 'p99', 'requestsAbove', 'requestsBelow', 'spike'];
  for (let i = 0; i < 100; i++) {
    const scope = [{}, { endpointId: endpoints[i % endpoints.length]!.id }, { customerId: `cus_${i % 50}` }, { keyId: `key_${i % 400}` }][i % 4];
    await post('/alert-rules', { name: `Rule ${i}`, metric: metrics[i % metrics.length], scope, threshold: 1_000_000, window: ['5m', '15m', '1h'][i % 3] });
  }
  const times: number[] = [];
  for (let cycle = 0; cycle < Math.max(3, Math.min(CALLS, 10)); cycle++) {
    const started = performance.now();
    await server.alerts.runOnce(Date.now() + cycle * 60_000);
    times.push(performance.now() - started);
  }
  const worst = Math.max(...times);
  const budget = total >= 10_000_000 ? 2000 : undefined;
  rows.push({
    group,
    figure: 'alert evaluation, 100 rules: p50 / slowest cycle',
    value: `${percentile(times, 50).toFixed(0)} / ${worst.toFixed(0)} ms`,
    budget: budget ? `≤ ${budget} ms a cycle` : '—',
    result: budget ? (worst <= budget ? 'pass' : 'FAIL') : '',
  });
}

try {
  if (PARTS.has('collect')) {
    await measureCollector(rows, join(dir, 'collect.duckdb'));
    measureNativeCollectors(rows);
  }
  if (PARTS.has('otlp')) await measureOtlp(rows, join(dir, 'otlp.duckdb'));
  if (PARTS.has('fairness')) await measureFairness(rows, join(dir, 'fair.duckdb'));
  for (const name of PARTS.has('ingest') || PARTS.has('routes') || PARTS.has('search') ? STORES : []) {
    const started = performance.now();
    const setup = name === 'duckdb' ? duckDbSetup(dir) : await clickHouseSetup(name === 'clickhouse' ? 1 : 2);
    try {
      if (PARTS.has('ingest')) {
        // Live traffic arrives in time order: the last hour, oldest first.
        await measureIngest(setup, 'live (time order)', (i) => Math.round(((INGEST_EVENTS - i) / INGEST_EVENTS) * 3_600_000), setup.name === 'DuckDB');
        // A backfill: timestamps anywhere in the past year, so every batch touches thousands of quarter hours.
        const spread = random(11);
        await measureIngest(setup, 'backfill (random over a year)', () => Math.floor(spread() * 365 * DAY), false);
        if (setup.name !== 'DuckDB') await measureAppend(setup);
      }
      for (const size of PARTS.has('routes') || PARTS.has('search') ? SIZES : []) {
        const filling = performance.now();
        await setup.fillTo(size);
        console.error(`${setup.name}: filled to ${size.toLocaleString('en-US')} events in ${((performance.now() - filling) / 1000).toFixed(0)} s`);
        if (PARTS.has('routes')) await measureRoutes(setup, size);
      }
      // Searched at the largest size, once its events are there.
      if (PARTS.has('search') && SIZES.length && !setup.name.includes('shards')) await measureSearch(rows, setup, Math.max(...SIZES));
    } finally {
      await setup.dispose();
    }
    console.error(`${setup.name}: ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log('| group | figure | value | budget | result |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.group} | ${r.figure} | ${r.value} | ${r.budget} | ${r.result} |`);

// The same figures side by side, one column per store setup ("setup, size" groups), each with its budget's verdict.
const sized = rows.filter((r) => / events$/.test(r.group));
const setups = [...new Set(sized.map((r) => r.group.replace(/, [\d.]+M events$/, '')))];
for (const size of [...new Set(sized.map((r) => /([\d.]+M events)$/.exec(r.group)![1]!))]) {
  if (setups.length < 2) break;
  console.log(`\n${size}, side by side (p50 / p95)\n| figure | ${setups.join(' | ')} |\n|---|${setups.map(() => '---|').join('')}`);
  for (const figure of [...new Set(sized.map((r) => r.figure))]) {
    const cells = setups.map((setup) => {
      const row = sized.find((r) => r.group === `${setup}, ${size}` && r.figure === figure);
      return row ? `${row.value.replace(' ms', '')}${row.result === 'FAIL' ? ' (over ' + row.budget.replace('p95 ≤ ', '') + ')' : ''}` : '—';
    });
    console.log(`| ${figure.replace(': p50 / p95', '')} | ${cells.join(' | ')} |`);
  }
}
mkdirSync('.bench', { recursive: true });
writeFileSync('.bench/server.json', JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
