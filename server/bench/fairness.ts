/**
 * `BENCH_PARTS=fairness npm run bench:server`: tenant B's ingest and read p95 while tenant A
 * attacks, one attack at a time, against B's p95 with A idle, measured in the same run on one
 * console server in a process of its own. The attacks are the adversarial review's: an OTLP
 * decompression bomb, 10 MB bodies, bodies trickled to hold upload slots, heavy reads within A's
 * rate, reads through many embed sessions, admin writes, and a thousand alert rules. Budget:
 * B's p95 within 3× of idle. Duration per phase: BENCH_FAIR_SECONDS (default 20); only some
 * attacks: BENCH_FAIR_ONLY (parts of their names, comma-separated); V8 flags for the server:
 * BENCH_FAIR_V8 (say `--trace-gc`); its CPU profiles: BENCH_FAIR_PROFILE (a folder).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { demoEvent, random } from '../demo/traffic.ts';
import type { Row } from './collect.ts';

const SECONDS = Number(process.env['BENCH_FAIR_SECONDS'] ?? 20);
/** BENCH_FAIR_ONLY=bomb,10 MB runs only the attacks whose names hold one of these parts. */
const ONLY = process.env['BENCH_FAIR_ONLY']?.split(',');
/** The two tenants' credentials on the `fair` console server (console-process.ts). */
export const KEYS = {
  a: { token: 'token-a-0123456789abcdef', ingest: 'ingest-a-0123456789abcdef', admin: 'admin-a-0123456789abcdef' },
  b: { token: 'token-b-0123456789abcdef', ingest: 'ingest-b-0123456789abcdef', admin: 'admin-b-0123456789abcdef' },
};
const DAY = 86_400_000;

const p95 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.max(0, Math.ceil(0.95 * values.length) - 1)] ?? 0;

/** An export of `count` empty spans, written field by field. */
function emptySpans(count: number): Uint8Array {
  const scope = protobuf.Writer.create();
  for (let i = 0; i < count; i++) scope.uint32((2 << 3) | 2).uint32(0);
  const resource = protobuf.Writer.create()
    .uint32((2 << 3) | 2)
    .bytes(scope.finish())
    .finish();
  return protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(resource)
    .finish();
}

