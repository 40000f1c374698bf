/**
 * The reads of the ClickHouse telemetry store, on one set of tables: the `Distributed` tables of a
 * cluster (every shard), or one server's own `_local` tables (a single server, or the shard that
 * holds an account's rows). Reads asked in the same turn share queries (`batched.ts`).
 */
import { storeClosed } from '../../unavailable.ts';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Period } from '../../../calendar.ts';
import { batched } from './batched.ts';
import { contains, nearestRank } from './expressions.ts';
import { rowsOf, type Bind } from './bind.ts';
import { identifier, join, sql, type Sql } from '../../sql.ts';
import { DAY, levels as levelsOf, span, type Indexed } from '../../period-plan.ts';
import { QUARTER_HOUR, rollupCan } from '../../quarter-hours.ts';
import { eventWhere } from '../../sql-filter.ts';
import { exactP95 } from './p95.ts';
import { bucketsWithin, inPeriods, periodIndex, piecewise, within } from './periods.ts';
import { num, payloadOfRow, requestWhere, storedRequestOf, text, type Row } from '../../sql-rows.ts';
import { countsFolder, deliveriesFrom, groupColumns, groupCondition, groupNames, latencyFolder, rollupAnswers } from '../../questions.ts';
import type { EventFilter, Grouping, RequestQuery, StoredRequest, TelemetryStore } from '../../types.ts';

/** Everything the telemetry store answers about an account. */
export type TelemetryReads = Omit<TelemetryStore, 'append' | 'appendDeliveries' | 'erasePayloads' | 'expirePayloads'>;

export interface ReadsOptions {
  client: ClickHouseClient;
  /** How values reach the server: query parameters, or literals for 18.16. */
  bind: Bind;
  database: string;
  /** `''` for a cluster's `Distributed` tables, `'_local'` for one server's own. */
  suffix: '' | '_local';
  /** The first instant whose raw events retention keeps (−∞ without retention). */
  retainedFrom: () => number;
  isClosed: () => boolean;
}

/** How far the request log looks back before it reads everything: a minute (a busy API's page), ten, an hour, a day, a week, 31 days. */
const LOOK_BACK = [60_000, 600_000, 3_600_000, 86_400_000, 7 * 86_400_000, 31 * 86_400_000];
/** The filter fields besides the period. */
const NARROWING = [
  'method',
  'route',
  'apiVersion',
  'status',
  'statusClass',
  'pathContains',
  'words',
  'customerId',
  'keyId',
  'slowerThanMs',
] as const satisfies readonly (keyof EventFilter)[];
/** Periods at least this long read the daily rollups (their ragged ends the events); shorter ones read the events. */
const LONG_PERIOD = 3 * DAY;
export { SLOT } from './expressions.ts';
/** The grains of the latency histograms and key sets: table suffix and bucket length. */
export const GRAINS = [
  ['', DAY],
  ['_quarter', QUARTER_HOUR],
] as const;

