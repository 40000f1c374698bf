/**
 * The reads of the ClickHouse telemetry store, on one set of tables: the `Distributed` tables of a
 * cluster (every shard), or one server's own `_local` tables (a single server, or the shard that
 * holds an account's rows). Reads asked in the same turn share queries (`batched.ts`).
 */
import { storeClosed } from './unavailable.ts';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Period } from '../calendar.ts';
import { batched } from './batched.ts';
import { contains, nearestRank } from './clickhouse-sql.ts';
import { inlined } from './clickhouse-literals.ts';
import { identifier, join, sql, type Sql } from './sql.ts';
import { DAY, levels as levelsOf, span, type Indexed } from './period-plan.ts';
import { QUARTER_HOUR, rollupCan } from './quarter-hours.ts';
import { eventWhere } from './sql-filter.ts';
import { exactP95 } from './clickhouse-p95.ts';
import { bucketsWithin, inPeriods, periodIndex, piecewise, within } from './clickhouse-periods.ts';
import { num, requestWhere, storedRequestOf, text, type Row } from './sql-rows.ts';
import type { DeliveryStats, EventFilter, RequestQuery, RouteStats, StoredRequest, SummaryGroup, TelemetryStore, Totals } from './types.ts';

/** Everything the telemetry store answers about an account. */
export type TelemetryReads = Omit<TelemetryStore, 'append' | 'appendDeliveries'>;

export interface ReadsOptions {
  client: ClickHouseClient;
  database: string;
  /** `''` for a cluster's `Distributed` tables, `'_local'` for one server's own. */
  suffix: '' | '_local';
  /** The first instant whose raw events retention keeps (−∞ without retention). */
  retainedFrom: () => number;
  isClosed: () => boolean;
}

/** A row of `version, method, route, r (requests), e (errors)`. */
const routeCountsOf = (r: Row) => ({
  apiVersion: text(r['version']),
  method: text(r['method']),
  route: text(r['route']),
  requests: num(r['r']),
  errors: num(r['e']),
});
const P95 = nearestRank(0.95, 'duration_ms');
/** How far the request log looks back before it reads everything: a minute (a busy API's page), ten, an hour, a day, a week, 31 days. */
const LOOK_BACK = [60_000, 600_000, 3_600_000, 86_400_000, 7 * 86_400_000, 31 * 86_400_000];
/** The filter fields besides the period. */
const NARROWING = ['method', 'route', 'apiVersion', 'status', 'statusClass', 'pathContains', 'customerId'] as const satisfies readonly (keyof EventFilter)[];
/** Periods at least this long read the daily rollups (their ragged ends the events); shorter ones read the events. */
const LONG_PERIOD = 3 * DAY;
export { SLOT } from './clickhouse-sql.ts';
/** The grains of the latency histograms and key sets: table suffix and bucket length. */
export const GRAINS = [
  ['', DAY],
  ['_quarter', QUARTER_HOUR],
] as const;

