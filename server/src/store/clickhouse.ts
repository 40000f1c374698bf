/**
 * Request telemetry on ClickHouse, for an API that outgrows one DuckDB file: events in a
 * MergeTree partitioned by month and ordered by (account, time), a quarter-hour rollup fed by a
 * materialized view, and one per day (series over months and years read them instead of raw rows),
 * latency histograms and key sets per day and quarter hour, and a copy of the durations ordered by
 * histogram slot (so a year's p95 and active keys stay exact without reading a year of rows), whole months of
 * raw events dropped after the retention, and — with several shards — `Distributed` tables over
 * them, sharded by account. Every console server process may share one ClickHouse; request ids
 * come from `allocate`, which must hand out numbers no other process gets (the records store's
 * sequence). The SQL runs on ClickHouse 18.16 (Debian's) as on current releases.
 */
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Period } from '../calendar.ts';
import { batched } from './batched.ts';
import { bind, contains, nearestRank, type Value } from './clickhouse-sql.ts';
import { QUARTER_HOUR, rollupCan, split } from './quarter-hours.ts';
import { eventWhere } from './sql-filter.ts';
import { num, requestWhere, storedRequestOf, text, type Row } from './sql-rows.ts';
import type {
  DeliveryStats,
  EventFilter,
  RequestEvent,
  RequestQuery,
  RouteStats,
  StoredRequest,
  SummaryGroup,
  TelemetryStore,
  Totals,
  WebhookDelivery,
} from './types.ts';

export interface ClickHouseTelemetryOptions {
  /** `clickhouse://[user[:password]@]host:port[,host:port…]/database[?cluster=name&retention_months=N]` (HTTP ports). */
  url: string;
  /** Reserves `count` fresh request numbers and answers the first (the rest follow it). */
  allocate: (count: number) => Promise<number>;
}

export interface ClickHouseTelemetry extends TelemetryStore {
  /** Drops the whole months of raw events (and deliveries) older than the retention; the rollups stay. */
  applyRetention(now?: number): Promise<string[]>;
  close(): Promise<void>;
}

interface Target {
  hosts: string[];
  database: string;
  username: string;
  password: string;
  cluster: string | undefined;
  retentionMonths: number | undefined;
}

export function parseClickHouseUrl(url: string): Target {
  const match = /^clickhouse:\/\/(?:([^@/]*)@)?([^/?]+)\/(\w+)\/?(?:\?(.*))?$/.exec(url);
  if (!match) throw new Error(`Expected clickhouse://host:port[,host:port…]/database, got "${url}".`);
  const credentials = match[1] ?? '';
  const colon = credentials.indexOf(':');
  const [user, password] = (colon < 0 ? [credentials, ''] : [credentials.slice(0, colon), credentials.slice(colon + 1)]).map(decodeURIComponent);
  const query = new URLSearchParams(match[4] ?? '');
  const cluster = query.get('cluster') ?? undefined;
  if (cluster !== undefined && !/^\w+$/.test(cluster)) throw new Error(`Unusable cluster name "${cluster}".`);
  const retention = query.get('retention_months');
  const retentionMonths = retention === null ? undefined : Number(retention);
  if (retentionMonths !== undefined && !(Number.isInteger(retentionMonths) && retentionMonths >= 1))
    throw new Error('retention_months must be a whole number of months, at least 1.');
  const hosts = match[2]!.split(',');
  if (hosts.length > 1 && !cluster) throw new Error('Several ClickHouse hosts are shards of a cluster: name it with ?cluster=.');
  return { hosts, database: match[3]!, username: user || 'default', password: password ?? '', cluster, retentionMonths };
}

type Indexed = Period & { i: number };
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
const DAY = 86_400_000;
/** The filter fields besides the period. */
const NARROWING = ['method', 'route', 'apiVersion', 'status', 'statusClass', 'pathContains', 'customerId'] as const satisfies readonly (keyof EventFilter)[];
/** Periods at least this long read the daily rollups (their ragged ends the events); shorter ones read the events. */
const LONG_PERIOD = 3 * DAY;
/**
 * A duration's latency slot: 32 per doubling (each about 2 % wide), never decreasing as the
 * duration grows, so the slots in order hold the durations in order.
 */