export async function measureFairness(rows: Row[], file: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env['BENCH_FAIR_V8']?.split(' ') ?? []),
      ...(process.env['BENCH_FAIR_PROFILE'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_FAIR_PROFILE']}`] : []),
      fileURLToPath(new URL('./console-process.ts', import.meta.url)),
      'fair',
      file,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // The server's address is its first line that is one; any other output (V8's --trace-gc, say) goes to stderr.
  let url = '';
  const listening = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!url && line.startsWith('http')) {
        url = line.trim();
        resolve();
      } else process.stderr.write(`${line}\n`);
    }),
  );
  await Promise.race([listening, once(child, 'exit').then(() => Promise.reject(new Error('The console server ended before it listened.')))]);
  const send = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  try {
    // A month of traffic for each tenant, so that reads have something to read.
    const rand = random(3);
    const now = Date.now();
    for (const tenant of ['a', 'b'] as const)
      for (let i = 0; i < 20; i++)
        await send(
          '/ingest/v1/requests',
          KEYS[tenant].ingest,
          json({ events: Array.from({ length: 5_000 }, () => demoEvent(rand, now - Math.floor(rand() * 30 * DAY))) }),
        );
    for (const tenant of ['a', 'b'] as const)
      await send(`/admin/v1/customers/cus_${tenant}`, KEYS[tenant].admin, {
        ...json({ name: `Customer of ${tenant}`, plan: 'Pro', status: 'Active', owner: { id: 'u', name: 'U' } }),
        method: 'PUT',
      });

    /** B's steady use: a small ingest batch and an overview read, in turn, for the phase. */
    const probeB = async (stop: { done: boolean }) => {
      const ingest: number[] = [];
      const read: number[] = [];
      const refused: number[] = [];
      while (!stop.done) {
        let started = performance.now();
        const ingested = await send(
          '/ingest/v1/requests',
          KEYS.b.ingest,
          json({ events: Array.from({ length: 100 }, () => demoEvent(rand, Date.now() - 1_000)) }),
        );
        ingest.push(performance.now() - started);
        started = performance.now();
        const answered = await send('/console/v1/endpoints', KEYS.b.token);
        read.push(performance.now() - started);
        if (ingested !== 202 || answered !== 200) refused.push(ingested !== 202 ? ingested : answered);
        await sleep(50);
      }
      return { ingest: p95(ingest), read: p95(read), samples: read.length, refused };
    };
    /** Runs A's attack, in a process of its own (two loops of it), beside B's probe for the phase. */
    const phase = async (attack: string | undefined) => {
      const stop = { done: false };
      const attacker = attack
        ? spawn(process.execPath, [fileURLToPath(import.meta.url), 'attack', attack, url], { stdio: ['ignore', 'ignore', 'inherit'] })
        : undefined;
      // The attack under way before B is measured.
      if (attacker) await sleep(1_000);
      const timer = setTimeout(() => (stop.done = true), SECONDS * 1000);
      const seen = await probeB(stop);
      clearTimeout(timer);
      if (attacker) {
        attacker.kill('SIGKILL');
        await once(attacker, 'exit');
        // What A left under way ends before the next phase.
        await sleep(2_000);
      }
      return seen;
    };

    let idle: Awaited<ReturnType<typeof phase>> | undefined;
    for (const attack of [undefined, ...ATTACKS.filter((a) => !ONLY || ONLY.some((part) => a.includes(part)))]) {
      const name = attack ?? 'A idle';
      const seen = await phase(attack);
      idle ??= seen;
      const ratio = (value: number, base: number) => Math.round((value / Math.max(base, 1)) * 10) / 10;
      for (const [what, value, base] of [
        ['ingest', seen.ingest, idle.ingest],
        ['read', seen.read, idle.read],
      ] as const)
        rows.push({
          group: 'fairness (tenant B while tenant A attacks)',
          figure: `B's ${what} p95, ${name} (${seen.samples} samples${seen.refused.length ? `, ${seen.refused.length} refused: ${[...new Set(seen.refused)].join(', ')}` : ''})`,
          value: `${Math.round(value)} ms${attack ? ` (${ratio(value, base)}× idle)` : ''}`,
          budget: attack ? '≤ 3× idle' : '—',
          result: attack ? (value <= 3 * Math.max(base, 1) ? 'pass' : 'FAIL') : '',
        });
    }
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** Tenant A's attacks, by name: each is two loops of requests, until the process is ended. */
export const ATTACKS = [
  'OTLP gzip bomb',
  '10 MB ingest bodies',
  'bodies trickled to hold upload slots',
  'heavy reads within A’s rate',
  'reads through many embed sessions',
  'admin writes',
  '1,000 alert rules evaluated every second',
] as const;

async function attack(name: (typeof ATTACKS)[number], url: string): Promise<void> {
  const send = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const rand = random(5);
  const now = Date.now();
  const forever = (once: () => Promise<unknown>) => async () => {
    for (;;) await once().catch(() => sleep(10));
  };
  const bodies = {
    bomb: () => gzipSync(emptySpans(5_000_000), { level: 9 }),
    // 10,000 events of about 1 KB each, just under 10 MB: the largest batch the limits take.
    big: () => JSON.stringify({ events: Array.from({ length: 10_000 }, (_, i) => ({ ...demoEvent(rand, now - i), path: `/${'x'.repeat(780)}` })) }),
  };
  const trickle = () =>
    fetch(`${url}/ingest/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.a.ingest}`, 'content-type': 'application/json' },
      duplex: 'half',
      body: new ReadableStream<Uint8Array>({
        async pull(controller) {
          await sleep(500);
          controller.enqueue(new TextEncoder().encode(' '));
        },
      }),
    }).then((r) => r.arrayBuffer());
  const loops: Record<(typeof ATTACKS)[number], () => () => Promise<void>> = {
    'OTLP gzip bomb': () => {
      const bomb = bodies.bomb();
      return forever(() =>
        send('/v1/traces', KEYS.a.ingest, { method: 'POST', body: bomb, headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' } }),
      );
    },
    '10 MB ingest bodies': () => {
      const big = bodies.big();
      return forever(() => send('/ingest/v1/requests', KEYS.a.ingest, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } }));
    },
    'bodies trickled to hold upload slots': () => forever(trickle),
    'heavy reads within A’s rate': () => forever(() => send('/console/v1/traffic?range=30d', KEYS.a.token)),
    'reads through many embed sessions': () =>
      forever(async () => {
        const minted = await fetch(`${url}/admin/v1/embed-sessions`, {
          ...json({ customerId: 'cus_a', expiresInSeconds: 600 }),
          headers: { authorization: `Bearer ${KEYS.a.admin}`, 'content-type': 'application/json' },
        });
        const { token } = (await minted.json()) as { token?: string };
        if (token) for (let i = 0; i < 5; i++) await send('/console/v1/overview', token);
        else await sleep(100);
      }),
    'admin writes': () =>
      forever(() =>
        send(`/admin/v1/customers/cus_a_${Math.floor(rand() * 1e6)}`, KEYS.a.admin, {
          ...json({ name: 'X', plan: 'P', status: 'Active', owner: { id: 'u', name: 'U' } }),
          method: 'PUT',
        }),
      ),
    '1,000 alert rules evaluated every second': () =>
      forever(() =>
        send('/console/v1/alert-rules', KEYS.a.token, {
          ...json({ name: 'Any', metric: 'p99', threshold: 1, window: '1d' }),
          headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        }),
      ),
  };
  const loop = loops[name]();
  await Promise.all([loop(), loop()]);
}

if (process.argv[2] === 'attack') await attack(process.argv[3] as (typeof ATTACKS)[number], process.argv[4]!);
