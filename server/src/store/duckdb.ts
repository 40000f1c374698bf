/**
 * The embedded default store: request telemetry and records in one DuckDB file (columnar, so
 * p95 and monthly series over millions of events answer in milliseconds). Writes go through
 * one connection, one transaction at a time; reads open their own connections.
 */
import { storeClosed } from './unavailable.ts';
import { randomBytes } from 'node:crypto';
import { BIGINT, DOUBLE, DuckDBDataChunk, DuckDBInstance, SMALLINT, VARCHAR, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { Period } from '../calendar.ts';
import { QUARTER_HOUR, rollupCan, split } from './quarter-hours.ts';
import { eventWhere } from './sql-filter.ts';
import { num, requestWhere, storedRequestOf, text, type Row } from './sql-rows.ts';
import type {
  ActivityRecord,
  CustomerRecord,
  DeliveryStats,
  ErrorRecordRow,
  EventFilter,
  HistoryRecord,
  NoteRecord,
  RecordStore,
  Remembered,
  RequestEvent,
  RequestQuery,
  RouteCounts,
  RouteStats,
  Stores,
  StoredRequest,
  SummaryGroup,
  TelemetryStore,
  Totals,
  WebhookDelivery,
  WebhookRecord,
} from './types.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS request_events (
  account_id VARCHAR NOT NULL, seq BIGINT NOT NULL, ts BIGINT NOT NULL,
  "method" VARCHAR NOT NULL, route VARCHAR NOT NULL, path VARCHAR NOT NULL,
  status SMALLINT NOT NULL, duration_ms DOUBLE NOT NULL,
  api_version VARCHAR, key_id VARCHAR, customer_id VARCHAR,
  actor_id VARCHAR, actor_name VARCHAR, bytes BIGINT
);
-- Added later: the headers a collector was allowed to keep, as a JSON object.
ALTER TABLE request_events ADD COLUMN IF NOT EXISTS headers VARCHAR;
-- Requests counted per quarter hour (every time zone's midnight falls on one), so series over
-- months read thousands of rows instead of millions; kept in the same transaction as the events.
CREATE TABLE IF NOT EXISTS request_rollup (
  account_id VARCHAR NOT NULL, bucket BIGINT NOT NULL, api_version VARCHAR NOT NULL, "method" VARCHAR NOT NULL,
  route VARCHAR NOT NULL, status SMALLINT NOT NULL, requests BIGINT NOT NULL, bytes BIGINT NOT NULL,
  PRIMARY KEY (account_id, bucket, api_version, "method", route, status)
);
CREATE TABLE IF NOT EXISTS rollup_state (upto_seq BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  account_id VARCHAR NOT NULL, webhook_id VARCHAR NOT NULL, ts BIGINT NOT NULL,
  delivered BOOLEAN NOT NULL, status SMALLINT
);
CREATE TABLE IF NOT EXISTS customers (
  account_id VARCHAR NOT NULL, id VARCHAR NOT NULL, doc JSON NOT NULL, PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS webhooks (
  account_id VARCHAR NOT NULL, id VARCHAR NOT NULL, doc JSON NOT NULL, PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS notes (
  account_id VARCHAR NOT NULL, customer_id VARCHAR NOT NULL, ts BIGINT NOT NULL, doc JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
  account_id VARCHAR NOT NULL, customer_id VARCHAR NOT NULL, ts BIGINT NOT NULL, doc JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS error_records (
  account_id VARCHAR NOT NULL, id VARCHAR NOT NULL, status VARCHAR NOT NULL, created_ts BIGINT NOT NULL,
  version INTEGER NOT NULL, doc JSON NOT NULL, PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS activity (
  account_id VARCHAR NOT NULL, id VARCHAR NOT NULL, kind VARCHAR NOT NULL, subject VARCHAR, ts BIGINT NOT NULL, doc JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets (name VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (
  account_id VARCHAR NOT NULL, "key" VARCHAR NOT NULL, doc JSON NOT NULL, PRIMARY KEY (account_id, "key")
);
`;

type Write = <T>(work: (c: DuckDBConnection) => Promise<T>) => Promise<T>;
type Docs = <T>(sql: string, params: DuckDBValue[]) => Promise<T[]>;

const VECTOR_ROWS = 2048;
const EVENT_COLUMN_TYPES = [VARCHAR, BIGINT, BIGINT, VARCHAR, VARCHAR, VARCHAR, SMALLINT, DOUBLE, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, VARCHAR];
/**
 * Folds the events with `seq` in (after, upto] into the rollup. The bounds are literals so that
 * DuckDB skips every row group below them (a subquery would make it read the whole table).
 */
const rollUp = (after: number, upto: number) => `
INSERT INTO request_rollup
SELECT account_id, ts - ts % ${QUARTER_HOUR}, coalesce(api_version, ''), "method", route, status, count(*), coalesce(sum(bytes), 0)
FROM request_events WHERE seq > ${after} AND seq <= ${upto}
GROUP BY ALL
ON CONFLICT DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes;
DELETE FROM rollup_state;
INSERT INTO rollup_state VALUES (${upto});
`;
/** Opens (or creates) the DuckDB database at `path` (`':memory:'` for a throwaway one). */
export async function openDuckDbStores(path: string): Promise<Stores> {
  const instance = await DuckDBInstance.create(path);
  const writer = await instance.connect();
  await writer.run(SCHEMA);
  const last = await writer.runAndReadAll(
    'SELECT coalesce(max(seq), 0) AS seq, (SELECT coalesce(max(upto_seq), 0) FROM rollup_state) AS counted FROM request_events',
  );
  let seq = num(last.getRowObjectsJS()[0]?.['seq']);
  const counted = num(last.getRowObjectsJS()[0]?.['counted']);
  // Events written by an older version, or straight into the table, are counted now.
  if (seq > counted) await writer.run(`BEGIN TRANSACTION; ${rollUp(counted, seq)} COMMIT;`);

  /** Writes run one after another on the writer connection, each in its own transaction. */
  let queue: Promise<unknown> = Promise.resolve();
  const write = <T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await writer.run('BEGIN TRANSACTION');
      try {
        const result = await work(writer);
        await writer.run('COMMIT');
        return result;
      } catch (error) {
        await writer.run('ROLLBACK');
        throw error;
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
  let closed = false;
  const read = async (sql: string, params: DuckDBValue[] = []): Promise<Row[]> => {
    if (closed) throw storeClosed();
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS();
    } finally {
      connection.closeSync();
    }
  };
  const docs = async <T>(sql: string, params: DuckDBValue[]): Promise<T[]> => (await read(sql, params)).map((r) => JSON.parse(text(r['doc'])) as T);

  /** Appends events inside the writer's transaction, with their rollup. */
  const appendIn = async (c: DuckDBConnection, events: readonly RequestEvent[]) => {
    if (!events.length) return;
    const appender = await c.createAppender('request_events');
    let next = seq;
    // Column by column, a vector (2,048 rows) at a time: far fewer calls than value by value.
    for (let start = 0; start < events.length; start += VECTOR_ROWS) {
      const slice = events.slice(start, start + VECTOR_ROWS);
      const chunk = DuckDBDataChunk.create(EVENT_COLUMN_TYPES);
      chunk.setColumns([
        slice.map((e) => e.accountId),
        slice.map(() => BigInt(++next)),
        slice.map((e) => BigInt(e.ts)),
        slice.map((e) => e.method),
        slice.map((e) => e.route),
        slice.map((e) => e.path),
        slice.map((e) => e.status),
        slice.map((e) => e.durationMs),
        slice.map((e) => e.apiVersion),
        slice.map((e) => e.keyId),
        slice.map((e) => e.customerId),
        slice.map((e) => e.actor?.id ?? null),
        slice.map((e) => e.actor?.name ?? null),
        slice.map((e) => (e.bytes === null ? null : BigInt(e.bytes))),
        slice.map((e) => (e.headers ? JSON.stringify(e.headers) : null)),
      ]);
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    await c.run(rollUp(seq, next));
    seq = next; // only once the rows are in the transaction
  };

  const telemetry: TelemetryStore = {
    async append(events: readonly RequestEvent[]) {
      if (events.length) await write((c) => appendIn(c, events));
    },

    async totals(accountId: string, filter: EventFilter): Promise<Totals> {
      const where = eventWhere(accountId, filter);
      const [row] = await read(
        `SELECT count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors,
                coalesce(quantile_disc(duration_ms, 0.95), 0) AS p95, count(DISTINCT key_id) AS keys, coalesce(sum(bytes), 0) AS bytes
         FROM request_events WHERE ${where.sql}`,
        where.params,
      );
      return { requests: num(row?.['requests']), errors: num(row?.['errors']), p95Ms: num(row?.['p95']), keys: num(row?.['keys']), bytes: num(row?.['bytes']) };
    },

    async p95(accountId: string, filter: EventFilter): Promise<number> {
      const where = eventWhere(accountId, filter);
      const [row] = await read(`SELECT coalesce(quantile_disc(duration_ms, 0.95), 0) AS p95 FROM request_events WHERE ${where.sql}`, where.params);
      return num(row?.['p95']);
    },

    async distinctKeys(accountId: string, filter: EventFilter): Promise<number> {
      const where = eventWhere(accountId, filter);
      const [row] = await read(`SELECT count(DISTINCT key_id) AS keys FROM request_events WHERE ${where.sql}`, where.params);
      return num(row?.['keys']);
    },

    // Separate scans run side by side on DuckDB's threads; one scan with a FILTER per period measured slower.
    totalsFor: (accountId, periods, filter = {}) => Promise.all(periods.map((p) => telemetry.totals(accountId, { ...filter, from: p.from, to: p.to }))),

    async perPeriod(accountId: string, periods: readonly Period[], filter: EventFilter = {}) {
      const out = periods.map(() => ({ requests: 0, errors: 0, bytes: 0 }));
      if (!periods.length) return out;
      const add = (i: number, r: Row) => {
        out[i]!.requests += num(r['requests']);
        out[i]!.errors += num(r['errors']);
        out[i]!.bytes += num(r['bytes']);
      };
      const parts = periods.map((p) => (rollupCan(filter) ? split(p) : { core: undefined, edges: [p] }));
      const cores = parts.flatMap((p, i) => (p.core ? [{ ...p.core, i }] : []));
      const edges = parts.flatMap((p, i) => p.edges.map((e) => ({ ...e, i })));
      /** Ragged edges are short and scattered: one small range query each, so each reads only its own row groups. */
      const edgeCounts = async (ranges: { from: number; to: number; i: number }[]) => {
        if (!ranges.length) return;
        const where = eventWhere(accountId, { ...filter, from: undefined, to: undefined });
        const parts = ranges.map(
          (r) =>
            `SELECT ${r.i} AS bucket_index, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors, coalesce(sum(bytes), 0) AS bytes
             FROM request_events WHERE ${where.sql} AND ts >= ? AND ts < ?`,
        );
        const rows = await read(
          parts.join(' UNION ALL '),
          ranges.flatMap((r) => [...where.params, r.from, r.to]),
        );
        for (const r of rows) add(num(r['bucket_index']), r);
      };
      const bucketed = async (table: 'request_rollup' | 'request_events', ranges: { from: number; to: number; i: number }[]) => {
        if (!ranges.length) return;
        const time = table === 'request_rollup' ? 'bucket' : 'ts';
        const cases = ranges.map((r) => `WHEN ${time} >= ? AND ${time} < ? THEN ${r.i}`).join(' ');
        const where = eventWhere(accountId, { ...filter, from: undefined, to: undefined });
        const counted = table === 'request_rollup' ? 'requests' : '1';
        const bytes = table === 'request_rollup' ? 'bytes' : 'coalesce(bytes, 0)';
        const rows = await read(
          `SELECT bucket_index, sum(${counted}) AS requests, sum(CASE WHEN status >= 500 THEN ${counted} ELSE 0 END) AS errors, sum(${bytes}) AS bytes
           FROM (SELECT CASE ${cases} END AS bucket_index, * FROM ${table} WHERE ${where.sql} AND ${time} >= ? AND ${time} < ?)
           WHERE bucket_index IS NOT NULL GROUP BY bucket_index`,
          [...ranges.flatMap((r) => [r.from, r.to]), ...where.params, Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))],
        );
        for (const r of rows) add(num(r['bucket_index']), r);
      };
      await Promise.all([bucketed('request_rollup', cores), rollupCan(filter) ? edgeCounts(edges) : bucketed('request_events', edges)]);
      return out;
    },

    async perPeriodByStatus(accountId: string, periods: readonly Period[]) {
      const byKey = new Map<string, { method: string; route: string; status: number; requests: number[] }>();
      const parts = periods.map((p) => split(p));
      const sources = [
        { table: 'request_rollup', time: 'bucket', counted: 'requests', ranges: parts.flatMap((p, i) => (p.core ? [{ ...p.core, i }] : [])) },
        { table: 'request_events', time: 'ts', counted: '1', ranges: parts.flatMap((p, i) => p.edges.map((e) => ({ ...e, i }))) },
      ];
      await Promise.all(
        sources.map(async ({ table, time, counted, ranges }) => {
          if (!ranges.length) return;
          const cases = ranges.map((r) => `WHEN ${time} >= ? AND ${time} < ? THEN ${r.i}`).join(' ');
          const rows = await read(
            `SELECT "method", route, status, bucket_index, sum(${counted}) AS requests
             FROM (SELECT CASE ${cases} END AS bucket_index, * FROM ${table} WHERE account_id = ? AND ${time} >= ? AND ${time} < ?)
             WHERE bucket_index IS NOT NULL GROUP BY ALL`,
            [...ranges.flatMap((r) => [r.from, r.to]), accountId, Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))],
          );
          for (const r of rows) {
            const key = `${text(r['method'])} ${text(r['route'])} ${num(r['status'])}`;
            const entry = byKey.get(key) ?? { method: text(r['method']), route: text(r['route']), status: num(r['status']), requests: periods.map(() => 0) };
            entry.requests[num(r['bucket_index'])]! += num(r['requests']);
            byKey.set(key, entry);
          }
        }),
      );
      return [...byKey.values()];
    },

    async latencyPerPeriod(accountId: string, periods: readonly Period[], filter: EventFilter = {}) {
      const out = periods.map(() => ({ requests: 0, errors: 0, p95Ms: 0 }));
      if (!periods.length) return out;
      const where = eventWhere(accountId, { ...filter, from: Math.min(...periods.map((p) => p.from)), to: Math.max(...periods.map((p) => p.to)) });
      const cases = periods.map((_, i) => `WHEN ts >= ? AND ts < ? THEN ${i}`).join(' ');
      const rows = await read(
        `SELECT bucket, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors, quantile_disc(duration_ms, 0.95) AS p95
         FROM (SELECT CASE ${cases} END AS bucket, status, duration_ms FROM request_events WHERE ${where.sql})
         WHERE bucket IS NOT NULL GROUP BY bucket`,
        [...periods.flatMap((p) => [p.from, p.to]), ...where.params],
      );
      for (const r of rows) out[num(r['bucket'])] = { requests: num(r['requests']), errors: num(r['errors']), p95Ms: num(r['p95']) };
      return out;
    },

    async countsByStatus(accountId: string, filter: EventFilter) {
      const where = eventWhere(accountId, filter);
      const rows = await read(
        `SELECT status, count(*) AS requests FROM request_events WHERE ${where.sql} GROUP BY status ORDER BY requests DESC, status`,
        where.params,
      );
      return rows.map((r) => ({ status: num(r['status']), requests: num(r['requests']) }));
    },

    async countsByCustomer(accountId: string, filter: EventFilter) {
      const where = eventWhere(accountId, filter);
      const rows = await read(
        `SELECT customer_id, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors
         FROM request_events WHERE ${where.sql} AND customer_id IS NOT NULL GROUP BY customer_id`,
        where.params,
      );
      return rows.map((r) => ({ customerId: text(r['customer_id']), requests: num(r['requests']), errors: num(r['errors']) }));
    },

    async countsByRoute(accountId: string, filter: EventFilter): Promise<RouteCounts[]> {
      const whole = { from: filter.from ?? 0, to: filter.to ?? Number.MAX_SAFE_INTEGER };
      const { core, edges } = rollupCan(filter) ? split(whole) : { core: undefined, edges: [whole] };
      const sources: { table: string; time: string; counted: string; range: Period }[] = [
        ...(core ? [{ table: 'request_rollup', time: 'bucket', counted: 'requests', range: core }] : []),
        ...edges.map((range) => ({ table: 'request_events', time: 'ts', counted: '1', range })),
      ];
      const byKey = new Map<string, RouteCounts>();
      await Promise.all(
        sources.map(async ({ table, time, counted, range }) => {
          const where = eventWhere(accountId, { ...filter, from: undefined, to: undefined });
          const rows = await read(
            `SELECT coalesce(api_version, '') AS api_version, "method", route, sum(${counted}) AS requests, sum(CASE WHEN status >= 500 THEN ${counted} ELSE 0 END) AS errors
             FROM ${table} WHERE ${where.sql} AND ${time} >= ? AND ${time} < ? GROUP BY ALL`,
            [...where.params, range.from, range.to],
          );
          for (const r of rows) {
            const key = `${text(r['api_version'])}\u0000${text(r['method'])}\u0000${text(r['route'])}`;
            const entry = byKey.get(key) ?? { apiVersion: text(r['api_version']), method: text(r['method']), route: text(r['route']), requests: 0, errors: 0 };
            entry.requests += num(r['requests']);
            entry.errors += num(r['errors']);
            byKey.set(key, entry);
          }
        }),
      );
      return [...byKey.values()];
    },

    async byRoute(accountId: string, filter: EventFilter): Promise<RouteStats[]> {
      const where = eventWhere(accountId, filter);
      const rows = await read(
        `SELECT coalesce(api_version, '') AS api_version, "method", route, count(*) AS requests,
                count(*) FILTER (WHERE status >= 500) AS errors,
                quantile_disc(duration_ms, 0.5) AS p50, quantile_disc(duration_ms, 0.95) AS p95, quantile_disc(duration_ms, 0.99) AS p99, max(ts) AS last_ts
         FROM request_events WHERE ${where.sql} GROUP BY ALL`,
        where.params,
      );
      return rows.map((r) => ({
        apiVersion: text(r['api_version']),
        method: text(r['method']),
        route: text(r['route']),
        requests: num(r['requests']),
        errors: num(r['errors']),
        p50Ms: num(r['p50']),
        p95Ms: num(r['p95']),
        p99Ms: num(r['p99']),
        lastTs: num(r['last_ts']),
      }));
    },

    async requests(accountId: string, query: RequestQuery): Promise<StoredRequest[]> {
      const { sql, params } = requestWhere(accountId, query);
      const rows = await read(`SELECT * FROM request_events WHERE ${sql} ORDER BY ts DESC, seq DESC LIMIT ?`, [...params, query.limit]);
      return rows.map(storedRequestOf);
    },

    async summary(accountId: string, window: Period, week: Period, filter: EventFilter = {}): Promise<SummaryGroup[]> {
      const where = eventWhere(accountId, { ...filter, ...window });
      const rows = await read(
        `SELECT "method", route, status, quantile_disc(duration_ms, 0.5) AS median, count(*) FILTER (WHERE ts >= ? AND ts < ?) AS this_week
         FROM request_events WHERE ${where.sql} GROUP BY ALL ORDER BY this_week DESC, "method", route, status`,
        [week.from, week.to, ...where.params],
      );
      return rows.map((r) => ({
        method: text(r['method']),
        route: text(r['route']),
        status: num(r['status']),
        medianMs: num(r['median']),
        thisWeek: num(r['this_week']),
      }));
    },

    async appendDeliveries(deliveries: readonly WebhookDelivery[]) {
      if (!deliveries.length) return;
      await write(async (c) => {
        const appender = await c.createAppender('webhook_deliveries');
        for (const d of deliveries) {
          appender.appendVarchar(d.accountId);
          appender.appendVarchar(d.webhookId);
          appender.appendBigInt(BigInt(d.ts));
          appender.appendBoolean(d.delivered);
          if (d.status === null) appender.appendNull();
          else appender.appendSmallInt(d.status);
          appender.endRow();
        }
        appender.closeSync();
      });
    },

    async deliveries(accountId: string, webhookId: string, periods: readonly Period[]): Promise<DeliveryStats> {
      const [totals] = await read(
        `SELECT count(*) AS total, count(*) FILTER (WHERE delivered) AS delivered, max(ts) AS last_ts
         FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ?`,
        [accountId, webhookId],
      );
      const monthly = periods.map(() => 0);
      if (periods.length) {
        const cases = periods.map((_, i) => `WHEN ts >= ? AND ts < ? THEN ${i}`).join(' ');
        const rows = await read(
          `SELECT bucket, count(*) AS n FROM (SELECT CASE ${cases} END AS bucket FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ?)
           WHERE bucket IS NOT NULL GROUP BY bucket`,
          [...periods.flatMap((p) => [p.from, p.to]), accountId, webhookId],
        );
        for (const r of rows) monthly[num(r['bucket'])] = num(r['n']);
      }
      const lastTs = totals?.['last_ts'];
      return {
        total: num(totals?.['total']),
        delivered: num(totals?.['delivered']),
        lastTs: lastTs === null || lastTs === undefined ? null : num(lastTs),
        monthly,
      };
    },

    async deliveriesByWebhook(accountId: string) {
      const rows = await read(
        `SELECT webhook_id, count(*) AS total, count(*) FILTER (WHERE delivered) AS delivered, max(ts) AS last_ts
         FROM webhook_deliveries WHERE account_id = ? GROUP BY webhook_id`,
        [accountId],
      );
      return rows.map((r) => ({ webhookId: text(r['webhook_id']), total: num(r['total']), delivered: num(r['delivered']), lastTs: num(r['last_ts']) }));
    },
  };

  /**
   * The record operations over a way to write and a way to read: on their own each write is its
   * own transaction; inside `atomically` all of them share one, and reads see its writes.
   */
  const makeRecords = (write: Write, docs: Docs): Omit<RecordStore, 'atomically'> => {
    const upsertWith = (write: Write) => (table: 'customers' | 'webhooks') => async (accountId: string, doc: { id: string }) =>
      write(async (c) => {
        const existing = await c.runAndReadAll(`SELECT 1 FROM ${table} WHERE account_id = ? AND id = ?`, [accountId, doc.id]);
        await c.run(`INSERT OR REPLACE INTO ${table} VALUES (?, ?, ?)`, [accountId, doc.id, JSON.stringify(doc)]);
        return existing.currentRowCount ? ('updated' as const) : ('created' as const);
      });

    const upsert = upsertWith(write);
    const records: Omit<RecordStore, 'atomically'> = {
      upsertCustomer: upsert('customers'),
      async customer(accountId, id) {
        return (await docs<CustomerRecord>('SELECT doc FROM customers WHERE account_id = ? AND id = ?', [accountId, id]))[0];
      },
      customers: (accountId) => docs<CustomerRecord>('SELECT doc FROM customers WHERE account_id = ? ORDER BY id', [accountId]),
      async addNote(accountId, note) {
        await write((c) => c.run('INSERT INTO notes VALUES (?, ?, ?, ?)', [accountId, note.customerId, note.ts, JSON.stringify(note)]));
      },
      notes: (accountId, customerId) =>
        docs<NoteRecord>('SELECT doc FROM notes WHERE account_id = ? AND customer_id = ? ORDER BY ts DESC, rowid DESC', [accountId, customerId]),
      async addHistory(accountId, item) {
        await write((c) => c.run('INSERT INTO history VALUES (?, ?, ?, ?)', [accountId, item.customerId, item.ts, JSON.stringify(item)]));
      },
      history: (accountId, customerId) =>
        docs<HistoryRecord>('SELECT doc FROM history WHERE account_id = ? AND customer_id = ? ORDER BY ts DESC, rowid DESC', [accountId, customerId]),
      upsertWebhook: upsert('webhooks'),
      async webhook(accountId, id) {
        return (await docs<WebhookRecord>('SELECT doc FROM webhooks WHERE account_id = ? AND id = ?', [accountId, id]))[0];
      },
      webhooks: (accountId) => docs<WebhookRecord>('SELECT doc FROM webhooks WHERE account_id = ? ORDER BY id', [accountId]),
      async createError(accountId, record) {
        await write((c) =>
          c.run('INSERT INTO error_records VALUES (?, ?, ?, ?, ?, ?)', [
            accountId,
            record.id,
            record.status,
            record.createdTs,
            record.version,
            JSON.stringify(record),
          ]),
        );
      },
      async error(accountId, id) {
        return (await docs<ErrorRecordRow>('SELECT doc FROM error_records WHERE account_id = ? AND id = ?', [accountId, id]))[0];
      },
      errors: (accountId, { status, endpoint, limit, offset }) =>
        docs<ErrorRecordRow>(
          `SELECT doc FROM error_records WHERE account_id = ? ${status ? 'AND status = ?' : ''} ${endpoint ? "AND json_extract_string(doc, '$.endpoint') = ?" : ''}
           ORDER BY created_ts DESC, id DESC LIMIT ? OFFSET ?`,
          [accountId, ...(status ? [status] : []), ...(endpoint ? [endpoint] : []), limit, offset],
        ),
      updateError: (accountId, id, change, expectedVersion) =>
        write(async (c) => {
          const found = await c.runAndReadAll('SELECT doc FROM error_records WHERE account_id = ? AND id = ?', [accountId, id]);
          const row = found.getRowObjectsJS()[0];
          if (!row) return 'missing' as const;
          const current = JSON.parse(text(row['doc'])) as ErrorRecordRow;
          if (expectedVersion !== undefined && expectedVersion !== current.version) return 'conflict' as const;
          const next: ErrorRecordRow = { ...current, ...change, version: current.version + 1 };
          await c.run('UPDATE error_records SET status = ?, version = ?, doc = ? WHERE account_id = ? AND id = ?', [
            next.status,
            next.version,
            JSON.stringify(next),
            accountId,
            id,
          ]);
          return next;
        }),
      async addActivity(accountId, item) {
        // A bound null has no type for DuckDB to take; an empty subject stands for none.
        await write((c) =>
          c.run("INSERT INTO activity VALUES (?, ?, ?, NULLIF(?, ''), ?, ?)", [
            accountId,
            item.id,
            item.kind,
            item.subject ?? '',
            item.ts,
            JSON.stringify(item),
          ]),
        );
      },
      activity: (accountId, { kind, limit, offset }) =>
        docs<ActivityRecord>(
          `SELECT doc FROM activity WHERE account_id = ? ${kind ? 'AND kind = ?' : ''} ORDER BY ts DESC, id DESC LIMIT ? OFFSET ?`,
          kind ? [accountId, kind, limit, offset] : [accountId, limit, offset],
        ),
      async latestActivity(accountId, kind, subject) {
        return (
          await docs<ActivityRecord>('SELECT doc FROM activity WHERE account_id = ? AND kind = ? AND subject = ? ORDER BY ts DESC LIMIT 1', [
            accountId,
            kind,
            subject,
          ])
        )[0];
      },
      async remembered(accountId, key) {
        return (await docs<Remembered>('SELECT doc FROM idempotency WHERE account_id = ? AND "key" = ?', [accountId, key]))[0];
      },
      async remember(accountId, key, value) {
        await write((c) => c.run('INSERT OR IGNORE INTO idempotency VALUES (?, ?, ?)', [accountId, key, JSON.stringify(value)]));
      },
      async secret(name) {
        return write(async (c) => {
          await c.run('INSERT OR IGNORE INTO secrets VALUES (?, ?)', [name, randomBytes(32).toString('hex')]);
          return text((await c.runAndReadAll('SELECT value FROM secrets WHERE name = ?', [name])).getRowObjectsJS()[0]?.['value']);
        });
      },
      async forgetBefore(ts) {
        await write((c) => c.run("DELETE FROM idempotency WHERE coalesce(CAST(json_extract(doc, '$.at') AS BIGINT), 0) < ?", [ts]));
      },
    };
    return records;
  };
  const inTransaction = (c: DuckDBConnection): RecordStore => {
    const here: Write = (work) => work(c);
    const readHere: Docs = async (sql, params) => (await c.runAndReadAll(sql, params)).getRowObjectsJS().map((r) => JSON.parse(text(r['doc'])) as never);
    const scoped: RecordStore = { ...makeRecords(here, readHere), atomically: (work) => work(scoped) };
    return scoped;
  };
  const records: RecordStore = { ...makeRecords(write, docs), atomically: (work) => write((c) => work(inTransaction(c))) };

  return {
    telemetry,
    records,
    // The events and the key's answer in one transaction of the one writer: a repeat waits its turn and finds the answer.
    appendOnce: (accountId, key, answer, events) =>
      write(async (c) => {
        const scoped = inTransaction(c);
        const seen = await scoped.remembered(accountId, key);
        if (seen) return { answer: seen, appended: false };
        await appendIn(c, events);
        await scoped.remember(accountId, key, answer);
        return { answer, appended: true };
      }),
    async ping() {
      await read('SELECT 1').catch((error: unknown) =>
        Promise.reject(new Error(`DuckDB does not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error })),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      writer.closeSync();
      instance.closeSync();
    },
  };
}
