// The records on both their databases: what 0.1.0 stored (a DuckDB file made before migrations,
// a PostgreSQL schema at its migration 2) reads the same in this release, and the one migration
// runner applies each migration once, also when two servers open one PostgreSQL schema at once.
// The route suites run on both databases too; this is about the files and schemas left behind.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { after, before, describe, test } from 'node:test';
import { openDuckDbStores, openPostgresRecords } from '../src/index.ts';
import { migrations } from '../src/store/records/migrate.ts';
import type { RecordStore } from '../src/store/types.ts';
import { startPostgres, type DatabaseProcess } from './databases.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures/records-0.1.0', name), 'utf8');
const RELEASED = [1, 2];
const CURRENT = migrations().map((m) => m.version);

/** What 0.1.0 wrote (fixtures/records-0.1.0/rows.sql and the error record), read and changed through this release. */
async function assertReadsWhatWasStored(records: RecordStore) {
  assert.deepEqual(
    (await records.customers('acct_o')).map((c) => c.id),
    ['cus_A', 'cus_a', 'cus_b'],
    'ids in byte order',
  );
  const notes = async () => (await records.notes('acct_o', 'cus_a')).map((n) => (n as unknown as { text: string }).text);
  assert.deepEqual(await notes(), ['third', 'second', 'first'], 'one instant: the last written first');
  await records.addNote('acct_o', { customerId: 'cus_a', ts: 1000, text: 'fourth' } as never);
  assert.deepEqual(await notes(), ['fourth', 'third', 'second', 'first']);

  assert.deepEqual(
    (await records.errors('acct_o', { endpoint: 'POST /v1/charges', limit: 10, offset: 0 })).map((e) => e.id),
    ['err_1'],
  );
  const changed = await records.updateError('acct_o', 'err_1', { status: 'resolved' }, 1);
  assert.equal(typeof changed === 'object' && changed.version, 2);
  assert.equal(await records.updateError('acct_o', 'err_1', { status: 'open' }, 1), 'conflict');
  assert.deepEqual(
    (await records.errors('acct_o', { status: 'resolved', endpoint: 'POST /v1/charges', limit: 10, offset: 0 })).map((e) => [e.id, e.status]),
    [['err_1', 'resolved']],
  );

  assert.deepEqual(await records.remembered('acct_o', 'key-1'), { fingerprint: 'f1', status: 201, body: { id: 'cus_a' }, at: 5 });
  // The secret behind request ids is kept: ids given out before the upgrade still find their requests.
  assert.equal(await records.secret('request-ids'), 'ab'.repeat(32));
}

describe('records on DuckDB', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'ops-console-records-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const versionsIn = async (file: string) => {
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    try {
      return (await connection.runAndReadAll('SELECT version FROM schema_migrations ORDER BY version')).getRowObjectsJS().map((r) => r['version']);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  };

  test('a file made by 0.1.0, before migrations, opens with its records as they were', async () => {
    const file = join(dir, 'old.duckdb');
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run(fixture('duckdb.sql'));
    await connection.run(fixture('rows.sql'));
    connection.closeSync();
    instance.closeSync();

    const stores = await openDuckDbStores(file);
    try {
      await assertReadsWhatWasStored(stores.records);
    } finally {
      await stores.close();
    }
    assert.deepEqual(await versionsIn(file), CURRENT);
    // Opened again, nothing is applied twice, and the change made above is there.
    const again = await openDuckDbStores(file);
    try {
      assert.equal((await again.records.error('acct_o', 'err_1'))?.status, 'resolved');
    } finally {
      await again.close();
    }
    assert.deepEqual(await versionsIn(file), CURRENT);
  });
});

describe('records on PostgreSQL', () => {
  let postgres: DatabaseProcess;
  before(async () => (postgres = await startPostgres()));
  after(() => postgres.dispose());

  const inSchema = async <T>(schema: string, work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: postgres.url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const versionsIn = (schema: string) =>
    inSchema(schema, async (client) =>
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => r.version),
    );

  test('a schema 0.1.0 migrated opens with its records as they were', async () => {
    await inSchema('old_release', async (client) => {
      await client.query('CREATE SCHEMA old_release');
      await client.query(fixture('postgres.sql'));
      await client.query(fixture('rows.sql'));
    });
    assert.deepEqual(await versionsIn('old_release'), RELEASED);
    const records = await openPostgresRecords(`${postgres.url}?schema=old_release`);
    try {
      await assertReadsWhatWasStored(records);
    } finally {
      await records.close();
    }
    assert.deepEqual(await versionsIn('old_release'), CURRENT);
  });

  test('two servers opening a new schema at once: one migrates, the other finds it done', async () => {
    const opened = await Promise.all([1, 2, 3].map(() => openPostgresRecords(`${postgres.url}?schema=fresh`)));
    try {
      await opened[0]!.upsertCustomer('acct_f', { id: 'cus_1', name: 'One' } as never);
      assert.deepEqual(
        (await opened[2]!.customers('acct_f')).map((c) => c.id),
        ['cus_1'],
      );
      assert.equal(await opened[1]!.upsertCustomer('acct_f', { id: 'cus_1', name: 'Uno' } as never), 'updated');
    } finally {
      await Promise.all(opened.map((records) => records.close()));
    }
    assert.deepEqual(await versionsIn('fresh'), CURRENT);
  });
});

test('migrations are numbered 001, 002… with no gap and no number twice', () => {
  assert.deepEqual(
    CURRENT,
    CURRENT.map((_, i) => i + 1),
  );
  assert.ok(CURRENT.length >= RELEASED.length);
});