export function readsOf({ client, database: db, suffix, retainedFrom, isClosed }: ReadsOptions): TelemetryReads {
  const table = (name: string) => identifier(`${db}.${name}${suffix}`);
  const EVENTS = table('request_events');
  const ROLLUP = table('request_rollup');
  const DAILY = table('request_rollup_daily');
  const DELIVERIES = table('webhook_deliveries');
  const LATENCY = { day: table('request_latency'), quarter: table('request_latency_quarter') };
  const DURATIONS = table('request_durations');
  const KEYS = { day: table('request_keys'), quarter: table('request_keys_quarter') };
  /** Runs a query, its values written in as literals (18.16 has no query parameters). */
  const read = async (query: Sql): Promise<Row[]> => {
    if (isClosed()) throw storeClosed();
    const result = await client.query({ query: inlined(query), format: 'JSONEachRow' });
    return result.json<Row>();
  };
  /**
   * Several reads of the same shape as one query (UNION ALL), summed by `groupBy`: one round trip
   * instead of one per source. Columns are cast to one type each, as 18.16's UNION ALL wants.
   */
  const readUnion = (parts: readonly Sql[], outer: (union: Sql) => Sql) => (parts.length ? read(outer(join(parts, ' UNION ALL '))) : Promise.resolve([]));
  const where = (accountId: string, filter: EventFilter = {}) => eventWhere(accountId, filter, contains);
  /** Where a period's counts come from when the filter allows: its whole days from the daily rollup, whole quarter hours of the rest from the quarter-hour rollup, the rest from the events. */
  const sources = (periods: readonly Period[], filter: EventFilter, { subtract = false } = {}) => {
    const raw = { table: EVENTS, time: sql`ts`, counted: sql`1`, bytes: sql`ifNull(bytes, 0)`, unit: undefined };
    if (!periods.length) return [];
    if (!rollupCan(filter)) return [{ ...raw, ranges: periods.map((p, i) => ({ ...p, i })) }];
    const { days, quarters, events } = levels(periods, { subtract });
    return [
      { table: DAILY, time: sql`bucket`, counted: sql`requests`, bytes: sql`bytes`, ranges: days, unit: DAY },
      { table: ROLLUP, time: sql`bucket`, counted: sql`requests`, bytes: sql`bytes`, ranges: quarters, unit: QUARTER_HOUR },
      { ...raw, ranges: events, unit: undefined },
    ].filter((s) => s.ranges.length);
  };
  /** Each period as its whole days, quarter hours and events (`levels` in period-plan.ts), with what retention keeps now. */
  const levels = (periods: readonly Period[], { subtract = false } = {}) => levelsOf(periods, { subtract, retainedFrom: retainedFrom() });

  /** Whether the filter asks for nothing but a period long enough for the daily rollups. */
  const longAndWhole = (filter: EventFilter) =>
    NARROWING.every((key) => filter[key] === undefined) && filter.from !== undefined && filter.to !== undefined && filter.to - filter.from >= LONG_PERIOD;
  const { p95Exact, rawP95 } = exactP95({ read, readUnion, where, levels, retainedFrom, EVENTS, LATENCY, DURATIONS });

  /** Distinct keys in each long period (periods may overlap), exactly: the key sets of its whole days and quarter hours, and the events of the rest. */
  const keysIn = batched(async (accountId: string, _: undefined, periods: Period[]) => {
    const { days, quarters, events } = levels(periods);
    const keySet = (table: Sql, ranges: Indexed[], unit: number) =>
      inPeriods(
        sql`SELECT bucket AS at, key_id AS k FROM ${table} WHERE account_id = ${accountId} AND ${bucketsWithin(sql`bucket`, ranges, unit)}`,
        ranges,
        sql`k`,
        unit,
      );
    const parts = [
      ...(days.length ? [keySet(KEYS.day, days, DAY)] : []),
      ...(quarters.length ? [keySet(KEYS.quarter, quarters, QUARTER_HOUR)] : []),
      ...(events.length
        ? [
            inPeriods(
              sql`SELECT ts AS at, ifNull(key_id, '') AS k FROM ${EVENTS} WHERE account_id = ${accountId} AND ${within(sql`ts`, events)}`,
              events,
              sql`k`,
            ),
          ]
        : []),
    ];
    // (An alias is visible in ClickHouse's WHERE too, so the empty key is left out outside.)
    const rows = await read(sql`SELECT i, uniqExact(k) AS n FROM (${join(parts, ' UNION ALL ')}) WHERE k != '' AND i >= 0 GROUP BY i`);
    const out = periods.map(() => 0);
    for (const r of rows) out[num(r['i'])] = num(r['n']);
    return out;
  });
  const keysExact = async (accountId: string, period: Period) => (await keysIn(accountId, undefined, [period]))[0]!;

  /** Requests, errors and bytes per period (periods may overlap): the rollups' rows summed per bucket first, then per period. */
  const periodCounts = batched(async (accountId: string, filter: EventFilter, periods: Period[]) => {
    const out = periods.map(() => ({ requests: 0, errors: 0, bytes: 0 }));
    const w = where(accountId, filter);
    const pieces = piecewise();
    const parts = sources(periods, filter, { subtract: true }).map(({ table, time, counted, bytes, ranges, unit }) => {
      const wanted = sql`${table} WHERE ${w} AND ${unit ? bucketsWithin(time, ranges, unit) : within(time, ranges)}`;
      // A rollup's rows (a bucket per route and status) are summed per bucket before they are matched with the periods.
      const rows =
        table === EVENTS
          ? sql`SELECT ts AS at, 1 AS n, if(status >= 500, 1, 0) AS ne, ${bytes} AS nb FROM ${wanted}`
          : sql`SELECT ${time} AS at, sum(${counted}) AS n, sum(if(status >= 500, ${counted}, 0)) AS ne, sum(${bytes}) AS nb FROM ${wanted} GROUP BY at`;
      return sql`SELECT g, toUInt64(sum(n)) AS r, toUInt64(sum(ne)) AS e, toInt64(sum(nb)) AS b FROM (${pieces.rows(rows, ranges, sql`n, ne, nb`, unit)}) GROUP BY g`;
    });
    for (const r of await readUnion(parts, (union) => sql`SELECT g, sum(r) AS r, sum(e) AS e, sum(b) AS b FROM (${union}) WHERE g >= 0 GROUP BY g`))
      for (const { i, sign } of pieces.periodsOf(num(r['g']))) {
        out[i]!.requests += sign * num(r['r']);
        out[i]!.errors += sign * num(r['e']);
        out[i]!.bytes += sign * num(r['b']);
      }
    return out;
  });

  const totals = async (accountId: string, filter: EventFilter): Promise<Totals> => {
    if (longAndWhole(filter)) {
      const period = { from: filter.from!, to: filter.to! };
      const [[counts], [p95Ms], keys] = await Promise.all([reads.perPeriod(accountId, [period]), p95Exact(accountId, [period]), keysExact(accountId, period)]);
      return { requests: counts!.requests, errors: counts!.errors, p95Ms: p95Ms!, keys, bytes: counts!.bytes };
    }
    const w = where(accountId, filter);
    const [row] = await read(
      sql`SELECT count() AS r, countIf(status >= 500) AS e, ${P95} AS p, uniqExact(key_id) AS k, sum(ifNull(bytes, 0)) AS b FROM ${EVENTS} WHERE ${w}`,
    );
    return { requests: num(row?.['r']), errors: num(row?.['e']), p95Ms: num(row?.['p']), keys: num(row?.['k']), bytes: num(row?.['b']) };
  };

  const reads: TelemetryReads = {
    totals,
    async totalsFor(accountId, periods, filter = {}) {
      const asked = periods.map((p) => ({ ...filter, from: p.from, to: p.to }));
      if (!periods.length || !asked.every(longAndWhole)) return Promise.all(asked.map((f) => totals(accountId, f)));
      // Long whole periods (a window and the one before it): their counts, p95s and keys in one read each.
      const [counts, p95s, keys] = await Promise.all([
        reads.perPeriod(accountId, periods),
        p95Exact(accountId, periods),
        keysIn(accountId, undefined, periods),
      ]);
      return periods.map((_, i) => ({ requests: counts[i]!.requests, errors: counts[i]!.errors, p95Ms: p95s[i]!, keys: keys[i]!, bytes: counts[i]!.bytes }));
    },

    async p95(accountId, filter) {
      return longAndWhole(filter) ? (await p95Exact(accountId, [{ from: filter.from!, to: filter.to! }]))[0]! : rawP95(accountId, filter);
    },

    async distinctKeys(accountId, filter) {
      if (longAndWhole(filter)) return keysExact(accountId, { from: filter.from!, to: filter.to! });
      const w = where(accountId, filter);
      const [row] = await read(sql`SELECT uniqExact(key_id) AS k FROM ${EVENTS} WHERE ${w}`);
      return num(row?.['k']);
    },

    async perPeriod(accountId, periods, filter = {}) {
      return periodCounts(accountId, { ...filter, from: undefined, to: undefined }, periods);
    },

    async perPeriodByStatus(accountId, periods) {
      const byKey = new Map<string, { method: string; route: string; status: number; requests: number[] }>();
      await Promise.all(
        sources(periods, {}).map(async ({ table, time, counted, ranges }) => {
          const rows = await read(
            sql`SELECT method, route, status, ${periodIndex(time, ranges)} AS i, sum(${counted}) AS r
             FROM ${table} WHERE account_id = ${accountId} AND ${within(time, ranges)} GROUP BY method, route, status, i HAVING i >= 0`,
          );
          for (const r of rows) {
            const key = `${text(r['method'])} ${text(r['route'])} ${num(r['status'])}`;
            const entry = byKey.get(key) ?? { method: text(r['method']), route: text(r['route']), status: num(r['status']), requests: periods.map(() => 0) };
            entry.requests[num(r['i'])]! += num(r['r']);
            byKey.set(key, entry);
          }
        }),
      );
      return [...byKey.values()];
    },

    async latencyPerPeriod(accountId, periods, filter = {}) {
      const out = periods.map(() => ({ requests: 0, errors: 0, p95Ms: 0 }));
      if (!periods.length) return out;
      const [from, to] = span(periods);
      if (longAndWhole({ ...filter, from, to })) {
        const [counts, p95s] = await Promise.all([reads.perPeriod(accountId, periods), p95Exact(accountId, periods)]);
        return counts.map((c, i) => ({ requests: c.requests, errors: c.errors, p95Ms: c.requests ? p95s[i]! : 0 }));
      }
      const w = where(accountId, { ...filter, from, to });
      const rows = await read(
        sql`SELECT ${periodIndex(
          sql`ts`,
          periods.map((p, i) => ({ ...p, i })),
        )} AS i, count() AS r, countIf(status >= 500) AS e, ${P95} AS p
         FROM ${EVENTS} WHERE ${w} GROUP BY i HAVING i >= 0`,
      );
      for (const r of rows) out[num(r['i'])] = { requests: num(r['r']), errors: num(r['e']), p95Ms: num(r['p']) };
      return out;
    },

    async countsByStatus(accountId, filter) {
      const w = where(accountId, filter);
      const rows = await read(sql`SELECT status, count() AS r FROM ${EVENTS} WHERE ${w} GROUP BY status ORDER BY r DESC, status`);
      return rows.map((r) => ({ status: num(r['status']), requests: num(r['r']) }));
    },

    async countsByCustomer(accountId, filter) {
      const w = where(accountId, filter);
      const rows = await read(
        sql`SELECT customer_id, count() AS r, countIf(status >= 500) AS e FROM ${EVENTS} WHERE ${w} AND customer_id IS NOT NULL GROUP BY customer_id`,
      );
      return rows.map((r) => ({ customerId: text(r['customer_id']), requests: num(r['r']), errors: num(r['e']) }));
    },

    async countsByRoute(accountId, filter) {
      const whole = { from: filter.from ?? 0, to: filter.to ?? Number.MAX_SAFE_INTEGER };
      const w = where(accountId, { ...filter, from: undefined, to: undefined });
      const parts = sources([whole], filter).flatMap(({ table, time, counted, ranges }) =>
        ranges.map(
          (range) =>
            sql`SELECT ifNull(api_version, '') AS version, method, route, toUInt64(sum(${counted})) AS r, toUInt64(sum(if(status >= 500, ${counted}, 0))) AS e
             FROM ${table} WHERE ${w} AND ${time} >= ${range.from} AND ${time} < ${range.to} GROUP BY version, method, route`,
        ),
      );
      const rows = await readUnion(
        parts,
        (union) => sql`SELECT version, method, route, sum(r) AS r, sum(e) AS e FROM (${union}) GROUP BY version, method, route`,
      );
      return rows.map(routeCountsOf);
    },

    async byRoute(accountId, filter): Promise<RouteStats[]> {
      const w = where(accountId, filter);
      const rows = await read(
        sql`SELECT ifNull(api_version, '') AS version, method, route, count() AS r, countIf(status >= 500) AS e,
                ${nearestRank(0.5, 'duration_ms')} AS p50, ${P95} AS p95, ${nearestRank(0.99, 'duration_ms')} AS p99, max(ts) AS last
         FROM ${EVENTS} WHERE ${w} GROUP BY version, method, route`,
      );
      return rows.map((r) => ({
        ...routeCountsOf(r),
        p50Ms: num(r['p50']),
        p95Ms: num(r['p95']),
        p99Ms: num(r['p99']),
        lastTs: num(r['last']),
      }));
    },

    async requests(accountId, query: RequestQuery): Promise<StoredRequest[]> {
      const matching = requestWhere(accountId, query, contains);
      // ClickHouse 18.16 sorts every matching row to find the newest few, so the log looks back
      // a minute first, then further: once a look-back holds `limit` rows, the newest `limit` of
      // all are among them (every row it leaves out is older than each of them).
      const newest = query.seq === undefined ? (query.before?.ts ?? query.to ?? Date.now()) : undefined;
      const reaches = newest === undefined ? [undefined] : [...LOOK_BACK.map((span) => newest - span), undefined];
      let rows: Row[] = [];
      for (const since of reaches) {
        // A look-back reaching past from (or since) needs no bound of its own: it is the last one.
        const floor = Math.max(query.from ?? -Infinity, query.since ?? -Infinity);
        const bounded = since === undefined || since <= floor ? undefined : since;
        rows = await read(
          sql`SELECT * FROM ${EVENTS} WHERE ${matching}${bounded === undefined ? sql`` : sql` AND ts >= ${bounded}`} ORDER BY ts DESC, seq DESC LIMIT ${query.limit}`,
        );
        if (rows.length >= query.limit || bounded === undefined) break;
      }
      return rows.map(storedRequestOf);
    },

    async summary(accountId, window, week, filter = {}): Promise<SummaryGroup[]> {
      const w = where(accountId, { ...filter, ...window });
      const rows = await read(
        sql`SELECT method, route, status, ${nearestRank(0.5, 'duration_ms')} AS median, countIf(ts >= ${week.from} AND ts < ${week.to}) AS week
         FROM ${EVENTS} WHERE ${w} GROUP BY method, route, status ORDER BY week DESC, method, route, status`,
      );
      return rows.map((r) => ({
        method: text(r['method']),
        route: text(r['route']),
        status: num(r['status']),
        medianMs: num(r['median']),
        thisWeek: num(r['week']),
      }));
    },

    async deliveries(accountId, webhookId, periods): Promise<DeliveryStats> {
      const [totals] = await read(
        sql`SELECT count() AS total, sum(delivered) AS ok, max(ts) AS last FROM ${DELIVERIES} WHERE account_id = ${accountId} AND webhook_id = ${webhookId}`,
      );
      const monthly = periods.map(() => 0);
      if (periods.length) {
        const rows = await read(
          sql`SELECT ${periodIndex(
            sql`ts`,
            periods.map((p, i) => ({ ...p, i })),
          )} AS i, count() AS n FROM ${DELIVERIES} WHERE account_id = ${accountId} AND webhook_id = ${webhookId} GROUP BY i HAVING i >= 0`,
        );
        for (const r of rows) monthly[num(r['i'])] = num(r['n']);
      }
      const total = num(totals?.['total']);
      return { total, delivered: num(totals?.['ok']), lastTs: total ? num(totals?.['last']) : null, monthly };
    },

    async deliveriesByWebhook(accountId) {
      const rows = await read(
        sql`SELECT webhook_id, count() AS total, sum(delivered) AS ok, max(ts) AS last FROM ${DELIVERIES} WHERE account_id = ${accountId} GROUP BY webhook_id`,
      );
      return rows.map((r) => ({ webhookId: text(r['webhook_id']), total: num(r['total']), delivered: num(r['ok']), lastTs: num(r['last']) }));
    },
  };
  return reads;
}
