/**
 * One migration runner for every records database. `migrations/NNN.name.sql` apply in order,
 * once each, recorded in `schema_migrations`; a new version of the schema is a new file, never
 * an edit. The engine runs this inside a transaction, holding whatever keeps two servers from
 * migrating at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from '../sql.ts';
import { num } from '../sql-rows.ts';
import type { RecordDb } from './record-db.ts';

const FOLDER = new URL('./migrations/', import.meta.url);

/** The migrations, by version. */
export function migrations(): { version: number; file: string }[] {
  return readdirSync(FOLDER)
    .flatMap((file) => {
      const match = /^(\d{3})\.[\w-]+\.sql$/.exec(file);
      return match ? [{ version: Number(match[1]), file }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

/** Applies the migrations `db` has not had yet; answers the versions applied. */
export async function migrate(db: RecordDb): Promise<number[]> {
  await db.script('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)');
  const [row] = await db.read(sql`SELECT coalesce(max(version), 0) AS version FROM schema_migrations`);
  const applied: number[] = [];
  for (const { version, file } of migrations()) {
    if (version <= num(row?.['version'])) continue;
    await db.script(readFileSync(new URL(file, FOLDER), 'utf8'));
    await db.write(sql`INSERT INTO schema_migrations (version) VALUES (${version})`);
    applied.push(version);
  }
  return applied;
}
