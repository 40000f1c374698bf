/**
 * One way every store changes its schema: numbered migrations, applied in order, once each, and
 * recorded in the store itself. A new version of a schema is a new migration, never an edit of
 * one applied. Records and the DuckDB telemetry keep theirs as `NNN.name.sql` files; ClickHouse's
 * depend on the cluster and the server's version, so they are code (telemetry/clickhouse/migrations.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A numbered change to a store's schema. */
export interface Migration {
  version: number;
  name: string;
  apply(): Promise<void>;
}

/** Where a store records the migrations it has had. */
export interface MigrationLog {
  /** The highest version applied, 0 for none. */
  applied(): Promise<number>;
  record(version: number): Promise<void>;
}

/** The `NNN.name.sql` files of a folder, in order, each applied by running its text. */
export function sqlMigrations(folder: URL, run: (script: string) => Promise<void>): Migration[] {
  return readdirSync(folder)
    .flatMap((file) => {
      const match = /^(\d{3})\.([\w-]+)\.sql$/.exec(file);
      return match ? [{ version: Number(match[1]), name: match[2]!, apply: () => run(readFileSync(new URL(file, folder), 'utf8')) }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

/** Applies the migrations newer than the log's, in order; answers the versions applied. */
export async function runMigrations(migrations: readonly Migration[], log: MigrationLog): Promise<number[]> {
  const done = await log.applied();
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= done) continue;
    await migration.apply();
    await log.record(migration.version);
    applied.push(migration.version);
  }
  return applied;
}
