/**
 * The records databases' migrations (`migrations/NNN.name.sql`), recorded in `schema_migrations`
 * through the store's own runner (../migrations.ts); the DuckDB telemetry's go the same way, with
 * a folder and a table of their own. The engine runs this inside a transaction, holding whatever
 * keeps two servers from migrating at once.
 */
import { runMigrations, sqlMigrations } from '../migrations.ts';
import { identifier, sql } from '../sql.ts';
import { num } from '../sql-rows.ts';
import type { RecordDb } from './record-db.ts';

const FOLDER = new URL('./migrations/', import.meta.url);

/** The migrations, by version. */
export const migrations = () => sqlMigrations(FOLDER, () => Promise.resolve()).map(({ version, name }) => ({ version, name }));

/** Applies the migrations of `folder` that `db` has not had yet, recorded in `table`; answers the versions applied. */
export async function migrate(db: RecordDb, folder = FOLDER, table = 'schema_migrations'): Promise<number[]> {
  const log = identifier(table);
  await db.script(`CREATE TABLE IF NOT EXISTS ${table} (version integer PRIMARY KEY)`);
  return runMigrations(
    sqlMigrations(folder, (script) => db.script(script)),
    {
      applied: async () => num((await db.read(sql`SELECT coalesce(max(version), 0) AS version FROM ${log}`))[0]?.['version']),
      record: async (version) => {
        await db.write(sql`INSERT INTO ${log} (version) VALUES (${version})`);
      },
    },
  );
}
