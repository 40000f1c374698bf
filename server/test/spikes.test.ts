// The server's own activity: an error spike on an endpoint, detected from the ingested events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsoleServer } from '../src/index.ts';
import { SPIKE } from '../src/spikes.ts';
import { call, ingest, openTestStores, startServer } from './harness.ts';

const NOW = '2026-09-14T09:45:00Z';
const burst = (count: number, status: number, minutesAgo = 1) =>
  Array.from({ length: count }, (_, i) => ({
    ts: new Date(Date.parse(NOW) - minutesAgo * 60_000 - i * 1000).toISOString(),
    method: 'POST',
    route: '/webhooks',
    status,
    durationMs: 900,
  }));

test('ten or more server errors making up at least 10 % of an endpoint’s last 5 minutes raise one error-spike item', async () => {
  const server = await startServer({ clock: () => new Date(NOW) });
  try {
    const spikes = async () => {
      await server.idle();
      return (await call(server, '/console/v1/activity?kind=error-spike', { token: 'token-a' })).json.items;
    };
    await ingest(server, [...burst(9, 500), ...burst(50, 200)]);
    assert.deepEqual(await spikes(), [], 'nine errors are not a spike');
    await ingest(server, burst(1, 503));
    const [item, ...rest] = await spikes();
    assert.deepEqual(rest, []);
    assert.equal(item.text, 'saw an error spike on POST /webhooks: 10 server errors in 5 minutes');
    assert.equal(item.at, NOW);
    await ingest(server, burst(20, 500));
    assert.equal((await spikes()).length, 1, 'at most one per endpoint per hour');
    const quiet = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(quiet, [...burst(10, 500), ...burst(200, 200)]);
      await quiet.idle();
      assert.deepEqual((await call(quiet, '/console/v1/activity?kind=error-spike', { token: 'token-a' })).json.items, [], '10 of 210 is under 10 %');
    } finally {
      await quiet.close();
    }
  } finally {
    await server.close();
  }
});

/** A route of its own for each of `count` server errors of one batch. */
const failingRoutes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    ts: new Date(Date.parse(NOW) - 60_000).toISOString(),
    method: 'GET',
    route: `/r${i}`,
    status: 500,
    durationMs: 5,
  }));

test('spike checks never hold an ingest answer, take at most a bounded number of endpoints per batch, and take turns across accounts', async () => {
  const inner = await openTestStores();
  const asked: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  // Every spike check's read waits at the gate, as a slow database would make it.
  const slow = {
    ...inner,
    telemetry: {
      ...inner.telemetry,
      counts: async (...args: Parameters<typeof inner.telemetry.counts>) => {
        asked.push(`${args[0]} ${args[1].filter?.route}`);
        await gate;
        return inner.telemetry.counts(...args);
      },
    },
  };
  let server: ConsoleServer | undefined;
  try {
    server = await startServer({ store: slow, clock: () => new Date(NOW) });
    await ingest(server, failingRoutes(2_000), 'ingest-a');
    // With the gate shut, account B's batch is answered: its ingest does not wait for A's checks.
    const answered = await ingest(server, burst(1, 503), 'ingest-b');
    assert.equal(answered.accepted, 1);
    assert.deepEqual(asked, ['acct_a /r0'], 'one check runs at a time');
    open();
    await server.idle();
    assert.equal(asked.length, SPIKE.perBatch + 1, `at most ${SPIKE.perBatch} endpoints of a batch are checked`);
    assert.equal(asked[1], 'acct_b /webhooks', 'B’s endpoint is checked next, not after A’s');
  } finally {
    open();
    await (server ? server.close() : inner.close());
  }
});
