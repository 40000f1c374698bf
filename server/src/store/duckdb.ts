/**
 * The embedded default store: request telemetry and records in one DuckDB file (columnar, so
 * p95 and monthly series over millions of events answer in milliseconds). Writes go through
 * one connection, one transaction at a time; reads open their own connections.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { Period } from '../calendar.ts';
import { eventWhere } from './sql-filter.ts';
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
CREATE TABLE IF NOT EXISTS idempotency (
  account_id VARCHAR NOT NULL, "key" VARCHAR NOT NULL, doc JSON NOT NULL, PRIMARY KEY (account_id, "key")
);
`;

type Row = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string' ? Number(value) : 0);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Opens (or creates) the DuckDB database at `path` (`':memory:'` for a throwaway one). */
export async function openDuckDbStores(path: string): Promise<Stores> {
  const instance = await DuckDBInstance.create(path);
  const writer = await instance.connect();
  await writer.run(SCHEMA);
  const last = await writer.runAndReadAll('SELECT coalesce(max(seq), 0) AS seq FROM request_events');
  let seq = num(last.getRowObjectsJS()[0]?.['seq']);

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
    if (closed) throw new Error('The store is closed.');
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS();
    } finally {
      connection.closeSync();
    }
  };
  const docs = async <T>(sql: string, params: DuckDBValue[]): Promise<T[]> => (await read(sql, params)).map((r) => JSON.parse(text(r['doc'])) as T);

  const telemetry: TelemetryStore = {
    async append(events: readonly RequestEvent[]) {
      if (!events.length) return;
      await write(async (c) => {
        const appender = await c.createAppender('request_events');
        let next = seq;
        for (const e of events) {
          appender.appendVarchar(e.accountId);
          appender.appendBigInt(BigInt(++next));
          appender.appendBigInt(BigInt(e.ts));
          appender.appendVarchar(e.method);
          appender.appendVarchar(e.route);
          appender.appendVarchar(e.path);
          appender.appendSmallInt(e.status);
          appender.appendDouble(e.durationMs);
          for (const text of [e.apiVersion, e.keyId, e.customerId, e.actor?.id ?? null, e.actor?.name ?? null]) {
            if (text === null) appender.appendNull();
            else appender.appendVarchar(text);
          }
          if (e.bytes === null) appender.appendNull();
          else appender.appendBigInt(BigInt(e.bytes));
          appender.endRow();
        }
        appender.closeSync();
        seq = next; // only once the rows are in the transaction
      });
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

    async perPeriod(accountId: string, periods: readonly Period[], filter: EventFilter = {}) {
      if (!periods.length) return [];
      const cases = periods.map((_, i) => `WHEN ts >= ? AND ts < ? THEN ${i}`).join(' ');
      const where = eventWhere(accountId, { ...filter, from: Math.min(...periods.map((p) => p.from)), to: Math.max(...periods.map((p) => p.to)) });
      const rows = await read(
        `SELECT bucket, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors, coalesce(sum(bytes), 0) AS bytes
         FROM (SELECT CASE ${cases} END AS bucket, status, bytes FROM request_events WHERE ${where.sql})
         WHERE bucket IS NOT NULL GROUP BY bucket`,
        [...periods.flatMap((p) => [p.from, p.to]), ...where.params],
      );
      const out = periods.map(() => ({ requests: 0, errors: 0, bytes: 0 }));
      for (const r of rows) out[num(r['bucket'])] = { requests: num(r['requests']), errors: num(r['errors']), bytes: num(r['bytes']) };
      return out;
    },

    async byRoute(accountId: string, filter: EventFilter): Promise<RouteStats[]> {
      const where = eventWhere(accountId, filter);
      const rows = await read(
        `SELECT coalesce(api_version, '') AS api_version, "method", route, count(*) AS requests,
                count(*) FILTER (WHERE status >= 500) AS errors, quantile_disc(duration_ms, 0.95) AS p95, max(ts) AS last_ts
         FROM request_events WHERE ${where.sql} GROUP BY ALL`,
        where.params,
      );
      return rows.map((r) => ({
        apiVersion: text(r['api_version']),
        method: text(r['method']),
        route: text(r['route']),
        requests: num(r['requests']),
        errors: num(r['errors']),
        p95Ms: num(r['p95']),
        lastTs: num(r['last_ts']),
      }));
    },

    async requests(accountId: string, query: RequestQuery): Promise<StoredRequest[]> {
      const where = eventWhere(accountId, query);
      let sql = where.sql;
      const params = [...where.params];
      if (query.before) {
        sql += ' AND (ts < ? OR (ts = ? AND seq < ?))';
        params.push(query.before.ts, query.before.ts, query.before.seq);
      }
      if (query.since !== undefined) {
        sql += ' AND ts > ?';
        params.push(query.since);
      }
      const rows = await read(`SELECT * FROM request_events WHERE ${sql} ORDER BY ts DESC, seq DESC LIMIT ?`, [...params, query.limit]);
      return rows.map((r) => ({
        accountId: text(r['account_id']),
        seq: num(r['seq']),
        ts: num(r['ts']),
        method: text(r['method']),
        route: text(r['route']),
        path: text(r['path']),
        status: num(r['status']),
        durationMs: num(r['duration_ms']),
        apiVersion: textOrNull(r['api_version']),
        keyId: textOrNull(r['key_id']),
        customerId: textOrNull(r['customer_id']),
        actor: typeof r['actor_id'] === 'string' ? { id: r['actor_id'], name: textOrNull(r['actor_name']) ?? r['actor_id'] } : null,
        bytes: r['bytes'] === null ? null : num(r['bytes']),
      }));
    },

    async summary(accountId: string, window: Period, week: Period): Promise<SummaryGroup[]> {
      const where = eventWhere(accountId, window);
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
  };

  const upsert = (table: 'customers' | 'webhooks') => async (accountId: string, doc: { id: string }) =>
    write(async (c) => {
      const existing = await c.runAndReadAll(`SELECT 1 FROM ${table} WHERE account_id = ? AND id = ?`, [accountId, doc.id]);
      await c.run(`INSERT OR REPLACE INTO ${table} VALUES (?, ?, ?)`, [accountId, doc.id, JSON.stringify(doc)]);
      return existing.currentRowCount ? ('updated' as const) : ('created' as const);
    });

  const records: RecordStore = {
    upsertCustomer: upsert('customers'),
    async customer(accountId, id) {
      return (await docs<CustomerRecord>('SELECT doc FROM customers WHERE account_id = ? AND id = ?', [accountId, id]))[0];
    },
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
    errors: (accountId, { status, limit, offset }) =>
      docs<ErrorRecordRow>(
        `SELECT doc FROM error_records WHERE account_id = ? ${status ? 'AND status = ?' : ''} ORDER BY created_ts DESC, id DESC LIMIT ? OFFSET ?`,
        status ? [accountId, status, limit, offset] : [accountId, limit, offset],
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
        c.run("INSERT INTO activity VALUES (?, ?, ?, NULLIF(?, ''), ?, ?)", [accountId, item.id, item.kind, item.subject ?? '', item.ts, JSON.stringify(item)]),
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
  };

  return {
    telemetry,
    records,
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      writer.closeSync();
      instance.closeSync();
    },
  };
}