const SLOT = 'toUInt16(floor(log2(duration_ms + 1) * 32))';
/** The grains of the latency histograms and key sets: table suffix and bucket length. */
const GRAINS = [
  ['', DAY],
  ['_quarter', QUARTER_HOUR],
] as const;
// Months in UTC whatever the server's time zone, as retention counts them.
const monthPartition = (column: string) => `toYYYYMM(toDateTime(intDiv(${column}, 1000), 'UTC'))`;

/** The tables of one shard; with a cluster, `Distributed` tables of the same names without `_local` read and write all shards. */
const schema = (db: string, cluster: string | undefined) => [
  `CREATE DATABASE IF NOT EXISTS ${db}`,
  `CREATE TABLE IF NOT EXISTS ${db}.request_events_local (
     account_id String, seq UInt64, ts Int64, method String, route String, path String, status UInt16, duration_ms Float64,
     api_version Nullable(String), key_id Nullable(String), customer_id Nullable(String),
     actor_id Nullable(String), actor_name Nullable(String), bytes Nullable(Int64), headers Nullable(String)
   ) ENGINE = MergeTree PARTITION BY ${monthPartition('ts')} ORDER BY (account_id, ts, seq)`,
  // Counts per quarter hour and per day: SummingMergeTree adds rows of the same key as parts merge, and reads sum what is not merged yet.
  ...[
    ['request_rollup', QUARTER_HOUR],
    ['request_rollup_daily', DAY],
  ].flatMap(([name, unit]) => [
    `CREATE TABLE IF NOT EXISTS ${db}.${name}_local (
       account_id String, bucket Int64, api_version String, method String, route String, status UInt16, requests UInt64, bytes Int64
     ) ENGINE = SummingMergeTree((requests, bytes)) PARTITION BY ${monthPartition('bucket')} ORDER BY (account_id, bucket, api_version, method, route, status)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${name}_feed TO ${db}.${name}_local AS
     SELECT account_id, ts - ts % ${unit} AS bucket, ifNull(api_version, '') AS api_version, method, route, status,
            count() AS requests, sum(ifNull(bytes, 0)) AS bytes
     FROM ${db}.request_events_local GROUP BY account_id, bucket, api_version, method, route, status`,
  ]),
  // Exact percentiles over long periods: requests per day (and per quarter hour, for the ragged
  // ends) and latency slot say which slot holds the wanted rank; the durations ordered by slot give
  // the value within it. Active keys likewise: the distinct keys of each day and quarter hour
  // ('' stands for requests without a key: key ids are never empty).
  ...GRAINS.flatMap(([suffix, unit]) => [
    `CREATE TABLE IF NOT EXISTS ${db}.request_latency${suffix}_local (account_id String, bucket Int64, slot UInt16, requests UInt64)
     ENGINE = SummingMergeTree((requests)) PARTITION BY ${monthPartition('bucket')} ORDER BY (account_id, bucket, slot)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.request_latency${suffix}_feed TO ${db}.request_latency${suffix}_local AS
     SELECT account_id, ts - ts % ${unit} AS bucket, ${SLOT} AS slot, count() AS requests FROM ${db}.request_events_local GROUP BY account_id, bucket, slot`,
    `CREATE TABLE IF NOT EXISTS ${db}.request_keys${suffix}_local (account_id String, bucket Int64, key_id String)
     ENGINE = ReplacingMergeTree PARTITION BY ${monthPartition('bucket')} ORDER BY (account_id, bucket, key_id)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.request_keys${suffix}_feed TO ${db}.request_keys${suffix}_local AS
     SELECT account_id, ts - ts % ${unit} AS bucket, ifNull(key_id, '') AS key_id FROM ${db}.request_events_local GROUP BY account_id, bucket, key_id`,
  ]),
  `CREATE TABLE IF NOT EXISTS ${db}.request_durations_local (account_id String, slot UInt16, ts Int64, duration_ms Float64)
   ENGINE = MergeTree PARTITION BY ${monthPartition('ts')} ORDER BY (account_id, slot, ts)`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.request_durations_feed TO ${db}.request_durations_local AS
   SELECT account_id, ${SLOT} AS slot, ts, duration_ms FROM ${db}.request_events_local`,
  `CREATE TABLE IF NOT EXISTS ${db}.webhook_deliveries_local (
     account_id String, webhook_id String, ts Int64, delivered UInt8, status Nullable(UInt16)
   ) ENGINE = MergeTree PARTITION BY ${monthPartition('ts')} ORDER BY (account_id, webhook_id, ts)`,
  ...(cluster
    ? [
        'request_events',
        'request_rollup',
        'request_rollup_daily',
        ...GRAINS.flatMap(([suffix]) => [`request_latency${suffix}`, `request_keys${suffix}`]),
        'request_durations',
        'webhook_deliveries',
      ].map(
        (table) =>
          `CREATE TABLE IF NOT EXISTS ${db}.${table} AS ${db}.${table}_local ENGINE = Distributed(${cluster}, ${db}, ${table}_local, sipHash64(account_id))`,
      )
    : []),
];

export async function openClickHouseTelemetry({ url, allocate }: ClickHouseTelemetryOptions): Promise<ClickHouseTelemetry> {
  const target = parseClickHouseUrl(url);
  const clients: ClickHouseClient[] = target.hosts.map((host) =>
    createClient({
      url: `http://${host}`,
      username: target.username,
      password: target.password,
      request_timeout: 30_000,
      // The store reports its failures as answers (503); the client's own logging would repeat them.
      log: { level: ClickHouseLogLevel.OFF },
    }),
  );
  const db = target.database;
  const table = (name: string) => `${db}.${name}${target.cluster ? '' : '_local'}`;
  const EVENTS = table('request_events');
  const ROLLUP = table('request_rollup');
  const DAILY = table('request_rollup_daily');
  const DELIVERIES = table('webhook_deliveries');
  const LATENCY = { day: table('request_latency'), quarter: table('request_latency_quarter') };
  const DURATIONS = table('request_durations');
  const KEYS = { day: table('request_keys'), quarter: table('request_keys_quarter') };
  try {
    for (const client of clients) for (const statement of schema(db, target.cluster)) await client.command({ query: statement });
  } catch (error) {
    await Promise.all(clients.map((c) => c.close()));
    throw error;
  }
  const main = clients[0]!;
  let closed = false;
  /** Runs a query; with `params`, after putting them into its `?` (SQL already bound is run as it is). */
  const read = async (sql: string, params?: readonly Value[]): Promise<Row[]> => {
    if (closed) throw new Error('The store is closed.');
    const result = await main.query({ query: params ? bind(sql, params) : sql, format: 'JSONEachRow' });
    return result.json<Row>();
  };
  /**
   * Several reads of the same shape as one query (UNION ALL), summed by `groupBy`: one round trip
   * instead of one per source. Columns are cast to one type each, as 18.16's UNION ALL wants.
   */
  const readUnion = (parts: readonly string[], outer: string) =>
    // (A function, not a string: `$` in a replacement string is a pattern, and the parts hold literals.)
    parts.length ? read(outer.replace('$parts', () => parts.join(' UNION ALL '))) : Promise.resolve([]);
  // Through a Distributed table, an insert is acknowledged once every shard has its rows, not when they are queued.
  const insertSettings = target.cluster ? { insert_distributed_sync: 1 as const } : {};
  const where = (accountId: string, filter: EventFilter = {}) => eventWhere(accountId, filter, contains);
  /** `multiIf` that numbers the period a time falls in (−1 for none). */
  const periodIndex = (time: string, ranges: readonly { from: number; to: number; i: number }[]) =>
    `multiIf(${ranges.map((r) => `${time} >= ${r.from} AND ${time} < ${r.to}, ${r.i}`).join(', ')}, -1)`;
  /**
   * The `columns` of `rows` (a query with them and `at`, a time) with `i`, the number of the period
   * `at` falls in. The periods of reads batched together may overlap: a row then comes once per
   * period it falls in (an ARRAY JOIN of the periods: 18.16 cannot use a subquery's column in a
   * lambda), else the cheaper `multiIf` names its one period (−1 for none).
   */
  const inPeriods = (rows: string, ranges: readonly Indexed[], columns: string) => {
    const sorted = [...ranges].sort((a, b) => a.from - b.from);
    if (sorted.every((r, k) => k === 0 || sorted[k - 1]!.to <= r.from)) return `SELECT toInt32(${periodIndex('at', ranges)}) AS i, ${columns} FROM (${rows})`;
    const list = (pick: (r: Indexed) => number) => `[${ranges.map(pick).join(', ')}]`;
    return `SELECT toInt32(pi) AS i, ${columns} FROM (${rows}) ARRAY JOIN ${list((r) => r.i)} AS pi, ${list((r) => r.from)} AS pf, ${list((r) => r.to)} AS pt
            WHERE at >= pf AND at < pt`;
  };
  const span = (ranges: readonly Period[]) => [Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))];
  /** Where a period's counts come from when the filter allows: its whole days from the daily rollup, whole quarter hours of the rest from the quarter-hour rollup, the rest from the events. */
  const sources = (periods: readonly Period[], filter: EventFilter) => {
    const raw = { table: EVENTS, time: 'ts', counted: '1', bytes: 'ifNull(bytes, 0)' };
    if (!periods.length) return [];
    if (!rollupCan(filter)) return [{ ...raw, ranges: periods.map((p, i) => ({ ...p, i })) }];
    const { days, quarters, events } = levels(periods);
    return [
      { table: DAILY, time: 'bucket', counted: 'requests', bytes: 'bytes', ranges: days },
      { table: ROLLUP, time: 'bucket', counted: 'requests', bytes: 'bytes', ranges: quarters },
      { ...raw, ranges: events },
    ].filter((s) => s.ranges.length);
  };
  /** Each period as its whole days, the whole quarter hours of the rest, and the rest, each piece numbered by its period. */
  const levels = (periods: readonly Period[]) => {
    const days: Indexed[] = [];
    const quarters: Indexed[] = [];
    const events: Indexed[] = [];
    periods.forEach((period, i) => {
      const byDay = split(period, DAY);
      if (byDay.core) days.push({ ...byDay.core, i });
      for (const edge of byDay.edges) {
        const byQuarter = split(edge);
        if (byQuarter.core) quarters.push({ ...byQuarter.core, i });
        events.push(...byQuarter.edges.map((e) => ({ ...e, i })));
      }
    });
    return { days, quarters, events };
  };

  /** `(time in range) OR …`: ClickHouse reads only the index marks of the ranges. */
  const within = (time: string, ranges: readonly Period[]) =>
    `(${joined(ranges)
      .map((r) => `(${time} >= ${r.from} AND ${time} < ${r.to})`)
      .join(' OR ')})`;
  /** The ranges as few as can cover them: ranges that overlap or touch become one (batched periods often do; every OR costs on each row). */
  const joined = (ranges: readonly Period[]) =>
    [...ranges]
      .sort((a, b) => a.from - b.from)
      .reduce<Period[]>((out, r) => {
        const last = out.at(-1);
        if (last && r.from <= last.to) last.to = Math.max(last.to, r.to);
        else out.push({ from: r.from, to: r.to });
        return out;
      }, []);
  /** Whether the filter asks for nothing but a period long enough for the daily rollups. */
  const longAndWhole = (filter: EventFilter) =>
    NARROWING.every((key) => filter[key] === undefined) && filter.from !== undefined && filter.to !== undefined && filter.to - filter.from >= LONG_PERIOD;
  /** Requests per latency slot in each period (periods may overlap): the histograms of its whole days and quarter hours, and the events of the rest. */
  const slotCounts = batched(async (accountId: string, _: undefined, periods: Period[]) => {
    const histograms = periods.map(() => new Map<number, number>());
    const { days, quarters, events } = levels(periods);
    const histogram = (rows: string, ranges: Indexed[]) =>
      bind(`SELECT i, toUInt16(sl) AS s, toUInt64(sum(n)) AS n FROM (${inPeriods(rows, ranges, 'sl, n')}) GROUP BY i, s`, [accountId]);
    const latency = (table: string, ranges: Indexed[]) =>
      histogram(`SELECT bucket AS at, slot AS sl, requests AS n FROM ${table} WHERE account_id = ? AND ${within('bucket', ranges)}`, ranges);
    const parts = [
      ...(days.length ? [latency(LATENCY.day, days)] : []),
      ...(quarters.length ? [latency(LATENCY.quarter, quarters)] : []),
      ...(events.length ? [histogram(`SELECT ts AS at, ${SLOT} AS sl, 1 AS n FROM ${EVENTS} WHERE account_id = ? AND ${within('ts', events)}`, events)] : []),
    ];
    for (const r of await readUnion(parts, 'SELECT i, s, sum(n) AS n FROM ($parts) WHERE i >= 0 GROUP BY i, s'))
      histograms[num(r['i'])]!.set(num(r['s']), num(r['n']));
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
    // Where each period's rank falls: the slot, and the place within it.
    const targets = periods.flatMap((period, i) => {
      const slots = [...histograms[i]!].sort((a, b) => a[0] - b[0]);
      const total = slots.reduce((sum, [, n]) => sum + n, 0);
      const rank = Math.ceil((95 * total) / 100);
      let below = 0;
      for (const [slot, n] of slots) {
        if (below + n >= rank) return [{ ...period, i, slot, place: rank - below, inSlot: n }];
        below += n;
      }
      return [];
    });
    const out = periods.map(() => 0);
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

  /** The first instant whose events retention keeps: the start of the oldest kept month (UTC); −∞ without retention. */
  const retainedFrom = (now = Date.now()) => {
    if (target.retentionMonths === undefined) return -Infinity;
    const start = new Date(now);
    start.setUTCMonth(start.getUTCMonth() - target.retentionMonths, 1);
    return start.setUTCHours(0, 0, 0, 0);
  };

  const rawP95 = async (accountId: string, filter: EventFilter) => {
    const w = where(accountId, filter);
    const [row] = await read(`SELECT ${P95} AS p FROM ${EVENTS} WHERE ${w.sql}`, w.params);
    return num(row?.['p']);
  };

  /** Distinct keys in each long period (periods may overlap), exactly: the key sets of its whole days and quarter hours, and the events of the rest. */
  const keysIn = batched(async (accountId: string, _: undefined, periods: Period[]) => {
    const { days, quarters, events } = levels(periods);
    const keySet = (table: string, ranges: Indexed[]) =>
      inPeriods(`SELECT bucket AS at, key_id AS k FROM ${table} WHERE account_id = ? AND ${within('bucket', ranges)}`, ranges, 'k');
    const parts = [
      ...(days.length ? [keySet(KEYS.day, days)] : []),
      ...(quarters.length ? [keySet(KEYS.quarter, quarters)] : []),
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
    const parts = sources(periods, filter).map(({ table, time, counted, bytes, ranges }) => {
      const wanted = `${table} WHERE ${w.sql} AND ${within(time, ranges)}`;
      // A rollup's rows (a bucket per route and status) are summed per bucket before they are matched with the periods.
      const rows =
        table === EVENTS
          ? `SELECT ts AS at, 1 AS n, if(status >= 500, 1, 0) AS ne, ${bytes} AS nb FROM ${wanted}`
          : `SELECT ${time} AS at, sum(${counted}) AS n, sum(if(status >= 500, ${counted}, 0)) AS ne, sum(${bytes}) AS nb FROM ${wanted} GROUP BY at`;
      return bind(
        `SELECT i, toUInt64(sum(n)) AS r, toUInt64(sum(ne)) AS e, toInt64(sum(nb)) AS b FROM (${inPeriods(rows, ranges, 'n, ne, nb')}) GROUP BY i`,
        w.params,
      );
    });
    for (const r of await readUnion(parts, 'SELECT i, sum(r) AS r, sum(e) AS e, sum(b) AS b FROM ($parts) WHERE i >= 0 GROUP BY i')) {
      const slot = out[num(r['i'])]!;
      slot.requests += num(r['r']);
      slot.errors += num(r['e']);
      slot.bytes += num(r['b']);
    }
    return out;
  });

  const totals = async (accountId: string, filter: EventFilter): Promise<Totals> => {
    if (longAndWhole(filter)) {
      const period = { from: filter.from!, to: filter.to! };
      const [[counts], [p95Ms], keys] = await Promise.all([
        telemetry.perPeriod(accountId, [period]),
        p95Exact(accountId, [period]),
        keysExact(accountId, period),
      ]);
      return { requests: counts!.requests, errors: counts!.errors, p95Ms: p95Ms!, keys, bytes: counts!.bytes };
    }
    const w = where(accountId, filter);
    const [row] = await read(
      `SELECT count() AS r, countIf(status >= 500) AS e, ${P95} AS p, uniqExact(key_id) AS k, sum(ifNull(bytes, 0)) AS b FROM ${EVENTS} WHERE ${w.sql}`,
      w.params,
    );
    return { requests: num(row?.['r']), errors: num(row?.['e']), p95Ms: num(row?.['p']), keys: num(row?.['k']), bytes: num(row?.['b']) };
  };

  const telemetry: ClickHouseTelemetry = {
    async append(events: readonly RequestEvent[]) {
      if (!events.length) return;
      const first = await allocate(events.length);
      await main.insert({
        table: EVENTS,
        format: 'JSONEachRow',
        clickhouse_settings: insertSettings,
        values: events.map((e, i) => ({
          account_id: e.accountId,
          seq: first + i,
          ts: e.ts,
          method: e.method,
          route: e.route,
          path: e.path,
          status: e.status,
          duration_ms: e.durationMs,
          api_version: e.apiVersion,
          key_id: e.keyId,
          customer_id: e.customerId,
          actor_id: e.actor?.id ?? null,
          actor_name: e.actor?.name ?? null,
          bytes: e.bytes,
          headers: e.headers ? JSON.stringify(e.headers) : null,
        })),
      });
    },

    totals,
    async totalsFor(accountId, periods, filter = {}) {
      const asked = periods.map((p) => ({ ...filter, from: p.from, to: p.to }));
      if (!periods.length || !asked.every(longAndWhole)) return Promise.all(asked.map((f) => totals(accountId, f)));
      // Long whole periods (a window and the one before it): their counts, p95s and keys in one read each.
      const [counts, p95s, keys] = await Promise.all([
        telemetry.perPeriod(accountId, periods),
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
        const [counts, p95s] = await Promise.all([telemetry.perPeriod(accountId, periods), p95Exact(accountId, periods)]);
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

    async appendDeliveries(deliveries: readonly WebhookDelivery[]) {
      if (!deliveries.length) return;
      await main.insert({
        table: DELIVERIES,
        format: 'JSONEachRow',
        clickhouse_settings: insertSettings,
        values: deliveries.map((d) => ({ account_id: d.accountId, webhook_id: d.webhookId, ts: d.ts, delivered: d.delivered ? 1 : 0, status: d.status })),
      });
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

    async applyRetention(now = Date.now()) {
      if (target.retentionMonths === undefined) return [];
      const cutoff = new Date(retainedFrom(now));
      const oldest = cutoff.getUTCFullYear() * 100 + cutoff.getUTCMonth() + 1;
      const dropped: string[] = [];
      for (const client of clients) {
        for (const local of ['request_events_local', 'request_durations_local', 'webhook_deliveries_local']) {
          const result = await client.query({
            query: bind('SELECT DISTINCT partition FROM system.parts WHERE database = ? AND table = ? AND active', [db, local]),
            format: 'JSONEachRow',
          });
          for (const { partition } of await result.json<{ partition: string }>()) {
            if (!/^\d{6}$/.test(partition) || Number(partition) >= oldest) continue;
            await client.command({ query: `ALTER TABLE ${db}.${local} DROP PARTITION ${partition}` });
            dropped.push(`${local} ${partition}`);
          }
        }
      }
      return dropped;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(clients.map((c) => c.close()));
    },
  };
  return telemetry;
}
