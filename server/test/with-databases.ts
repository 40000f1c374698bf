/**
 * Runs a command with ClickHouse (one or two shards) and PostgreSQL servers started for it, their
 * URLs in OPS_TEST_TELEMETRY and OPS_TEST_RECORDS, and stops them after: how the store suites run
 * unchanged on the scale-out setup. `node test/with-databases.ts --shards 2 -- node --test test/routes.test.ts`
 */
import { spawn } from 'node:child_process';
import { startClickHouse, startPostgres } from './databases.ts';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const shards = Number(args[args.indexOf('--shards') + 1] ?? 1) || 1;
const [command, ...rest] = args.slice(dash + 1);
if (dash < 0 || !command) {
  console.error('usage: with-databases.ts [--shards N] -- command …');
  process.exit(2);
}
const [clickhouse, postgres] = await Promise.all([startClickHouse({ shards }), startPostgres()]);
let status = 1;
try {
  status = await new Promise<number>((resolve) => {
    const child = spawn(command, rest, { stdio: 'inherit', env: { ...process.env, OPS_TEST_TELEMETRY: clickhouse.url, OPS_TEST_RECORDS: postgres.url } });
    child.once('exit', (code) => resolve(code ?? 1));
    child.once('error', () => resolve(1));
  });
} finally {
  await Promise.all([clickhouse.dispose(), postgres.dispose()]);
}
process.exit(status);