export function readsOf({ client, bind, database: db, suffix, retainedFrom, isClosed }: ReadsOptions): TelemetryReads {
  const table = (name: string) => identifier(`${db}.${name}${suffix}`);
  const EVENTS = table('request_events');
  const ROLLUP = table('request_rollup');
  const DAILY = table('request_rollup_daily');
  const DELIVERIES = table('webhook_deliveries');
  const PAYLOADS = table('request_payloads');
  // The search's subquery reads each shard's own payloads: an account's events and payloads are on one shard, and
  // a Distributed table inside a query over a Distributed table is refused ("double-distributed IN").
  const PAYLOADS_LOCAL = identifier(`${db}.request_payloads_local`);
  const LATENCY = { day: table('request_latency'), quarter: table('request_latency_quarter') };
  const DURATIONS = table('request_durations');
  const KEYS = { day: table('request_keys'), quarter: table('request_keys_quarter') };
  /** Runs a query, its values bound as the server takes them. */
  const read = async (query: Sql): Promise<Row[]> => {
    if (isClosed()) throw storeClosed();
    return rowsOf(client, query, bind);
  };
  /**
   * Several reads of the same shape as one query (UNION ALL), summed by `groupBy`: one round trip
   * instead of one per source. Columns are cast to one type each, as 18.16's UNION ALL wants.
   */
  const readUnion = (parts: readonly Sql[], outer: (union: Sql) => Sql) => (parts.length ? read(outer(join(parts, ' UNION ALL '))) : Promise.resolve([]));
  const where = (accountId: string, filter: EventFilter = {}) => eventWhere(accountId, filter, contains);
  /** Where a period's counts come from when the filter allows: its whole days from the daily rollup, whole quarter hours of the rest from the quarter-hour rollup, the rest from the events. */
  const sources = (periods: readonly Period[], filter: EventFilter, { subtract = false, raw = !rollupCan(filter) } = {}) => {
    const events = { table: EVENTS, time: sql`ts`, counted: sql`1`, bytes: sql`ifNull(bytes, 0)`, unit: undefined };
    if (!periods.length) return [];
    if (raw) return [{ ...events, ranges: periods.map((p, i) => ({ ...p, i })) }];
    const { days, quarters, events: rawRanges } = levels(periods, { subtract });
    return [
      { table: DAILY, time: sql`bucket`, counted: sql`requests`, bytes: sql`bytes`, ranges: days, unit: DAY },
      { table: ROLLUP, time: sql`bucket`, counted: sql`requests`, bytes: sql`bytes`, ranges: quarters, unit: QUARTER_HOUR },
      { ...events, ranges: rawRanges, unit: undefined },
    ].filter((s) => s.ranges.length);
  };
  /** Each period as its whole days, quarter hours and events (`levels` in period-plan.ts), with what retention keeps now. */
  const levels = (periods: readonly Period[], { subtract = false } = {}) => levelsOf(periods, { subtract, retainedFrom: retainedFrom() });

  /** Whether the filter asks for nothing but a period long enough for the daily rollups. */
  const longAndWhole = (filter: EventFilter) =>
    NARROWING.every((key) => filter[key] === undefined) && filter.from !== undefined && filter.to !== undefined && filter.to - filter.from >= LONG_PERIOD;
  const { p95Exact } = exactP95({ read, readUnion, where, levels, retainedFrom, EVENTS, LATENCY, DURATIONS });

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

  /** Requests, errors and bytes per period and group: each source's rows numbered by period, summed per group. */
  const groupedCounts = async (accountId: string, periods: readonly Period[], filter: EventFilter, by: readonly Grouping[]) => {
    const answers = countsFolder(by, periods.length);
    const w = sql`${where(accountId, { ...filter, from: undefined, to: undefined })}${groupCondition(by)}`;
    await Promise.all(
      sources(periods, filter, { raw: !rollupAnswers(filter, by) }).map(async ({ table, time, counted, bytes, ranges }) => {
        const rows = await read(
          sql`SELECT ${groupColumns(by)}${periodIndex(time, ranges)} AS i, sum(${counted}) AS r, sum(if(status >= 500, ${counted}, 0)) AS e, sum(${bytes}) AS b
           FROM ${table} WHERE ${w} AND ${within(time, ranges)} GROUP BY ${groupNames(by)}i HAVING i >= 0`,
        );
        rows.forEach(answers.add);
      }),
    );
    return answers.answers();
  };

  const reads: TelemetryReads = {
    async counts(accountId, { periods, filter = {}, by = [] }) {
      if (by.length) return groupedCounts(accountId, periods, filter, by);
      // Ungrouped, periods may be batched with other reads' (which may overlap them): `periodCounts`.
      const counts = await periodCounts(accountId, { ...filter, from: undefined, to: undefined }, [...periods]);
      return [{ group: {}, requests: counts.map((c) => c.requests), errors: counts.map((c) => c.errors), bytes: counts.map((c) => c.bytes) }];
    },

    async latency(accountId, { periods, filter = {}, by = [], quantiles, newest }) {
      const answers = latencyFolder(by, periods.length, { quantiles, newest });
      if (!periods.length) return answers.answers();
      const [from, to] = span(periods);
      // The p95 of long periods of everything: exact from the latency histograms, without reading the events.
      if (!by.length && !newest && quantiles.every((q) => q === 0.95) && longAndWhole({ ...filter, from, to })) {
        const [[counts], p95s] = await Promise.all([reads.counts(accountId, { periods, filter }), p95Exact(accountId, periods)]);
        const [entry] = answers.answers();
        periods.forEach((_, i) => {
          entry!.requests[i] = counts!.requests[i]!;
          entry!.errors[i] = counts!.errors[i]!;
          entry!.quantiles[i] = quantiles.map(() => (counts!.requests[i] ? p95s[i]! : 0));
        });
        return [entry!];
      }
      const w = sql`${where(accountId, { ...filter, from, to })}${groupCondition(by)}`;
      const rows = await read(
        sql`SELECT ${groupColumns(by)}${periodIndex(
          sql`ts`,
          periods.map((p, i) => ({ ...p, i })),
        )} AS i, count() AS r, countIf(status >= 500) AS e,
           ${join([...quantiles.map((q, k) => sql`${nearestRank(q, 'duration_ms')} AS ${identifier(`q${k}`)}`), sql`max(ts) AS newest`])}
         FROM ${EVENTS} WHERE ${w} GROUP BY ${groupNames(by)}i HAVING i >= 0`,
      );
      rows.forEach(answers.add);
      return answers.answers();
    },

    async keys(accountId, { periods, filter = {} }) {
      if (!periods.length) return [];
      const [from, to] = span(periods);
      // Long periods of everything: exactly, from the key sets.
      if (longAndWhole({ ...filter, from, to }) && periods.every((p) => longAndWhole({ ...filter, ...p }))) return keysIn(accountId, undefined, [...periods]);
      const rows = await read(
        sql`SELECT ${periodIndex(
          sql`ts`,
          periods.map((p, i) => ({ ...p, i })),
        )} AS i, uniqExact(key_id) AS k FROM ${EVENTS} WHERE ${where(accountId, { ...filter, from, to })} GROUP BY i HAVING i >= 0`,
      );
      const out = periods.map(() => 0);
      for (const r of rows) out[num(r['i'])] = num(r['k']);
      return out;
    },

    async busiestMinute(accountId, filter) {
      const [row] = await read(
        sql`SELECT intDiv(ts, 60000) * 60000 AS m, count() AS n FROM ${EVENTS} WHERE ${where(accountId, filter)} GROUP BY m ORDER BY n DESC, m DESC LIMIT 1`,
      );
      return row ? { at: num(row['m']), requests: num(row['n']) } : null;
    },

    async lastUsed(accountId, { keyId } = {}) {
      // Each key's last day from the daily key sets, then its newest request within that day: a
      // read of those few days' events rather than of every event the account ever sent.
      const days = await read(
        sql`SELECT key_id, max(bucket) AS day FROM ${KEYS.day} WHERE account_id = ${accountId} AND key_id != ''${keyId === undefined ? sql`` : sql` AND key_id = ${keyId}`} GROUP BY key_id`,
      );
      const lastDay = new Map(days.map((r) => [text(r['key_id']), num(r['day'])]));
      if (!lastDay.size) return lastDay;
      const within = join(
        [...new Set(lastDay.values())].map((day) => sql`(ts >= ${day} AND ts < ${day + DAY})`),
        ' OR ',
      );
      const rows = await read(
        sql`SELECT key_id, max(ts) AS newest FROM ${EVENTS} WHERE ${where(accountId, { keyId })} AND key_id IS NOT NULL AND (${within}) GROUP BY key_id`,
      );
      // A day whose events retention dropped keeps its key sets: the day's start is the newest known.
      const newest = new Map(lastDay);
      for (const r of rows) newest.set(text(r['key_id']), num(r['newest']));
      return newest;
    },

    async requests(accountId, query: RequestQuery): Promise<StoredRequest[]> {
      // ClickHouse 18.16 sorts every matching row to find the newest few, so the log looks back
      // a minute first, then further: once a look-back holds `limit` rows, the newest `limit` of
      // all are among them (every row it leaves out is older than each of them). The look-back
      // bounds the search in bodies too, so a rare word reads each body about once, not once a look-back.
      const newest = query.seq === undefined ? (query.before?.ts ?? query.to ?? Date.now()) : undefined;
      const reaches = newest === undefined ? [undefined] : [...LOOK_BACK.map((span) => newest - span), undefined];
      let rows: Row[] = [];
      for (const since of reaches) {
        // A look-back reaching past from (or since) needs no bound of its own: it is the last one.
        const floor = Math.max(query.from ?? -Infinity, query.since ?? -Infinity);
        const bounded = since === undefined || since <= floor ? undefined : since;
        const matching = requestWhere(accountId, bounded === undefined ? query : { ...query, from: bounded }, contains, PAYLOADS_LOCAL, true);
        rows = await read(sql`SELECT * FROM ${EVENTS} WHERE ${matching} ORDER BY ts DESC, seq DESC LIMIT ${query.limit}`);
        if (rows.length >= query.limit || bounded === undefined) break;
      }
      return rows.map(storedRequestOf);
    },

    async payload(accountId, { ts, seq }) {
      const [row] = await read(sql`SELECT * FROM ${PAYLOADS} WHERE account_id = ${accountId} AND ts = ${ts} AND seq = ${seq} LIMIT 1`);
      return row ? payloadOfRow(row) : null;
    },

    async deliveries(accountId, { webhookId, periods }) {
      const w = sql`account_id = ${accountId}${webhookId === undefined ? sql`` : sql` AND webhook_id = ${webhookId}`}`;
      const [totals, perPeriod] = await Promise.all([
        read(
          sql`SELECT webhook_id, count() AS total, sum(delivered) AS ok, max(ts) AS last FROM ${DELIVERIES} WHERE ${w} GROUP BY webhook_id ORDER BY webhook_id`,
        ),
        periods.length
          ? read(
              sql`SELECT webhook_id, ${periodIndex(
                sql`ts`,
                periods.map((p, i) => ({ ...p, i })),
              )} AS i, count() AS n FROM ${DELIVERIES} WHERE ${w} GROUP BY webhook_id, i HAVING i >= 0`,
            )
          : [],
      ]);
      return deliveriesFrom(totals, perPeriod, periods.length);
    },
  };
  return reads;
}
