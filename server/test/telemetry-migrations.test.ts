// The telemetry's schema changes by numbered migrations, as the records' does: a DuckDB file made
// before they began opens with its events and gains what later versions added, and each migration
// applies once, in order; one that fails is not recorded. (ClickHouse's: scale-out.test.ts.)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { openDuckDbStores } from '../src/index.ts';
import { runMigrations, sqlMigrations } from '../src/store/migrations.ts';
import { keptRequests } from './kept.ts';

const dir = mkdtempSync(join(tmpdir(), 'ops-telemetry-migrations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const rowsOf = async (connection: DuckDBConnection, query: string) => (await connection.runAndReadAll(query)).getRowObjectsJS();

test('a DuckDB file made before the telemetry’s migrations opens with its events, gains the later columns, and is migrated once', async () => {
  const file = join(dir, 'before.duckdb');
  const old = await DuckDBInstance.create(file);
  const connection = await old.connect();
  // request_events as the first releases made it, with one event in it.
  await connection.run(`CREATE TABLE request_events (
    account_id VARCHAR NOT NULL, seq BIGINT NOT NULL, ts BIGINT NOT NULL,
    "method" VARCHAR NOT NULL, route VARCHAR NOT NULL, path VARCHAR NOT NULL,
    status SMALLINT NOT NULL, duration_ms DOUBLE NOT NULL,
    api_version VARCHAR, key_id VARCHAR, customer_id VARCHAR,
    actor_id VARCHAR, actor_name VARCHAR, bytes BIGINT)`);
  const ts = Date.now() - 60_000;
  await connection.run(`INSERT INTO request_events VALUES ('acct_a', 1, ${ts}, 'GET', '/old', '/old/1', 200, 2, NULL, NULL, NULL, NULL, NULL, NULL)`);
  connection.closeSync();
  old.closeSync();

  for (const time of ['first', 'second']) {
    const stores = await openDuckDbStores(file);
    try {
      assert.deepEqual(
        (await keptRequests(stores.telemetry, 'acct_a', { limit: 10 })).map((e) => [e.path, e.status]),
        [['/old/1', 200]],
        time,
      );
    } finally {
      await stores.close();
    }
  }
  const reopened = await DuckDBInstance.create(file);
  const check = await reopened.connect();
  try {
    assert.deepEqual(
      (await rowsOf(check, 'SELECT version FROM telemetry_migrations ORDER BY version')).map((row) => row['version']),
      [1],
      'applied once, though opened twice',
    );
    const columns = (await rowsOf(check, "SELECT column_name FROM information_schema.columns WHERE table_name = 'request_events'")).map(
      (row) => row['column_name'],
    );
    for (const added of ['headers', 'has_payload']) assert.ok(columns.includes(added), `${added} was added`);
  } finally {
    check.closeSync();
    reopened.closeSync();
  }
});

test('migrations apply in order, once each; a new one applies alone; one that fails is not recorded and stops the rest', async () => {
  const folder = join(dir, 'migrations');
  rmSync(folder, { recursive: true, force: true });
  const write = (file: string, text: string) => writeFileSync(join(folder, file), text);
  mkdirSync(folder);
  write('002.second.sql', 'INSERT INTO steps VALUES (2);');
  write('001.first.sql', 'CREATE TABLE steps (n INTEGER); INSERT INTO steps VALUES (1);');
  write('notes.txt', 'not a migration');
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  await db.run('CREATE TABLE log (version INTEGER)');
  const migrate = () =>
    runMigrations(
      sqlMigrations(pathToFileURL(`${folder}/`), async (script) => {
        await db.run(script);
      }),
      {
        applied: async () => Number((await rowsOf(db, 'SELECT coalesce(max(version), 0) AS v FROM log'))[0]!['v']),
        record: async (version) => {
          await db.run(`INSERT INTO log VALUES (${version})`);
        },
      },
    );
  const steps = async () => (await rowsOf(db, 'SELECT n FROM steps ORDER BY rowid')).map((row) => row['n']);
  try {
    assert.deepEqual(await migrate(), [1, 2]);
    assert.deepEqual(await migrate(), [], 'nothing twice');
    write('003.third.sql', 'INSERT INTO steps VALUES (3);');
    assert.deepEqual(await migrate(), [3]);
    write('004.broken.sql', 'INSERT INTO no_such_table VALUES (4);');
    write('005.after.sql', 'INSERT INTO steps VALUES (5);');
    await assert.rejects(migrate(), /no_such_table/);
    assert.deepEqual(await steps(), [1, 2, 3], 'the one after a failure did not run');
    assert.deepEqual(
      (await rowsOf(db, 'SELECT version FROM log ORDER BY version')).map((row) => row['version']),
      [1, 2, 3],
    );
  } finally {
    db.closeSync();
    instance.closeSync();
  }
});
