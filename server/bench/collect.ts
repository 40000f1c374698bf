/**
 * Bench figures for the collectors and the OTLP receiver: what the collector costs an API next
 * to what the OpenTelemetry Node SDK costs the same API (CPU per request and p50/p99 at a fixed
 * request rate with autocannon, bare, with the collector and with OpenTelemetry in the same run,
 * and with the console server down or slow), and spans/s the receiver accepts (JSON and protobuf).
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createConsoleServer, serve } from '../src/index.ts';
import { ExportRequest } from '../src/otlp/decode.ts';

export type Row = { group: string; figure: string; value: string; budget: string; result: string };

// 10 rounds of 3 s: a p99 per round from 6,000 responses, and six variants in about five minutes with the pauses.
const SECONDS = Number(process.env['BENCH_COLLECT_SECONDS'] ?? 30);
const ROUNDS = Number(process.env['BENCH_COLLECT_ROUNDS'] ?? 10);
const RATE = Number(process.env['BENCH_COLLECT_RATE'] ?? 2_000);
// Longer than the collector takes to fill a batch at the bench's rate (5,000 events, 2.5 s), so its sends back up and its queue fills.
const SLOW_MS = Number(process.env['BENCH_COLLECT_SLOW_MS'] ?? 3_000);
const SETTLE_MS = 1_200; // a pause between loads, for what a load left to finish
// In one process: short slices, many rounds; each slice's batch is sent before its CPU is read.
const PAIR_ROUNDS = Number(process.env['BENCH_COLLECT_PAIR_ROUNDS'] ?? 24);
const PAIR_SECONDS = Number(process.env['BENCH_COLLECT_PAIR_SECONDS'] ?? 1.5);
const PAIR_SETTLE_MS = 200;

function firstLine(child: ChildProcessByStdio<null, Readable, null>): Promise<string> {
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error('a bench process did not start')));
  });
}

/**
 * Pins a process (all its threads) to one CPU with taskset, where there are two or more: the
 * APIs get a core of their own, so their figures are theirs and not the load generator's or the
 * ingest end's. Answers whether it could.
 */
function pin(pid: number | undefined, cpu: number): boolean {
  if (pid === undefined || availableParallelism() < 2) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const nearestRank = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** autocannon at a fixed rate; percentiles from each response's own time (autocannon's histogram rounds to whole ms). */
async function load(url: string, duration: number, request: Pick<autocannon.Options, 'method' | 'body' | 'headers'> = {}) {
  const times: number[] = [];
  const instance = autocannon({ url, connections: 10, duration, overallRate: RATE, ...request }) as Promise<autocannon.Result> & autocannon.Instance;
  void instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
  const result = await instance;
  times.sort((a, b) => a - b);
  return { p50: nearestRank(times, 50), p99: nearestRank(times, 99), errors: result.errors + result.non2xx, responses: times.length };
}

type Variant = 'bare' | 'control' | 'collector' | 'otel' | 'down' | 'slow';
const VARIANTS: Record<Variant, string> = {
  bare: 'bare',
  control: 'bare, a second identical process (the noise floor)',
  collector: 'with the collector, sending to the console server',
  otel: 'with the OpenTelemetry Node SDK (HTTP instrumentation, batch span processor, OTLP/HTTP protobuf), exporting to the console server',
  down: 'with the collector, console server down',
  slow: `with the collector, console server slow (answers each batch after ${SLOW_MS / 1000} s)`,
};

/** What an API process has spent and delivered so far: CPU time (user + system, µs), events or spans the console server took, and those given up on. */
type Reading = { cpuMicros: number; sent: number; failed: number };
type Api = { port: number; pid: number | undefined; read(): Promise<Reading>; stop(): Promise<void> };
type Load = Awaited<ReturnType<typeof load>> & Reading;

