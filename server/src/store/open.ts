/**
 * Opens the stores a configuration names: the embedded DuckDB file by default, or request
 * telemetry on ClickHouse and records on PostgreSQL, which several console servers can share.
 */
import { openClickHouseTelemetry, type TelemetryConnection } from './telemetry/clickhouse/store.ts';
import { openDuckDbStores } from './duckdb.ts';
import { openPostgresRecords } from './records/postgres.ts';
import type { Stores } from './types.ts';

export interface StoreConfig {
  /** `duckdb:./ops-console.duckdb` (the default), a DuckDB file path, or `':memory:'`. */
  store?: string;
  /** `clickhouse://host:8123[,host:8123…]/database[?cluster=name&retention_months=N]`: request telemetry on ClickHouse (with `records`). */
  telemetry?: string;
  /** `postgres://user@host:5432/database[?schema=name]`: records on PostgreSQL (with `telemetry`). */
  records?: string;
  /** How the ClickHouse client reaches each host of `telemetry`, instead of HTTP (chDB's in-process ClickHouse: `() => createChdbConnection({ path })`). */
  telemetryConnection?: TelemetryConnection;
}

const HOUR = 3_600_000;

export async function openStores({ store, telemetry, records, telemetryConnection }: StoreConfig): Promise<Stores> {
  if (telemetry === undefined && records === undefined) return openDuckDbStores((store ?? 'duckdb:./ops-console.duckdb').replace(/^duckdb:/, ''));
  if (!telemetry?.startsWith('clickhouse://') || !/^postgres(ql)?:\/\//.test(records ?? ''))
    throw new Error('Scaling out takes both: telemetry: "clickhouse://…" and records: "postgres://…".');
  const recordStore = await openPostgresRecords(records!);
  try {
    const telemetryStore = await openClickHouseTelemetry({ url: telemetry, connection: telemetryConnection });
    const retire = () => telemetryStore.applyRetention().catch((error: unknown) => console.error('[ops-console server] retention', error));
    void retire();
    const timer = setInterval(() => void retire(), HOUR);
    timer.unref();
    return {
      telemetry: telemetryStore,
      records: recordStore,
      // The key is looked up under PostgreSQL's lock for it, held while ClickHouse takes the events
      // and until the answer is committed: a repeat through any server waits, then gets the answer.
      // Should the commit fail after ClickHouse took the events, the events carry the key: the
      // retry adds only those not there yet.
      appendOnce: (accountId, key, answer, events) =>
        recordStore.atomically(async (records) => {
          const seen = await records.remembered(accountId, key);
          if (seen) return { answer: seen, appended: false };
          await telemetryStore.appendBatch(accountId, events, { key, at: answer.at ?? Date.now() });
          await records.remember(accountId, key, answer);
          return { answer, appended: true };
        }),
      async ping() {
        // Both asked at once; when both are away, ClickHouse is named first, whichever failed first.
        const [clickhouse, postgres] = await Promise.allSettled([telemetryStore.ping(), recordStore.ping()]);
        if (clickhouse.status === 'rejected') throw new Error(`ClickHouse does not answer: ${messageOf(clickhouse.reason)}`, { cause: clickhouse.reason });
        if (postgres.status === 'rejected') throw new Error(`PostgreSQL does not answer: ${messageOf(postgres.reason)}`, { cause: postgres.reason });
      },
      async close() {
        clearInterval(timer);
        await Promise.all([telemetryStore.close(), recordStore.close()]);
      },
    };
  } catch (error) {
    await recordStore.close();
    throw error;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
