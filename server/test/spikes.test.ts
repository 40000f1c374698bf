// The server's own activity: an error spike on an endpoint, detected from the ingested events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, ingest, startServer } from './harness.ts';

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
    const spikes = async () => (await call(server, '/console/v1/activity?kind=error-spike', { token: 'token-a' })).json.items;
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
      assert.deepEqual((await call(quiet, '/console/v1/activity?kind=error-spike', { token: 'token-a' })).json.items, [], '10 of 210 is under 10 %');
    } finally {
      await quiet.close();
    }
  } finally {
    await server.close();
  }
});
