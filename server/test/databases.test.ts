/** The test databases' own harness: a failed start leaves nothing running behind it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startClickHouse, startDatabases } from './databases.ts';

test('when one database fails to start, the one that started is stopped and removed', async () => {
  const clickhouse = startClickHouse();
  await assert.rejects(startDatabases(clickhouse, Promise.reject(new Error('PostgreSQL did not start'))), /PostgreSQL did not start/);
  const [address] = (await clickhouse).url.replace('clickhouse://', '').split('/');
  await assert.rejects(fetch(`http://${address}/ping`), 'ClickHouse still answers after the failed start');
});
