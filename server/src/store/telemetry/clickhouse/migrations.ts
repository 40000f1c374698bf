/**
 * The ClickHouse telemetry's migrations, applied on each host (each shard holds its own tables)
 * and recorded there, in `<db>.schema_migrations_local`. They are code, not SQL files: their
 * statements name the database, and some depend on the server's version. A new version of the
 * schema is a new entry at the end, never an edit of one applied (nor of the functions the first
 * ones call); one that changes a table's columns changes its `Distributed` table too, where there
 * is one. The `Distributed` tables themselves follow the URL's cluster: they are made after the
 * migrations, on every open.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { runMigrations, type Migration } from '../../migrations.ts';
import { identifier, sql } from '../../sql.ts';
import { num } from '../../sql-rows.ts';
import { rowsOf, type Bind } from './bind.ts';
import { payloadSchema } from './payloads.ts';
import { addBatchColumns, distributedSchema, schema } from './schema.ts';

/** What the migrations need to know of the database they change. */
export interface ClickHouseTarget {
  client: ClickHouseClient;
  db: string;
  cluster: string | undefined;
  bind: Bind;
  /** Whether the server has column codecs (ZSTD for payloads). */
  codecs: boolean;
}

const commands = async (client: ClickHouseClient, statements: readonly string[]) => {
  for (const query of statements) await client.command({ query });
};

export const clickHouseMigrations = ({ client, db, bind, codecs }: ClickHouseTarget): Migration[] => [
  // The shard's tables as they were when migrations began: every statement holds for a database made by an earlier version too.
  { version: 1, name: 'tables', apply: () => commands(client, [...schema(db), ...payloadSchema(db, codecs)]) },
  // The batch columns, added to `request_events` tables (and their `Distributed` tables) made before them.
  { version: 2, name: 'batch-columns', apply: () => addBatchColumns(client, db, bind) },
];

/** Applies the migrations this host has not had yet, then makes the cluster's `Distributed` tables; answers the versions applied. */
export async function migrateClickHouse(target: ClickHouseTarget): Promise<number[]> {
  const { client, db, bind, cluster } = target;
  const log = `${db}.schema_migrations_local`;
  await commands(client, [`CREATE DATABASE IF NOT EXISTS ${db}`, `CREATE TABLE IF NOT EXISTS ${log} (version UInt32) ENGINE = MergeTree ORDER BY version`]);
  const applied = await runMigrations(clickHouseMigrations(target), {
    applied: async () => num((await rowsOf(client, sql`SELECT max(version) AS version FROM ${identifier(log)}`, bind))[0]?.['version']),
    record: (version) => commands(client, [`INSERT INTO ${log} (version) VALUES (${version})`]),
  });
  await commands(client, distributedSchema(db, cluster));
  return applied;
}
