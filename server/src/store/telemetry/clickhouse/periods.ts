/**
 * The period planner's plans (period-plan.ts) as ClickHouse SQL: which period or piece a row's
 * time falls in, and the conditions that let a read touch only the index marks it needs. Typed
 * SQL: the planner's numbers are values like any other.
 */
import type { Period } from '../../../calendar.ts';
import { joined, listed, piecewise as cutPieces, span, type Indexed, type Signed } from '../../period-plan.ts';
import { identifier, join, sql, type Sql } from '../../sql.ts';

/** The time column of the subqueries the plans number. */
const AT = identifier('at');

/** `multiIf` that numbers the period a time falls in (−1 for none). */
export const periodIndex = (time: Sql, ranges: readonly { from: number; to: number; i: number }[]): Sql =>
  ranges.length ? sql`multiIf(${join(ranges.map((r) => sql`${time} >= ${r.from} AND ${time} < ${r.to}, ${r.i}`))}, -1)` : sql`-1`;
/**
 * The number of the range a rollup's bucket (a multiple of `unit`) falls in. 18.16 takes about
 * 0.1 ms to analyse each branch of a `multiIf`; a `transform` of the buckets themselves costs
 * about as much per thousand, so it is used while they are few enough to list.
 */
export const bucketIndex = (time: Sql, ranges: readonly Indexed[], unit: number | undefined): Sql => {
  const pairs = unit === undefined ? undefined : listed(ranges, unit, (bucket, r) => [bucket, r.i] as const);
  return pairs?.length
    ? sql`toInt32(transform(${time}, [${join(pairs.map(([bucket]) => bucket))}], [${join(pairs.map(([, i]) => i))}], -1))`
    : sql`toInt32(${periodIndex(time, ranges)})`;
};
/**
 * A rollup's condition for the ranges: their span when it holds few more buckets (one range
 * reads fastest), else the buckets listed (18.16 analyses a long OR of ranges slowly), else the
 * ranges. Rows outside the ranges that the span lets in are numbered −1 and left out.
 */
export const bucketsWithin = (time: Sql, ranges: readonly Period[], unit: number): Sql => {
  const buckets = listed(
    joined(ranges).map((r) => ({ ...r, i: 0 })),
    unit,
    (bucket) => bucket,
  );
  if (!buckets) return within(time, ranges);
  const [from, to] = span(ranges);
  if ((to - from) / unit <= 4 * buckets.length + 200) return sql`(${time} >= ${from} AND ${time} < ${to})`;
  return sql`${time} IN (${join(buckets)})`;
};
/**
 * The `columns` of `rows` (a query with them and `at`, a time) with `i`, the number of the period
 * `at` falls in. The periods of reads batched together may overlap: a row then comes once per
 * period it falls in (an ARRAY JOIN of the periods: 18.16 cannot use a subquery's column in a
 * lambda), else the cheaper `multiIf` names its one period (−1 for none). For what does not add
 * up across pieces of a period (distinct keys); sums use `piecewise`.
 */
export const inPeriods = (rows: Sql, ranges: readonly Indexed[], columns: Sql, unit?: number): Sql => {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  if (sorted.every((r, k) => k === 0 || sorted[k - 1]!.to <= r.from)) return sql`SELECT ${bucketIndex(AT, ranges, unit)} AS i, ${columns} FROM (${rows})`;
  const list = (pick: (r: Indexed) => number) => sql`[${join(ranges.map(pick))}]`;
  return sql`SELECT toInt32(pi) AS i, ${columns} FROM (${rows}) ARRAY JOIN ${list((r) => r.i)} AS pi, ${list((r) => r.from)} AS pf, ${list((r) => r.to)} AS pt
          WHERE at >= pf AND at < pt`;
};
/**
 * Sums that add up over periods that may overlap (`piecewise` in period-plan.ts): each row is
 * numbered by its piece (`g`, `bucketIndex`), the query sums per piece. Cheaper than a row per period (`inPeriods`).
 */
export const piecewise = () => {
  const plan = cutPieces();
  return {
    /** The `columns` of `rows` (a query with them and `at`, a time or a rollup's bucket of `unit`), with `g`, their piece of `ranges` (−1 for none). */
    rows: (rows: Sql, ranges: readonly Signed[], columns: Sql, unit?: number): Sql =>
      sql`SELECT ${bucketIndex(AT, plan.cut(ranges), unit)} AS g, ${columns} FROM (${rows})`,
    periodsOf: plan.periodsOf,
  };
};

/** `(time in range) OR …`: ClickHouse reads only the index marks of the ranges. */
export const within = (time: Sql, ranges: readonly Period[]): Sql =>
  sql`(${join(
    joined(ranges).map((r) => sql`(${time} >= ${r.from} AND ${time} < ${r.to})`),
    ' OR ',
  )})`;
