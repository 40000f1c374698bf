/**
 * Runs a command with ClickHouse (one or two shards) and PostgreSQL servers started for it, their
 * URLs in OPS_TEST_TELEMETRY and OPS_TEST_RECORDS, and stops them after: how the store suites run
 * unchanged on the scale-out setup. `node test/with-databases.ts --shards 2 -- node --test test/routes.test.ts`;
 * `--chdb` instead: ClickHouse 26.7 from npm's chdb, in each test process (see harness.ts).
 */
import { spawn } from 'node:child_process';
import { createClient } from '@clickhouse/client';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TelemetryConnection } from '../src/store/telemetry/clickhouse/store.ts';
import { startClickHouse, startDatabases, startPostgres, type DatabaseProcess } from './databases.ts';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const shards = Number(args[args.indexOf('--shards') + 1] ?? 1) || 1;
const [command, ...rest] = args.slice(dash + 1);
if (dash < 0 || !command) {
  console.error('usage: with-databases.ts [--shards N | --chdb] -- command …');
  process.exit(2);
}
// chDB's ClickHouse runs inside each test process, on files in a folder of its own: nothing to start.
const chdb = args.includes('--chdb') ? mkdtempSync(join(tmpdir(), 'ops-chdb-')) : undefined;
const inProcess = (folder: string): Promise<DatabaseProcess> =>
  Promise.resolve({
    url: 'clickhouse://chdb/ops',
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    dispose: () => rm(folder, { recursive: true, force: true }),
  });
const [clickhouse, postgres] = await startDatabases(chdb ? inProcess(chdb) : startClickHouse({ shards }), startPostgres());
let status = 1;
try {
  if (chdb) {
    // Which ClickHouse the suites are about to run on, in the log.
    const { createChdbConnection } = await import('chdb/connection');
    const client = createClient({ connection: createChdbConnection({ path: join(chdb, 'version') }) as unknown as ReturnType<TelemetryConnection> });
    const [row] = await (await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })).json<{ version: string }>();
    console.log(`ClickHouse ${row?.version} (chDB, in process)`);
    await client.close();
  }

  status = await new Promise<number>((resolve) => {
    const env = { ...process.env, OPS_TEST_TELEMETRY: clickhouse.url, OPS_TEST_RECORDS: postgres.url, ...(chdb && { OPS_TEST_CHDB: chdb }) };
    const child = spawn(command, rest, { stdio: 'inherit', env });
    child.once('exit', (code) => resolve(code ?? 1));
    child.once('error', () => resolve(1));
  });
} finally {
  await Promise.all([clickhouse.dispose(), postgres.dispose()]);
}
process.exit(status);
