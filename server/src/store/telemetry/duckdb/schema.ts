/**
 * The DuckDB telemetry's tables (the request events, their payloads, their quarter-hour rollup,
 * and webhook deliveries) by their migrations, `migrations/NNN.name.sql`; and the rollup's upkeep.
 */
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

/** The telemetry's migrations, `NNN.name.sql`, applied as the records' are and recorded in `telemetry_migrations`. */
export const TELEMETRY_MIGRATIONS = new URL('./migrations/', import.meta.url);
