/**
 * The reads of the ClickHouse telemetry store, on one set of tables: the `Distributed` tables of a
 * cluster (every shard), or one server's own `_local` tables (a single server, or the shard that
 * holds an account's rows). Reads asked in the same turn share queries (`batched.ts`).
 */
import { storeClosed } from './unavailable.ts';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Period } from '../calendar.ts';
import { batched } from './batched.ts';
import { bind, contains, nearestRank, type Value } from './clickhouse-sql.ts';
import { DAY, joined, levels as levelsOf, listed, piecewise as cutPieces, span, type Indexed, type Signed } from './period-plan.ts';
import { QUARTER_HOUR, rollupCan } from './quarter-hours.ts';
import { eventWhere } from './sql-filter.ts';
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
/**
 * A duration's latency slot: 32 per doubling (each about 2 % wide), never decreasing as the
 * duration grows, so the slots in order hold the durations in order.
 */
export const SLOT = 'toUInt16(floor(log2(duration_ms + 1) * 32))';
/** The grains of the latency histograms and key sets: table suffix and bucket length. */
export const GRAINS = [
  ['', DAY],
  ['_quarter', QUARTER_HOUR],
] as const;

export function readsOf({ client, database: db, suffix, retainedFrom, isClosed }: ReadsOptions): TelemetryReads {
  const table = (name: string) => `${db}.${name}${suffix}`;
  const EVENTS = table('request_events');
  const ROLLUP = table('request_rollup');
  const DAILY = table('request_rollup_daily');
  const DELIVERIES = table('webhook_deliveries');
  const LATENCY = { day: table('request_latency'), quarter: table('request_latency_quarter') };
  const DURATIONS = table('request_durations');
  const KEYS = { day: table('request_keys'), quarter: table('request_keys_quarter') };
  /** Runs a query; with `params`, after putting them into its `?` (SQL already bound is run as it is). */
  const read = async (sql: string, params?: readonly Value[]): Promise<Row[]> => {
    if (isClosed()) throw storeClosed();
    const result = await client.query({ query: params ? bind(sql, params) : sql, format: 'JSONEachRow' });
    return result.json<Row>();
  };
  /**
   * Several reads of the same shape as one query (UNION ALL), summed by `groupBy`: one round trip
   * instead of one per source. Columns are cast to one type each, as 18.16's UNION ALL wants.
   */
  const readUnion = (parts: readonly string[], outer: string) =>
    // (A function, not a string: `$` in a replacement string is a pattern, and the parts hold literals.)
    parts.length ? read(outer.replace('$parts', () => parts.join(' UNION ALL '))) : Promise.resolve([]);
  const where = (accountId: string, filter: EventFilter = {}) => eventWhere(accountId, filter, contains);
  /** `multiIf` that numbers the period a time falls in (−1 for none). */
  const periodIndex = (time: string, ranges: readonly { from: number; to: number; i: number }[]) =>
    ranges.length ? `multiIf(${ranges.map((r) => `${time} >= ${r.from} AND ${time} < ${r.to}, ${r.i}`).join(', ')}, -1)` : '-1';
  /**
   * The number of the range a rollup's bucket (a multiple of `unit`) falls in. 18.16 takes about
   * 0.1 ms to analyse each branch of a `multiIf`; a `transform` of the buckets themselves costs
   * about as much per thousand, so it is used while they are few enough to list.
   */
  const bucketIndex = (time: string, ranges: readonly Indexed[], unit: number | undefined) => {
    const pairs = unit === undefined ? undefined : listed(ranges, unit, (bucket, r) => [bucket, r.i] as const);
    return pairs?.length
      ? `toInt32(transform(${time}, [${pairs.map(([bucket]) => bucket).join(', ')}], [${pairs.map(([, i]) => i).join(', ')}], -1))`
      : `toInt32(${periodIndex(time, ranges)})`;
  };
  /**
   * A rollup's condition for the ranges: their span when it holds few more buckets (one range
   * reads fastest), else the buckets listed (18.16 analyses a long OR of ranges slowly), else the
   * ranges. Rows outside the ranges that the span lets in are numbered −1 and left out.
   */
  const bucketsWithin = (time: string, ranges: readonly Period[], unit: number) => {
    const buckets = listed(
      joined(ranges).map((r) => ({ ...r, i: 0 })),
      unit,
      (bucket) => bucket,
    );
    if (!buckets) return within(time, ranges);
    const [from, to] = span(ranges);
    if ((to - from) / unit <= 4 * buckets.length + 200) return `(${time} >= ${from} AND ${time} < ${to})`;
    return `${time} IN (${buckets.join(', ')})`;
  };
  /**
   * The `columns` of `rows` (a query with them and `at`, a time) with `i`, the number of the period
   * `at` falls in. The periods of reads batched together may overlap: a row then comes once per
   * period it falls in (an ARRAY JOIN of the periods: 18.16 cannot use a subquery's column in a
   * lambda), else the cheaper `multiIf` names its one period (−1 for none). For what does not add
   * up across pieces of a period (distinct keys); sums use `piecewise`.
   */
  const inPeriods = (rows: string, ranges: readonly Indexed[], columns: string, unit?: number) => {
    const sorted = [...ranges].sort((a, b) => a.from - b.from);
    if (sorted.every((r, k) => k === 0 || sorted[k - 1]!.to <= r.from)) return `SELECT ${bucketIndex('at', ranges, unit)} AS i, ${columns} FROM (${rows})`;
    const list = (pick: (r: Indexed) => number) => `[${ranges.map(pick).join(', ')}]`;
    return `SELECT toInt32(pi) AS i, ${columns} FROM (${rows}) ARRAY JOIN ${list((r) => r.i)} AS pi, ${list((r) => r.from)} AS pf, ${list((r) => r.to)} AS pt
            WHERE at >= pf AND at < pt`;
  };
  /**
   * Sums that add up over periods that may overlap (`piecewise` in period-plan.ts): each row is
   * numbered by its piece (`g`, `bucketIndex`), the query sums per piece. Cheaper than a row per period (`inPeriods`).
   */
  const piecewise = () => {
    const plan = cutPieces();
    return {
      /** The `columns` of `rows` (a query with them and `at`, a time or a rollup's bucket of `unit`), with `g`, their piece of `ranges` (−1 for none). */
      rows: (rows: string, ranges: readonly Signed[], columns: string, unit?: number) =>
        `SELECT ${bucketIndex('at', plan.cut(ranges), unit)} AS g, ${columns} FROM (${rows})`,
      periodsOf: plan.periodsOf,
    };
  };
  /** Where a period's counts come from when the filter allows: its whole days from the daily rollup, whole quarter hours of the rest from the quarter-hour rollup, the rest from the events. */
  const sources = (periods: readonly Period[], filter: EventFilter, { subtract = false } = {}) => {
    const raw = { table: EVENTS, time: 'ts', counted: '1', bytes: 'ifNull(bytes, 0)', unit: undefined };
    if (!periods.length) return [];
    if (!rollupCan(filter)) return [{ ...raw, ranges: periods.map((p, i) => ({ ...p, i })) }];
    const { days, quarters, events } = levels(periods, { subtract });
    return [
      { table: DAILY, time: 'bucket', counted: 'requests', bytes: 'bytes', ranges: days, unit: DAY },
      { table: ROLLUP, time: 'bucket', counted: 'requests', bytes: 'bytes', ranges: quarters, unit: QUARTER_HOUR },
      { ...raw, ranges: events, unit: undefined },
    ].filter((s) => s.ranges.length);
  };
  /** Each period as its whole days, quarter hours and events (`levels` in period-plan.ts), with what retention keeps now. */
  const levels = (periods: readonly Period[], { subtract = false } = {}) => levelsOf(periods, { subtract, retainedFrom: retainedFrom() });

  /** `(time in range) OR …`: ClickHouse reads only the index marks of the ranges. */
  const within = (time: string, ranges: readonly Period[]) =>
    `(${joined(ranges)
      .map((r) => `(${time} >= ${r.from} AND ${time} < ${r.to})`)
      .join(' OR ')})`;
  /** Whether the filter asks for nothing but a period long enough for the daily rollups. */
  const longAndWhole = (filter: EventFilter) =>
    NARROWING.every((key) => filter[key] === undefined) && filter.from !== undefined && filter.to !== undefined && filter.to - filter.from >= LONG_PERIOD;
  /** Requests per latency slot in each period (periods may overlap): the histograms of its whole days and quarter hours, and the events of the rest. */
  const slotCounts = batched(async (accountId: string, _: undefined, periods: Period[]) => {
    const histograms = periods.map(() => new Map<number, number>());
    const { days, quarters, events } = levels(periods, { subtract: true });
    const pieces = piecewise();
    const histogram = (rows: string, ranges: Signed[], unit?: number) =>
      bind(`SELECT g, toUInt16(sl) AS s, toUInt64(sum(n)) AS n FROM (${pieces.rows(rows, ranges, 'sl, n', unit)}) GROUP BY g, s`, [accountId]);
    const latency = (table: string, ranges: Signed[], unit: number) =>
      histogram(`SELECT bucket AS at, slot AS sl, requests AS n FROM ${table} WHERE account_id = ? AND ${bucketsWithin('bucket', ranges, unit)}`, ranges, unit);
    const parts = [
      ...(days.length ? [latency(LATENCY.day, days, DAY)] : []),
      ...(quarters.length ? [latency(LATENCY.quarter, quarters, QUARTER_HOUR)] : []),
      ...(events.length ? [histogram(`SELECT ts AS at, ${SLOT} AS sl, 1 AS n FROM ${EVENTS} WHERE account_id = ? AND ${within('ts', events)}`, events)] : []),
    ];
    for (const r of await readUnion(parts, 'SELECT g, s, sum(n) AS n FROM ($parts) WHERE g >= 0 GROUP BY g, s'))
      for (const { i, sign } of pieces.periodsOf(num(r['g']))) histograms[i]!.set(num(r['s']), (histograms[i]!.get(num(r['s'])) ?? 0) + sign * num(r['n']));
    return histograms;
  });

  /**
   * For each target, the durations of one latency slot within a period: how many there are, and
   * the one at `place` (quantileExact's index ⌊level·n⌋ is place − 1 for a level half a rank past
   * it), all in one pass over the durations ordered by slot.
   */
  const valuesInSlots = batched(async (accountId: string, _: undefined, targets: (Period & { slot: number; place: number; inSlot: number })[]) => {
    const slotOf = targets.map((t) => `(slot = ${t.slot} AND ts >= ${t.from} AND ts < ${t.to})`);
    const [row] = await read(
      `SELECT ${targets
        .map((t, j) => `countIf(${slotOf[j]}) AS n${j}, quantileExactIf(${((t.place - 0.5) / t.inSlot).toFixed(15)})(duration_ms, ${slotOf[j]}) AS v${j}`)
        .join(', ')}
       FROM ${DURATIONS} WHERE account_id = ? AND (${slotOf.join(' OR ')})`,
      [accountId],
    );
    return targets.map((_, j) => ({ count: num(row?.[`n${j}`]), value: num(row?.[`v${j}`]) }));
  });

  /**
   * The nearest-rank p95 of every request in each period, exactly, without reading the periods'
   * rows: the daily histograms (and the ragged ends' events) count the requests per latency slot;
   * the slot where the count reaches the rank holds the value, and the durations ordered by slot
   * give it. A period whose durations were dropped (retention) is read from its events.
   */
  const p95Exact = async (accountId: string, periods: readonly Period[]): Promise<number[]> => {
    // A period reaching into months whose events retention dropped: the p95 of the events that remain.
    const kept = retainedFrom();
    if (periods.some((p) => p.from < kept)) {
      const inside = periods.map((p) => (p.from < kept ? undefined : p));
      const exact = inside.some(Boolean)
        ? await p95Exact(
            accountId,
            inside.filter((p): p is Period => p !== undefined),
          )
        : [];
      let next = 0;
      return Promise.all(inside.map((p, i) => (p ? Promise.resolve(exact[next++]!) : rawP95(accountId, periods[i]!))));
    }
    const histograms = await slotCounts(accountId, undefined, periods);
    // A histogram read as a whole less a rest holds slots of 0; one below 0 (rollups and events
    // that disagree for a moment) is not to be trusted, and its period is read from its events.
    const unsure = new Set(periods.flatMap((_, i) => ([...histograms[i]!.values()].some((n) => n < 0) ? [i] : [])));
    // Where each period's rank falls: the slot, and the place within it.
    const targets = periods.flatMap((period, i) => {
      if (unsure.has(i)) return [];
      const slots = [...histograms[i]!].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
      const total = slots.reduce((sum, [, n]) => sum + n, 0);
      if (!total) return [];
      const rank = Math.ceil((95 * total) / 100);
      let below = 0;
      for (const [slot, n] of slots) {
        if (below + n >= rank) return [{ ...period, i, slot, place: rank - below, inSlot: n }];
        below += n;
      }
      return [];
    });
    const out = periods.map(() => 0);
    await Promise.all(
      [...unsure].map(async (i) => {
        out[i] = await rawP95(accountId, periods[i]!);
      }),
    );
    if (!targets.length) return out;
    const inSlots = await valuesInSlots(accountId, undefined, targets);
    const found = new Set<number>();
    targets.forEach((target, j) => {
      // Fewer durations than counted: retention dropped them, so the events that remain decide.
      if (inSlots[j]!.count !== target.inSlot) return;
      out[target.i] = inSlots[j]!.value;
      found.add(target.i);
    });
    await Promise.all(
      targets
        .filter((t) => !found.has(t.i))
        .map(async (t) => {
          out[t.i] = await rawP95(accountId, t);
        }),
    );
    return out;
  };

  const rawP95 = async (accountId: string, filter: EventFilter) => {
    const w = where(accountId, filter);
    const [row] = await read(`SELECT ${P95} AS p FROM ${EVENTS} WHERE ${w.sql}`, w.params);
    return num(row?.['p']);
  };

  /** Distinct keys in each long period (periods may overlap), exactly: the key sets of its whole days and quarter hours, and the events of the rest. */
  const keysIn = batched(async (accountId: string, _: undefined, periods: Period[]) => {
    const { days, quarters, events } = levels(periods);
    const keySet = (table: string, ranges: Indexed[], unit: number) =>
      inPeriods(`SELECT bucket AS at, key_id AS k FROM ${table} WHERE account_id = ? AND ${bucketsWithin('bucket', ranges, unit)}`, ranges, 'k', unit);
    const parts = [
      ...(days.length ? [keySet(KEYS.day, days, DAY)] : []),
      ...(quarters.length ? [keySet(KEYS.quarter, quarters, QUARTER_HOUR)] : []),
      ...(events.length
        ? [inPeriods(`SELECT ts AS at, ifNull(key_id, '') AS k FROM ${EVENTS} WHERE account_id = ? AND ${within('ts', events)}`, events, 'k')]
        : []),
    ];
    // (An alias is visible in ClickHouse's WHERE too, so the empty key is left out outside.)
    const rows = await read(
      `SELECT i, uniqExact(k) AS n FROM (${parts.join(' UNION ALL ')}) WHERE k != '' AND i >= 0 GROUP BY i`,
      parts.map(() => accountId),
    );
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
      const wanted = `${table} WHERE ${w.sql} AND ${unit ? bucketsWithin(time, ranges, unit) : within(time, ranges)}`;
      // A rollup's rows (a bucket per route and status) are summed per bucket before they are matched with the periods.
      const rows =
        table === EVENTS
          ? `SELECT ts AS at, 1 AS n, if(status >= 500, 1, 0) AS ne, ${bytes} AS nb FROM ${wanted}`
          : `SELECT ${time} AS at, sum(${counted}) AS n, sum(if(status >= 500, ${counted}, 0)) AS ne, sum(${bytes}) AS nb FROM ${wanted} GROUP BY at`;
      return bind(
        `SELECT g, toUInt64(sum(n)) AS r, toUInt64(sum(ne)) AS e, toInt64(sum(nb)) AS b FROM (${pieces.rows(rows, ranges, 'n, ne, nb', unit)}) GROUP BY g`,
        w.params,
      );
    });
    for (const r of await readUnion(parts, 'SELECT g, sum(r) AS r, sum(e) AS e, sum(b) AS b FROM ($parts) WHERE g >= 0 GROUP BY g'))
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
      `SELECT count() AS r, countIf(status >= 500) AS e, ${P95} AS p, uniqExact(key_id) AS k, sum(ifNull(bytes, 0)) AS b FROM ${EVENTS} WHERE ${w.sql}`,
      w.params,
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
      const [row] = await read(`SELECT uniqExact(key_id) AS k FROM ${EVENTS} WHERE ${w.sql}`, w.params);
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
            `SELECT method, route, status, ${periodIndex(time, ranges)} AS i, sum(${counted}) AS r
             FROM ${table} WHERE account_id = ? AND ${within(time, ranges)} GROUP BY method, route, status, i HAVING i >= 0`,
            [accountId],
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
        `SELECT ${periodIndex(
          'ts',
          periods.map((p, i) => ({ ...p, i })),
        )} AS i, count() AS r, countIf(status >= 500) AS e, ${P95} AS p
         FROM ${EVENTS} WHERE ${w.sql} GROUP BY i HAVING i >= 0`,
        w.params,
      );
      for (const r of rows) out[num(r['i'])] = { requests: num(r['r']), errors: num(r['e']), p95Ms: num(r['p']) };
      return out;
    },

    async countsByStatus(accountId, filter) {
      const w = where(accountId, filter);
      const rows = await read(`SELECT status, count() AS r FROM ${EVENTS} WHERE ${w.sql} GROUP BY status ORDER BY r DESC, status`, w.params);
      return rows.map((r) => ({ status: num(r['status']), requests: num(r['r']) }));
    },

    async countsByCustomer(accountId, filter) {
      const w = where(accountId, filter);
      const rows = await read(
        `SELECT customer_id, count() AS r, countIf(status >= 500) AS e FROM ${EVENTS} WHERE ${w.sql} AND customer_id IS NOT NULL GROUP BY customer_id`,
        w.params,
      );
      return rows.map((r) => ({ customerId: text(r['customer_id']), requests: num(r['r']), errors: num(r['e']) }));
    },

    async countsByRoute(accountId, filter) {
      const whole = { from: filter.from ?? 0, to: filter.to ?? Number.MAX_SAFE_INTEGER };
      const w = where(accountId, { ...filter, from: undefined, to: undefined });
      const parts = sources([whole], filter).flatMap(({ table, time, counted, ranges }) =>
        ranges.map((range) =>
          bind(
            `SELECT ifNull(api_version, '') AS version, method, route, toUInt64(sum(${counted})) AS r, toUInt64(sum(if(status >= 500, ${counted}, 0))) AS e
             FROM ${table} WHERE ${w.sql} AND ${time} >= ? AND ${time} < ? GROUP BY version, method, route`,
            [...w.params, range.from, range.to],
          ),
        ),
      );
      const rows = await readUnion(parts, 'SELECT version, method, route, sum(r) AS r, sum(e) AS e FROM ($parts) GROUP BY version, method, route');
      return rows.map(routeCountsOf);
    },

    async byRoute(accountId, filter): Promise<RouteStats[]> {
      const w = where(accountId, filter);
      const rows = await read(
        `SELECT ifNull(api_version, '') AS version, method, route, count() AS r, countIf(status >= 500) AS e,
                ${nearestRank(0.5, 'duration_ms')} AS p50, ${P95} AS p95, ${nearestRank(0.99, 'duration_ms')} AS p99, max(ts) AS last
         FROM ${EVENTS} WHERE ${w.sql} GROUP BY version, method, route`,
        w.params,
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
      const { sql, params } = requestWhere(accountId, query, contains);
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
        rows = await read(`SELECT * FROM ${EVENTS} WHERE ${sql}${bounded === undefined ? '' : ' AND ts >= ?'} ORDER BY ts DESC, seq DESC LIMIT ?`, [
          ...params,
          ...(bounded === undefined ? [] : [bounded]),
          query.limit,
        ]);
        if (rows.length >= query.limit || bounded === undefined) break;
      }
      return rows.map(storedRequestOf);
    },

    async summary(accountId, window, week, filter = {}): Promise<SummaryGroup[]> {
      const w = where(accountId, { ...filter, ...window });
      const rows = await read(
        `SELECT method, route, status, ${nearestRank(0.5, 'duration_ms')} AS median, countIf(ts >= ? AND ts < ?) AS week
         FROM ${EVENTS} WHERE ${w.sql} GROUP BY method, route, status ORDER BY week DESC, method, route, status`,
        [week.from, week.to, ...w.params],
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
      const [totals] = await read(`SELECT count() AS total, sum(delivered) AS ok, max(ts) AS last FROM ${DELIVERIES} WHERE account_id = ? AND webhook_id = ?`, [
        accountId,
        webhookId,
      ]);
      const monthly = periods.map(() => 0);
      if (periods.length) {
        const rows = await read(
          `SELECT ${periodIndex(
            'ts',
            periods.map((p, i) => ({ ...p, i })),
          )} AS i, count() AS n FROM ${DELIVERIES} WHERE account_id = ? AND webhook_id = ? GROUP BY i HAVING i >= 0`,
          [accountId, webhookId],
        );
        for (const r of rows) monthly[num(r['i'])] = num(r['n']);
      }
      const total = num(totals?.['total']);
      return { total, delivered: num(totals?.['ok']), lastTs: total ? num(totals?.['last']) : null, monthly };
    },

    async deliveriesByWebhook(accountId) {
      const rows = await read(
        `SELECT webhook_id, count() AS total, sum(delivered) AS ok, max(ts) AS last FROM ${DELIVERIES} WHERE account_id = ? GROUP BY webhook_id`,
        [accountId],
      );
      return rows.map((r) => ({ webhookId: text(r['webhook_id']), total: num(r['total']), delivered: num(r['ok']), lastTs: num(r['last']) }));
    },
  };
  return reads;
}
