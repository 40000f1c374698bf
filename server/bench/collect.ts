/**
 * Bench figures for the collectors and the OTLP receiver: the latency the collector adds to an
 * API (p50/p99 at a fixed request rate with autocannon, bare and collected in the same run,
 * and with the console server down), and spans/s the receiver accepts (JSON and protobuf).
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

// 12 rounds of 4 s: a p99 per round from 8,000 responses, and enough rounds for the median of the differences to settle.
const SECONDS = Number(process.env['BENCH_COLLECT_SECONDS'] ?? 48);
const ROUNDS = Number(process.env['BENCH_COLLECT_ROUNDS'] ?? 12);
const RATE = Number(process.env['BENCH_COLLECT_RATE'] ?? 2_000);
const SETTLE_MS = 1_200; // longer than the collector's flush interval

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
async function load(url: string, duration: number) {
  const times: number[] = [];
  const instance = autocannon({ url, connections: 10, duration, overallRate: RATE }) as Promise<autocannon.Result> & autocannon.Instance;
  void instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
  const result = await instance;
  times.sort((a, b) => a - b);
  return { p50: nearestRank(times, 50), p99: nearestRank(times, 99), errors: result.errors + result.non2xx, responses: times.length };
}

type Variant = 'plain' | 'control' | 'elsewhere' | 'local' | 'down';
const VARIANTS: Record<Variant, string> = {
  plain: 'without the collector',
  control: 'without the collector, a second identical server (the noise floor)',
  elsewhere: 'with the collector, console server elsewhere',
  local: 'with the collector, console server on this machine',
  down: 'with the collector, console server down',
};

type Load = Awaited<ReturnType<typeof load>> & { cpuMicros: number };

export async function measureCollector(rows: Row[], file: string): Promise<void> {
  // Separate processes: the ingest ends, the APIs, and this one generating load.
  const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
  const elsewhere = spawn(process.execPath, [script('./console-process.ts'), 'elsewhere'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const local = spawn(process.execPath, [script('./console-process.ts'), 'console', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const dead = `http://127.0.0.1:${await freePort()}`;
  const apis = spawn(process.execPath, [script('./collect-apis.ts'), await firstLine(elsewhere), await firstLine(local), dead], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const apiLines = createInterface({ input: apis.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const line = await apiLines.next();
    if (line.done) throw new Error('the bench APIs stopped');
    return line.value;
  };
  const ports = JSON.parse(await nextLine()) as Record<Variant, number>;
  /** The APIs process's CPU time so far, in µs. */
  const cpuMicros = async () => {
    apis.stdin.write('\n');
    return Number(await nextLine());
  };
  // The APIs on CPU 1; this process (autocannon) and the endpoint "elsewhere" on CPU 0; the local console server wherever the OS puts it.
  const pinned = pin(apis.pid, 1);
  pin(process.pid, 0); // best effort: a thread may come or go while taskset walks them
  pin(elsewhere.pid, 0);
  const variants = Object.keys(VARIANTS) as Variant[];
  const results = Object.fromEntries(variants.map((v) => [v, [] as Load[]])) as Record<Variant, Load[]>;
  const url = (v: Variant) => `http://127.0.0.1:${ports[v]}/v2/contacts/c_1`;
  try {
    for (const v of variants) await load(url(v), 2); // warm-up
    // Interleaved rounds, each starting one variant later, so that every variant is as often the
    // first of a round; a pause after each load lets what a variant leaves running (its last
    // batch, the local console server's writes) end before the next starts. The CPU time is read
    // after that pause, so a variant's last batch counts as its own.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < variants.length; i++) {
        const v = variants[(round + i) % variants.length]!;
        const cpuBefore = await cpuMicros();
        const measured = await load(url(v), SECONDS / ROUNDS);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        results[v].push({ ...measured, cpuMicros: (await cpuMicros()) - cpuBefore });
      }
    }
  } finally {
    for (const p of [apis, local, elsewhere]) {
      p.kill('SIGTERM');
      await new Promise((resolve) => p.once('exit', resolve));
    }
  }
  const micros = (v: Variant, key: 'p50' | 'p99') => (results[v].reduce((sum, r) => sum + r[key], 0) / results[v].length) * 1000;
  const label = `${RATE.toLocaleString('en-US')} req/s, 10 connections, ${SECONDS} s each in ${ROUNDS} rounds, autocannon${pinned ? ', the APIs on a core of their own' : ''}`;
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const spread = (values: number[], digits: number) => {
    const sorted = values.toSorted((a, b) => a - b);
    return {
      median: quantile(sorted, 0.5),
      text: `middle half of rounds ${quantile(sorted, 0.25).toFixed(digits)} to ${quantile(sorted, 0.75).toFixed(digits)}`,
    };
  };
  // The APIs process's CPU per response in each load, µs (every API shares the process; the idle ones cost next to nothing).
  const cpuPerResponse = (r: Load) => r.cpuMicros / Math.max(1, r.responses);
  for (const v of variants) {
    const errors = results[v].reduce((sum, r) => sum + r.errors, 0);
    const cpu = spread(results[v].map(cpuPerResponse), 1);
    rows.push({
      group: 'collector',
      figure: `node:http API ${VARIANTS[v]}: p50 / p99; CPU per request (${label})`,
      value: `${micros(v, 'p50').toFixed(0)} / ${micros(v, 'p99').toFixed(0)} µs; ${cpu.median.toFixed(1)} µs CPU${errors ? `, ${errors} errors` : ''}`,
      budget: v === 'plain' || v === 'control' ? '—' : 'no errors',
      result: v === 'plain' || v === 'control' ? '' : errors ? 'FAIL' : 'pass',
    });
  }
  // Each round's p99 against the bare servers' in the same round (the noise floor: the second bare
  // server against the first; the collector: against the mean of both), the median over rounds.
  const bare = (i: number) => (results.plain[i]!.p99 + results.control[i]!.p99) / 2;
  for (const v of ['control', 'elsewhere', 'local', 'down'] as const) {
    const added = spread(
      results[v].map((r, i) => r.p99 - (v === 'control' ? results.plain[i]!.p99 : bare(i))),
      2,
    );
    // On this machine the console server's own work competes for the same cores; the control shows how far two identical runs differ.
    const budgeted = v === 'elsewhere' || v === 'down';
    rows.push({
      group: 'collector',
      figure: `added p99 latency (median over rounds), ${v === 'control' ? 'second bare server (noise floor)' : VARIANTS[v].replace('with the collector, ', '')}`,
      value: `${added.median.toFixed(3)} ms (${added.text})`,
      budget: budgeted ? '≤ 0.2 ms' : '—',
      result: budgeted ? (added.median <= 0.2 ? 'pass' : 'FAIL') : '',
    });
  }
  // The collector's own work per request, from CPU time rather than latency: far less noisy than a p99.
  const bareCpu = (i: number) => (cpuPerResponse(results.plain[i]!) + cpuPerResponse(results.control[i]!)) / 2;
  for (const v of ['elsewhere', 'down'] as const) {
    const added = spread(
      results[v].map((r, i) => cpuPerResponse(r) - bareCpu(i)),
      1,
    );
    rows.push({
      group: 'collector',
      figure: `added CPU per request (median over rounds), ${VARIANTS[v].replace('with the collector, ', '')}: measuring, the event's JSON, its share of the sends`,
      value: `${added.median.toFixed(1)} µs (${added.text})`,
      budget: '—',
      result: '',
    });
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