/** Starts one API process (collect-api.ts); `preload` is a module to `--import` first. Answers its first line (its port, or ports) too. */
async function startApi(args: string[], preload?: string, env?: Record<string, string>): Promise<Api & { first: string }> {
  const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
  const child = spawn(process.execPath, [...(preload ? ['--import', script(preload)] : []), script('./collect-api.ts'), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the bench API (${args.join(' ')}) stopped`);
    return line.value;
  };
  const first = await nextLine();
  return {
    first,
    port: Number(first),
    pid: child.pid,
    read: async () => {
      child.stdin.write('\n');
      return JSON.parse(await nextLine()) as Reading;
    },
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** The servers of the `pair` process, loaded one at a time; the last two take POSTs of a 1 KB JSON body. */
type Paired = 'bare' | 'control' | 'collector' | 'barePost' | 'capture';
const PAIRED: Paired[] = ['bare', 'control', 'collector', 'barePost', 'capture'];
/** A 1 KB order, with a secret field and a card number for the masking to find. */
const ORDER = JSON.stringify({
  orderId: 'ord_7Q2X9',
  customer: { email: 'ana@example.com', password: 'hunter2' },
  card: '4242 4242 4242 4242',
  items: Array.from({ length: 12 }, (_, i) => ({ sku: `sku_${i}`, name: `Item number ${i}`, quantity: i + 1, price: 1999 })),
});
const POSTED = { method: 'POST' as const, body: ORDER, headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_bench' } };

/**
 * The collector's added CPU measured inside one process: a bare server, a second bare one (the
 * noise floor) and one with the collector, loaded in turn in short slices, each slice's CPU read
 * after the collector has sent what it holds. Two processes differ by more than the collector
 * costs (their heaps, their code's layout); one process against itself does not.
 */
async function measurePaired(pair: Api & { first: string }): Promise<Record<Paired, Load[]>> {
  const ports = JSON.parse(pair.first) as Record<Paired, number>;
  const url = (p: Paired) => `http://127.0.0.1:${ports[p]}/v2/${p === 'barePost' || p === 'capture' ? 'orders' : 'contacts/c_1'}`;
  const request = (p: Paired) => (p === 'barePost' || p === 'capture' ? POSTED : {});
  const results: Record<Paired, Load[]> = { bare: [], control: [], collector: [], barePost: [], capture: [] };
  for (const p of PAIRED) await load(url(p), 2, request(p)); // warm-up
  await pair.read();
  for (let round = 0; round < PAIR_ROUNDS; round++) {
    for (let i = 0; i < PAIRED.length; i++) {
      const p = PAIRED[(round + i) % PAIRED.length]!;
      const before = await pair.read();
      const measured = await load(url(p), PAIR_SECONDS, request(p));
      await new Promise((resolve) => setTimeout(resolve, PAIR_SETTLE_MS));
      const after = await pair.read();
      results[p].push({ ...measured, cpuMicros: after.cpuMicros - before.cpuMicros, sent: after.sent - before.sent, failed: after.failed - before.failed });
    }
  }
  return results;
}

export async function measureCollector(rows: Row[], file: string): Promise<void> {
  // Separate processes: the ingest ends, each API, and this one generating load.
  const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
  const local = spawn(process.execPath, [script('./console-process.ts'), 'console', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const slowEnd = spawn(process.execPath, [script('./console-process.ts'), 'slow', String(SLOW_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [consoleUrl, slowUrl, deadUrl] = [await firstLine(local), await firstLine(slowEnd), `http://127.0.0.1:${await freePort()}`];
  const variants = Object.keys(VARIANTS) as Variant[];
  const results = Object.fromEntries(variants.map((v) => [v, [] as Load[]])) as Record<Variant, Load[]>;
  // Each API alone in its process, so its CPU time is its own; OpenTelemetry patches node:http for the whole process it runs in.
  const start: Record<Variant, () => Promise<Api>> = {
    bare: () => startApi(['bare']),
    control: () => startApi(['bare']),
    collector: () => startApi(['collector', consoleUrl]),
    otel: () => startApi(['otel'], './collect-otel.ts', { BENCH_OTLP_URL: consoleUrl }),
    down: () => startApi(['collector', deadUrl]),
    slow: () => startApi(['collector', slowUrl]),
  };
  const apis: Partial<Record<Variant, Api>> = {};
  let pair: (Api & { first: string }) | undefined;
  let paired: Record<Paired, Load[]> | undefined;
  let pinned = false;
  const api = (v: Variant) => apis[v]!;
  const url = (v: Variant) => `http://127.0.0.1:${api(v).port}/v2/contacts/c_1`;
  try {
    // All started before any is stopped, even when one fails.
    const started = await Promise.allSettled([
      ...variants.map(async (v) => (apis[v] = await start[v]())),
      (async () => (pair = await startApi(['pair', consoleUrl])))(),
    ]);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    // The APIs on CPU 1 (only one is loaded at a time); everything else on CPU 0: this process
    // (autocannon) and both ingest ends. A console server on the API's core would charge its
    // DuckDB writes to the API's caches, and to the variants that send it the most.
    pinned = [...variants.map((v) => api(v).pid), pair!.pid].map((pid) => pin(pid, 1)).every(Boolean);
    for (const pid of [process.pid, local.pid, slowEnd.pid]) pin(pid, 0); // best effort: a thread may come or go while taskset walks them
    for (const v of variants) await load(url(v), 2); // warm-up
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    // Interleaved rounds, each starting one variant later, so that every variant is as often the
    // first of a round; a pause after each load lets what a variant leaves running (its last
    // batch, the console server's writes) end before the next starts. The CPU time is read
    // after that pause, so a variant's last batch counts as its own.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < variants.length; i++) {
        const v = variants[(round + i) % variants.length]!;
        const before = await api(v).read();
        const measured = await load(url(v), SECONDS / ROUNDS);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const after = await api(v).read();
        results[v].push({ ...measured, cpuMicros: after.cpuMicros - before.cpuMicros, sent: after.sent - before.sent, failed: after.failed - before.failed });
      }
    }
    paired = await measurePaired(pair!);
  } finally {
    await Promise.all([...Object.values(apis), ...(pair ? [pair] : [])].map((a) => a.stop()));
    for (const p of [local, slowEnd]) {
      p.kill('SIGTERM');
      await new Promise((resolve) => p.once('exit', resolve));
    }
  }
  collectorRows(rows, results, paired, pinned);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
/** The median over rounds, and the middle half of the rounds as text. */
function spread(values: number[], digits: number) {
  const sorted = values.toSorted((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    text: `middle half of rounds ${quantile(sorted, 0.25).toFixed(digits)} to ${quantile(sorted, 0.75).toFixed(digits)}`,
  };
}
const sum = (loads: Load[], key: 'errors' | 'responses' | 'sent' | 'failed') => loads.reduce((total, r) => total + r[key], 0);
/** The API process's CPU per response in a load, µs. */
const cpuPerResponse = (r: Load) => r.cpuMicros / Math.max(1, r.responses);

/** The figures, then the budgets: the collector's added CPU against OpenTelemetry's and against the bare handler's, no errors, no request slowed. */
function collectorRows(rows: Row[], results: Record<Variant, Load[]>, paired: Record<Paired, Load[]>, pinned: boolean) {
  const variants = Object.keys(VARIANTS) as Variant[];
  const label = `${RATE.toLocaleString('en-US')} req/s, 10 connections, ${SECONDS} s each in ${ROUNDS} rounds, autocannon${pinned ? ', each API in its own process on a core of its own, the load and the ingest ends on the other' : ''}`;
  const micros = (v: Variant, key: 'p50' | 'p99') => (results[v].reduce((total, r) => total + r[key], 0) / results[v].length) * 1000;
  const row = (figure: string, value: string, budget = '—', pass?: boolean) =>
    rows.push({ group: 'collector', figure, value, budget, result: pass === undefined ? '' : pass ? 'pass' : 'FAIL' });

  for (const v of variants) {
    const loads = results[v];
    const errors = sum(loads, 'errors');
    const cpu = spread(loads.map(cpuPerResponse), 1);
    // With the console server up, every response's event or span must reach it: a silent exporter would cost less and flatter it.
    const healthy = v === 'collector' || v === 'otel';
    const share = sum(loads, 'sent') / Math.max(1, sum(loads, 'responses'));
    const dropped = sum(loads, 'failed');
    const lost = healthy && (dropped > 0 || share < 0.99);
    // Down or slow, what is sent lands outside the loads (a slow answer comes after the pause): only the drops say something.
    const delivery = healthy ? `; ${(share * 100).toFixed(1)} % sent${dropped ? `, ${dropped} lost` : ''}` : dropped ? `; ${dropped} dropped` : '';
    row(
      `node:http API ${VARIANTS[v]}: p50 / p99; CPU per request (${label})`,
      `${micros(v, 'p50').toFixed(0)} / ${micros(v, 'p99').toFixed(0)} µs; ${cpu.median.toFixed(1)} µs CPU${errors ? `, ${errors} errors` : ''}${delivery}`,
      v === 'bare' || v === 'control' ? '—' : healthy ? 'no errors, all sent' : 'no errors',
      v === 'bare' || v === 'control' ? undefined : errors === 0 && !lost,
    );
  }

  // Each round's CPU per request against the two bare processes' in the same round (the noise floor: the second against the first), the median over rounds.
  const bareCpu = results.bare.map((r, i) => (cpuPerResponse(r) + cpuPerResponse(results.control[i]!)) / 2);
  const addedCpu = (v: Variant) =>
    spread(
      results[v].map((r, i) => cpuPerResponse(r) - (v === 'control' ? cpuPerResponse(results.bare[i]!) : bareCpu[i]!)),
      1,
    );
  for (const v of ['control', 'collector', 'otel', 'down', 'slow'] as const) {
    const added = addedCpu(v);
    row(
      `added CPU per request (median over rounds), ${v === 'control' ? 'second bare process (noise floor)' : VARIANTS[v]}`,
      `${added.median.toFixed(1)} µs (${added.text})`,
    );
  }

  // The same in one process: each round's slice against the bare server's in that round.
  const inProcess = (p: 'control' | 'collector') =>
    spread(
      paired[p].map((r, i) => cpuPerResponse(r) - cpuPerResponse(paired.bare[i]!)),
      1,
    );
  const pairLabel = `in one process: the servers loaded in turn, ${PAIR_SECONDS} s each in ${PAIR_ROUNDS} rounds at ${RATE.toLocaleString('en-US')} req/s, each slice's batch sent before its CPU is read`;
  for (const p of ['control', 'collector'] as const) {
    const added = inProcess(p);
    row(
      `added CPU per request (median over rounds), ${p === 'control' ? 'second bare server (noise floor)' : 'with the collector, sending to the console server'}, ${pairLabel}`,
      `${added.median.toFixed(1)} µs (${added.text})${p === 'collector' ? `; ${((sum(paired.collector, 'sent') / Math.max(1, sum(paired.collector, 'responses'))) * 100).toFixed(1)} % sent` : ''}${sum(paired[p], 'errors') ? `; ${sum(paired[p], 'errors')} errors` : ''}`,
    );
  }

  // The budgets are on CPU time, far steadier than a p99 on a shared machine, and on the
  // collector's cost measured in one process: two identical bare processes differ by more than
  // the collector costs. What two bare servers of that process differ by is the noise floor: a
  // budget is met (or missed) only beyond it.
  const collector = inProcess('collector').median;
  const otel = addedCpu('otel').median;
  // Capture: the collector keeping both sides' headers and 1 KB JSON bodies of every request, against the same POSTs bare.
  const capture = spread(
    paired.capture.map((r, i) => cpuPerResponse(r) - cpuPerResponse(paired.barePost[i]!)),
    1,
  );
  const bare = spread(bareCpu, 1).median;
  const floor = Math.abs(inProcess('control').median);
  const verdict = (limit: number) => (collector + floor <= limit ? 'pass' : collector - floor > limit ? 'FAIL' : 'within the noise floor');
  const budgetRow = (figure: string, value: string, budget: string, limit: number) =>
    rows.push({ group: 'collector', figure, value: `${value}; noise floor ±${floor.toFixed(1)} µs`, budget, result: verdict(limit) });
  budgetRow(
    'CPU per request the collector adds (in one process), against what OpenTelemetry adds (process against process)',
    `${collector.toFixed(1)} against ${otel.toFixed(1)} µs (${otel > 0 ? `1/${(otel / Math.max(collector, 0.01)).toFixed(0)}` : '—'})`,
    '≤ 1/10',
    otel / 10,
  );
  rows.push({
    group: 'collector',
    figure: `CPU per request the collector adds capturing both sides' headers and 1 KB JSON bodies of every request (in one process, against the same POSTs bare), against what OpenTelemetry adds without bodies`,
    value: `${capture.median.toFixed(1)} (${capture.text}) against ${otel.toFixed(1)} µs (${otel > 0 ? (capture.median / otel).toFixed(2) : '—'}×); noise floor ±${floor.toFixed(1)} µs`,
    budget: '≤ 1/2',
    result: capture.median + floor <= otel / 2 ? 'pass' : capture.median - floor > otel / 2 ? 'FAIL' : 'within the noise floor',
  });
  budgetRow(
    "CPU per request the collector adds (in one process), against the bare handler's own",
    `${collector.toFixed(1)} against ${bare.toFixed(1)} µs (${((collector / bare) * 100).toFixed(0)} %)`,
    '≤ 10 %',
    bare / 10,
  );

  // A console server down or slow must slow no request: each round's p99 against the collector's
  // with the server up in the same round, within what the two identical bare processes differ by.
  const bareGap = results.control.map((r, i) => Math.abs(r.p99 - results.bare[i]!.p99));
  const noise = Math.max(0.1, spread(bareGap, 2).median);
  for (const v of ['down', 'slow'] as const) {
    const slower = spread(
      results[v].map((r, i) => r.p99 - results.collector[i]!.p99),
      2,
    );
    row(
      `p99 ${VARIANTS[v].replace('with the collector, ', '')}, against the console server up (median over rounds)`,
      `${slower.median >= 0 ? '+' : ''}${slower.median.toFixed(2)} ms (${slower.text}; the two bare processes differ by ${noise.toFixed(2)} ms)`,
      'no request slowed: ≤ the noise floor',
      slower.median <= noise && sum(results[v], 'errors') === 0,
    );
  }
}

/** Export requests of `spans` server spans each, encoded as JSON and as protobuf (with the vendored OTLP protos). */
function exportBodies(spans: number, count: number): { json: string[]; protobuf: Uint8Array[] } {
  const Request = ExportRequest;
  const now = BigInt(Date.now() - 60_000) * 1_000_000n;
  const make = (b: number) => ({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] },
        scopeSpans: [
          {
            spans: Array.from({ length: spans }, (_, i) => ({
              traceId: Buffer.alloc(16, i + 1).toString('hex'),
              spanId: Buffer.alloc(8, i + 1).toString('hex'),
              name: 'GET /v2/contacts/:id',
              kind: 2,
              startTimeUnixNano: String(now + BigInt(b * spans + i) * 1_000_000n),
              endTimeUnixNano: String(now + BigInt(b * spans + i) * 1_000_000n + 12_000_000n),
              attributes: [
                { key: 'http.request.method', value: { stringValue: 'GET' } },
                { key: 'http.route', value: { stringValue: '/v2/contacts/:id' } },
                { key: 'url.path', value: { stringValue: `/v2/contacts/c_${i}` } },
                { key: 'http.response.status_code', value: { intValue: '200' } },
              ],
            })),
          },
        ],
      },
    ],
  });
  const json = Array.from({ length: count }, (_, b) => JSON.stringify(make(b)));
  // protobufjs reads ids as base64 bytes when building a message from plain objects.
  const binary = (o: ReturnType<typeof make>) => {
    for (const s of o.resourceSpans[0]!.scopeSpans[0]!.spans) {
      s.traceId = Buffer.from(s.traceId, 'hex').toString('base64');
      s.spanId = Buffer.from(s.spanId, 'hex').toString('base64');
    }
    return Request.encode(Request.fromObject(o)).finish();
  };
  return { json, protobuf: Array.from({ length: count }, (_, b) => binary(make(b))) };
}

export async function measureOtlp(rows: Row[], file: string): Promise<void> {
  const SPANS = 1_000;
  const BATCHES = Number(process.env['BENCH_OTLP_BATCHES'] ?? 50);
  const bodies = exportBodies(SPANS, BATCHES);
  const server = await createConsoleServer({ store: file, ingestKeys: { 'bench-ingest': 'acct_bench' } });
  const http = await serve(server, { port: 0 });
  try {
    for (const [encoding, list, type] of [
      ['JSON', bodies.json, 'application/json'],
      ['protobuf', bodies.protobuf, 'application/x-protobuf'],
    ] as const) {
      const started = performance.now();
      for (const body of list) {
        const response = await fetch(`${http.url}/v1/traces`, {
          method: 'POST',
          headers: { authorization: 'Bearer bench-ingest', 'content-type': type },
          body,
        });
        if (response.status !== 200) throw new Error(`OTLP ${encoding}: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }
      const perSecond = Math.round((SPANS * BATCHES) / ((performance.now() - started) / 1000));
      rows.push({
        group: 'OTLP',
        figure: `server spans/s accepted at /v1/traces, ${encoding} (exports of ${SPANS.toLocaleString('en-US')} spans, ${(SPANS * BATCHES).toLocaleString('en-US')} spans)`,
        value: perSecond.toLocaleString('en-US'),
        budget: '—',
        result: '',
      });
    }
  } finally {
    await http.close();
    await server.close();
  }
}
