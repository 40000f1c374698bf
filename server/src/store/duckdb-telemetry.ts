/**
 * The DuckDB store's telemetry: the request events (appended with their quarter-hour rollup by
 * the store) and the webhook deliveries, read with one connection per read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Period } from '../calendar.ts';
import { rollupCan, split } from './quarter-hours.ts';
import { eventWhere } from './sql-filter.ts';
import { identifier, join, sql, type Sql } from './sql.ts';
import { num, requestWhere, storedRequestOf, text, type Row } from './sql-rows.ts';
import type {
  DeliveryStats,
  EventFilter,
  RequestEvent,
  RequestQuery,
  RouteCounts,
  RouteStats,
  StoredRequest,
  SummaryGroup,
  TelemetryStore,
  Totals,
  WebhookDelivery,
} from './types.ts';

type Read = (query: Sql) => Promise<Row[]>;
type Write = <T>(work: (c: DuckDBConnection) => Promise<T>) => Promise<T>;

/** `CASE WHEN time >= from AND time < to THEN i … END`: the number of the range a row's time falls in (NULL for none). */
const bucketCases = (time: Sql, ranges: readonly { from: number; to: number; i: number }[]) =>
  sql`CASE ${join(
    ranges.map((r) => sql`WHEN ${time} >= ${r.from} AND ${time} < ${r.to} THEN ${r.i}`),
    ' ',
  )} END`;

