// What load balancers and orchestrators call: /healthz says the process is up, /readyz that the
// stores answer. Neither needs credentials, and neither says more than which database is away.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, startServer, storeSetup } from './harness.ts';

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
