/**
 * The nearest-rank p95 of every request in a period, exactly, on ClickHouse, without reading the
 * period's rows: the latency histograms count requests per slot, `rankTargets` finds the slot
 * and place of the rank, and the durations ordered by slot give the value there.
 */
import type { Period } from '../../../calendar.ts';
import { batched } from './batched.ts';
import { nearestRank, quantileExactIf, slotOfDuration } from './expressions.ts';
import { identifier, join, sql, type Sql } from '../../sql.ts';
import { bucketsWithin, piecewise, within } from './periods.ts';
import { DAY, type Levels, type Signed } from '../../period-plan.ts';
import { QUARTER_HOUR } from '../../quarter-hours.ts';
import { num, type Row } from '../../sql-rows.ts';
import type { EventFilter } from '../../types.ts';

const P95 = nearestRank(0.95, 'duration_ms');

/** Where a period's 95th-percentile request is: its latency slot, its place among the slot's requests (from 1), and how many the slot holds. */
export type RankTarget = Period & { i: number; slot: number; place: number; inSlot: number };

/**
 * For each period's histogram (requests per slot), where its nearest-rank p95 falls. A histogram
 * read as a whole less a rest holds slots of 0; one with a slot below 0 (rollups and events that
 * disagree for a moment) is not to be trusted: its period is `unsure`, to be read from its events.
 * A period with no requests has no target.
 */
export function rankTargets(periods: readonly Period[], histograms: readonly ReadonlyMap<number, number>[]): { targets: RankTarget[]; unsure: Set<number> } {
  const unsure = new Set(periods.flatMap((_, i) => ([...histograms[i]!.values()].some((n) => n < 0) ? [i] : [])));
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
  return { targets, unsure };
}

export interface ExactP95Options {
  read: (query: Sql) => Promise<Row[]>;
  readUnion: (parts: readonly Sql[], outer: (union: Sql) => Sql) => Promise<Row[]>;
  where: (accountId: string, filter?: EventFilter) => Sql;
  /** Each period as its whole days, quarter hours and events, with what retention keeps now. */
  levels: (periods: readonly Period[], options?: { subtract?: boolean }) => Levels;
  /** The first instant whose raw events retention keeps. */
  retainedFrom: () => number;
  EVENTS: Sql;
  LATENCY: { day: Sql; quarter: Sql };
  DURATIONS: Sql;
}

/** The exact p95 of each period (from the histograms), and of any filter (from its events). */
export function exactP95({ read, readUnion, where, levels, retainedFrom, EVENTS, LATENCY, DURATIONS }: ExactP95Options) {
  /** Requests per latency slot in each period (periods may overlap): the histograms of its whole days and quarter hours, and the events of the rest. */
  const slotCounts = batched(async (accountId: string, _: undefined, periods: Period[]) => {
    const histograms = periods.map(() => new Map<number, number>());
    const { days, quarters, events } = levels(periods, { subtract: true });
    const pieces = piecewise();
    const histogram = (rows: Sql, ranges: Signed[], unit?: number) =>
      sql`SELECT g, toUInt16(sl) AS s, toUInt64(sum(n)) AS n FROM (${pieces.rows(rows, ranges, sql`sl, n`, unit)}) GROUP BY g, s`;
    const latency = (table: Sql, ranges: Signed[], unit: number) =>
      histogram(
        sql`SELECT bucket AS at, slot AS sl, requests AS n FROM ${table} WHERE account_id = ${accountId} AND ${bucketsWithin(sql`bucket`, ranges, unit)}`,
        ranges,
        unit,
      );
    const parts = [
      ...(days.length ? [latency(LATENCY.day, days, DAY)] : []),
      ...(quarters.length ? [latency(LATENCY.quarter, quarters, QUARTER_HOUR)] : []),
      ...(events.length
        ? [
            histogram(
              sql`SELECT ts AS at, ${slotOfDuration} AS sl, 1 AS n FROM ${EVENTS} WHERE account_id = ${accountId} AND ${within(sql`ts`, events)}`,
              events,
            ),
          ]
        : []),
    ];
    for (const r of await readUnion(parts, (union) => sql`SELECT g, s, sum(n) AS n FROM (${union}) WHERE g >= 0 GROUP BY g, s`))
      for (const { i, sign } of pieces.periodsOf(num(r['g']))) histograms[i]!.set(num(r['s']), (histograms[i]!.get(num(r['s'])) ?? 0) + sign * num(r['n']));
    return histograms;
  });

  /**
   * For each target, the durations of one latency slot within a period: how many there are, and
   * the one at `place` (quantileExact's index ⌊level·n⌋ is place − 1 for a level half a rank past
   * it), all in one pass over the durations ordered by slot.
   */
  const valuesInSlots = batched(async (accountId: string, _: undefined, targets: (Period & { slot: number; place: number; inSlot: number })[]) => {
    const slotOf = targets.map((t) => sql`(slot = ${t.slot} AND ts >= ${t.from} AND ts < ${t.to})`);
    const [row] = await read(
      sql`SELECT ${join(
        targets.map(
          (t, j) => sql`countIf(${slotOf[j]!}) AS ${identifier(`n${j}`)}, ${quantileExactIf((t.place - 0.5) / t.inSlot, slotOf[j]!)} AS ${identifier(`v${j}`)}`,
        ),
      )}
     FROM ${DURATIONS} WHERE account_id = ${accountId} AND (${join(slotOf, ' OR ')})`,
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
    const { targets, unsure } = rankTargets(periods, histograms);
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
    const [row] = await read(sql`SELECT ${P95} AS p FROM ${EVENTS} WHERE ${w}`);
    return num(row?.['p']);
  };

  return { p95Exact, rawP95 };
}
