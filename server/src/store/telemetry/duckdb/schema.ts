/**
 * The DuckDB telemetry's tables (the request events, their payloads, their quarter-hour rollup,
 * and webhook deliveries) by their migrations, `migrations/NNN.name.sql`, recorded in
 * `telemetry_migrations`; and the rollup's upkeep.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { runMigrations, sqlMigrations } from '../../migrations.ts';
import { num } from '../../sql-rows.ts';
import { QUARTER_HOUR } from '../../quarter-hours.ts';

/**
 * Folds the events with `seq` in (after, upto] into the rollup. The bounds are literals so that
 * DuckDB skips every row group below them (a subquery would make it read the whole table).
 */
export const rollUp = (after: number, upto: number) => `
INSERT INTO request_rollup
SELECT account_id, ts - ts % ${QUARTER_HOUR}, coalesce(api_version, ''), "method", route, status, count(*), coalesce(sum(bytes), 0)
FROM request_events WHERE seq > ${after} AND seq <= ${upto}
GROUP BY ALL
ON CONFLICT DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes;
DELETE FROM rollup_state;
INSERT INTO rollup_state VALUES (${upto});
`;

const FOLDER = new URL('./migrations/', import.meta.url);

/** Applies the telemetry migrations the database has not had yet, on the writer; answers the versions applied. */
export async function migrateTelemetry(writer: DuckDBConnection): Promise<number[]> {
  await writer.run('CREATE TABLE IF NOT EXISTS telemetry_migrations (version INTEGER PRIMARY KEY)');
  return runMigrations(
    sqlMigrations(FOLDER, async (script) => {
      await writer.run(script);
    }),
    {
      applied: async () =>
        num((await writer.runAndReadAll('SELECT coalesce(max(version), 0) AS version FROM telemetry_migrations')).getRowObjectsJS()[0]?.['version']),
      record: async (version) => {
        await writer.run(`INSERT INTO telemetry_migrations VALUES (${version})`);
      },
    },
  );
}