/** The telemetry over the store's reads, its appending of events, and its writer (for deliveries). */
export function duckDbTelemetry(read: Read, append: (events: readonly RequestEvent[]) => Promise<void>, write: Write): TelemetryStore {
  const telemetry: TelemetryStore = {
    async append(events: readonly RequestEvent[]) {
      if (events.length) await append(events);
    },

    async totals(accountId: string, filter: EventFilter): Promise<Totals> {
      const where = eventWhere(accountId, filter);
      const [row] = await read(
        sql`SELECT count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors,
              coalesce(quantile_disc(duration_ms, 0.95), 0) AS p95, count(DISTINCT key_id) AS keys, coalesce(sum(bytes), 0) AS bytes
       FROM request_events WHERE ${where}`,
      );
      return { requests: num(row?.['requests']), errors: num(row?.['errors']), p95Ms: num(row?.['p95']), keys: num(row?.['keys']), bytes: num(row?.['bytes']) };
    },

    async p95(accountId: string, filter: EventFilter): Promise<number> {
      const where = eventWhere(accountId, filter);
      const [row] = await read(sql`SELECT coalesce(quantile_disc(duration_ms, 0.95), 0) AS p95 FROM request_events WHERE ${where}`);
      return num(row?.['p95']);
    },

    async distinctKeys(accountId: string, filter: EventFilter): Promise<number> {
      const where = eventWhere(accountId, filter);
      const [row] = await read(sql`SELECT count(DISTINCT key_id) AS keys FROM request_events WHERE ${where}`);
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
            sql`SELECT ${r.i} AS bucket_index, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors, coalesce(sum(bytes), 0) AS bytes
           FROM request_events WHERE ${where} AND ts >= ${r.from} AND ts < ${r.to}`,
        );
        const rows = await read(join(parts, ' UNION ALL '));
        for (const r of rows) add(num(r['bucket_index']), r);
      };
      const bucketed = async (table: 'request_rollup' | 'request_events', ranges: { from: number; to: number; i: number }[]) => {
        if (!ranges.length) return;
        const time = identifier(table === 'request_rollup' ? 'bucket' : 'ts');
        const cases = bucketCases(time, ranges);
        const where = eventWhere(accountId, { ...filter, from: undefined, to: undefined });
        const counted = table === 'request_rollup' ? sql`requests` : sql`1`;
        const bytes = table === 'request_rollup' ? sql`bytes` : sql`coalesce(bytes, 0)`;
        const [from, to] = [Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))];
        const rows = await read(
          sql`SELECT bucket_index, sum(${counted}) AS requests, sum(CASE WHEN status >= 500 THEN ${counted} ELSE 0 END) AS errors, sum(${bytes}) AS bytes
         FROM (SELECT ${cases} AS bucket_index, * FROM ${identifier(table)} WHERE ${where} AND ${time} >= ${from} AND ${time} < ${to})
         WHERE bucket_index IS NOT NULL GROUP BY bucket_index`,
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
        { table: 'request_rollup', time: 'bucket', counted: sql`requests`, ranges: parts.flatMap((p, i) => (p.core ? [{ ...p.core, i }] : [])) },
        { table: 'request_events', time: 'ts', counted: sql`1`, ranges: parts.flatMap((p, i) => p.edges.map((e) => ({ ...e, i }))) },
      ];
      await Promise.all(
        sources.map(async ({ table, time, counted, ranges }) => {
          if (!ranges.length) return;
          const [from, to] = [Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))];
          const rows = await read(
            sql`SELECT "method", route, status, bucket_index, sum(${counted}) AS requests
           FROM (SELECT ${bucketCases(identifier(time), ranges)} AS bucket_index, * FROM ${identifier(table)}
                 WHERE account_id = ${accountId} AND ${identifier(time)} >= ${from} AND ${identifier(time)} < ${to})
           WHERE bucket_index IS NOT NULL GROUP BY ALL`,
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
      const rows = await read(
        sql`SELECT bucket, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors, quantile_disc(duration_ms, 0.95) AS p95
       FROM (SELECT ${bucketCases(
         sql`ts`,
         periods.map((p, i) => ({ ...p, i })),
       )} AS bucket, status, duration_ms FROM request_events WHERE ${where})
       WHERE bucket IS NOT NULL GROUP BY bucket`,
      );
      for (const r of rows) out[num(r['bucket'])] = { requests: num(r['requests']), errors: num(r['errors']), p95Ms: num(r['p95']) };
      return out;
    },

    async countsByStatus(accountId: string, filter: EventFilter) {
      const where = eventWhere(accountId, filter);
      const rows = await read(sql`SELECT status, count(*) AS requests FROM request_events WHERE ${where} GROUP BY status ORDER BY requests DESC, status`);
      return rows.map((r) => ({ status: num(r['status']), requests: num(r['requests']) }));
    },

    async countsByCustomer(accountId: string, filter: EventFilter) {
      const where = eventWhere(accountId, filter);
      const rows = await read(
        sql`SELECT customer_id, count(*) AS requests, count(*) FILTER (WHERE status >= 500) AS errors
       FROM request_events WHERE ${where} AND customer_id IS NOT NULL GROUP BY customer_id`,
      );
      return rows.map((r) => ({ customerId: text(r['customer_id']), requests: num(r['requests']), errors: num(r['errors']) }));
    },

    async countsByRoute(accountId: string, filter: EventFilter): Promise<RouteCounts[]> {
      const whole = { from: filter.from ?? 0, to: filter.to ?? Number.MAX_SAFE_INTEGER };
      const { core, edges } = rollupCan(filter) ? split(whole) : { core: undefined, edges: [whole] };
      const sources: { table: string; time: string; counted: Sql; range: Period }[] = [
        ...(core ? [{ table: 'request_rollup', time: 'bucket', counted: sql`requests`, range: core }] : []),
        ...edges.map((range) => ({ table: 'request_events', time: 'ts', counted: sql`1`, range })),
      ];
      const byKey = new Map<string, RouteCounts>();
      await Promise.all(
        sources.map(async ({ table, time, counted, range }) => {
          const where = eventWhere(accountId, { ...filter, from: undefined, to: undefined });
          const rows = await read(
            sql`SELECT coalesce(api_version, '') AS api_version, "method", route, sum(${counted}) AS requests, sum(CASE WHEN status >= 500 THEN ${counted} ELSE 0 END) AS errors
           FROM ${identifier(table)} WHERE ${where} AND ${identifier(time)} >= ${range.from} AND ${identifier(time)} < ${range.to} GROUP BY ALL`,
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
        sql`SELECT coalesce(api_version, '') AS api_version, "method", route, count(*) AS requests,
              count(*) FILTER (WHERE status >= 500) AS errors,
              quantile_disc(duration_ms, 0.5) AS p50, quantile_disc(duration_ms, 0.95) AS p95, quantile_disc(duration_ms, 0.99) AS p99, max(ts) AS last_ts
       FROM request_events WHERE ${where} GROUP BY ALL`,
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
      const rows = await read(sql`SELECT * FROM request_events WHERE ${requestWhere(accountId, query)} ORDER BY ts DESC, seq DESC LIMIT ${query.limit}`);
      return rows.map(storedRequestOf);
    },

    async summary(accountId: string, window: Period, week: Period, filter: EventFilter = {}): Promise<SummaryGroup[]> {
      const where = eventWhere(accountId, { ...filter, ...window });
      const rows = await read(
        sql`SELECT "method", route, status, quantile_disc(duration_ms, 0.5) AS median, count(*) FILTER (WHERE ts >= ${week.from} AND ts < ${week.to}) AS this_week
       FROM request_events WHERE ${where} GROUP BY ALL ORDER BY this_week DESC, "method", route, status`,
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
        sql`SELECT count(*) AS total, count(*) FILTER (WHERE delivered) AS delivered, max(ts) AS last_ts
       FROM webhook_deliveries WHERE account_id = ${accountId} AND webhook_id = ${webhookId}`,
      );
      const monthly = periods.map(() => 0);
      if (periods.length) {
        const rows = await read(
          sql`SELECT bucket, count(*) AS n
              FROM (SELECT ${bucketCases(
                sql`ts`,
                periods.map((p, i) => ({ ...p, i })),
              )} AS bucket FROM webhook_deliveries WHERE account_id = ${accountId} AND webhook_id = ${webhookId})
         WHERE bucket IS NOT NULL GROUP BY bucket`,
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
        sql`SELECT webhook_id, count(*) AS total, count(*) FILTER (WHERE delivered) AS delivered, max(ts) AS last_ts
       FROM webhook_deliveries WHERE account_id = ${accountId} GROUP BY webhook_id`,
      );
      return rows.map((r) => ({ webhookId: text(r['webhook_id']), total: num(r['total']), delivered: num(r['delivered']), lastTs: num(r['last_ts']) }));
    },
  };
  return telemetry;
}
