/**
 * The records databases' migrations (`migrations/NNN.name.sql`), recorded in `schema_migrations`
 * through the store's own runner (../migrations.ts). The engine runs this inside a transaction,
 * holding whatever keeps two servers from migrating at once.
 */
import { runMigrations, sqlMigrations } from '../migrations.ts';
import { sql } from '../sql.ts';
import { num } from '../sql-rows.ts';
import type { RecordDb } from './record-db.ts';

const FOLDER = new URL('./migrations/', import.meta.url);

/** The migrations, by version. */
export const migrations = () => sqlMigrations(FOLDER, () => Promise.resolve()).map(({ version, name }) => ({ version, name }));

/** Applies the migrations `db` has not had yet; answers the versions applied. */
export async function migrate(db: RecordDb): Promise<number[]> {
  await db.script('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)');
  return runMigrations(
    sqlMigrations(FOLDER, (script) => db.script(script)),
    {
      applied: async () => num((await db.read(sql`SELECT coalesce(max(version), 0) AS version FROM schema_migrations`))[0]?.['version']),
      record: async (version) => {
        await db.write(sql`INSERT INTO schema_migrations (version) VALUES (${version})`);
      },
    },
  );
}
