/**
 * `BENCH_PARTS=search`: the request log's search (`GET /requests?q=`) over kept bodies, p50/p95,
 * with `BENCH_BODIES` payloads (1,000,000 by default) kept among the stored events: a word in a
 * few bodies (an order id kept 90 days ago), a word in the 5xx answers, and a word in none (every body read).
 */
import { createConsoleServer, serve } from '../src/index.ts';
import type { Row } from './collect.ts';
import { BENCH_ACCOUNT, type Setup } from './setups.ts';

const BODIES = Number(process.env['BENCH_BODIES'] ?? 1_000_000);
const CALLS = Number(process.env['BENCH_CALLS'] ?? 30);
/** The generated year of events, all of it: the bodies go to the newest `BODIES` of them. */
const PAYLOAD_DAYS = 366;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!;

export async function measureSearch(rows: Row[], setup: Setup, total: number): Promise<void> {
  const filling = performance.now();
  await setup.fillPayloads(BODIES, PAYLOAD_DAYS);
  console.error(`${setup.name}: ${BODIES.toLocaleString('en-US')} bodies kept in ${((performance.now() - filling) / 1000).toFixed(0)} s`);
  const server = await createConsoleServer({
    ...setup.config,
    auth: { tokens: { bench: { accountId: BENCH_ACCOUNT, user: { id: 'u_b', name: 'Bench' } } } },
    retention: { payloadDays: PAYLOAD_DAYS },
    alerts: { evaluateEverySeconds: 0 },
  });
  const http = await serve(server, { port: 0 });
  const group = `${setup.name}, ${(total / 1_000_000).toLocaleString('en-US')}M events, ${(BODIES / 1_000_000).toLocaleString('en-US')}M kept bodies`;
  const budget = setup.name === 'DuckDB' ? 500 : 300;
  const get = async (path: string) => {
    const response = await fetch(`${http.url}/console/v1${path}`, { headers: { authorization: 'Bearer bench' } });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ items: { id: string }[]; requestBody: { text: string } }>;
  };
  try {
    // An order id of a body kept 90 days ago, deep in the bodies (the store's ids are random on ClickHouse).
    const [deep] = (await get(`/requests?limit=1&to=${new Date(Date.now() - 90 * 86_400_000).toISOString()}`)).items;
    const orderId = (JSON.parse((await get(`/requests/${deep!.id}`)).requestBody.text) as { orderId: string }).orderId;
    for (const [q, what] of [
      [orderId, 'an order id kept 90 days ago (a word of a few bodies)'],
      ['upstream_timeout', 'an error code (a word of the 5xx answers)'],
      ['zebra-quartz', 'a word in no body (the words of every kept body read)'],
    ] as const) {
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < CALLS + 2; i++) {
        const started = performance.now();
        found = (await get(`/requests?q=${q}`)).items.length;
        if (i >= 2) times.push(performance.now() - started);
      }
      if (q === orderId && !found) throw new Error(`q=${q} found no request, though one holds it.`);
      const p95 = percentile(times, 95);
      rows.push({
        group,
        figure: `GET /requests?q=${q}, ${what}, ${found} on the first page: p50 / p95`,
        value: `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
        budget: `p95 ≤ ${budget} ms`,
        result: p95 <= budget ? 'pass' : 'FAIL',
      });
    }
  } finally {
    await http.close();
    await server.close();
  }
}
