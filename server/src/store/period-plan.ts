/**
 * How the ClickHouse reads cut periods over the rollups: arithmetic on instants, no SQL, so it is
 * tested on its own (period-plan.test.ts). A period is read as its whole UTC days (daily rollups),
 * the whole quarter hours of the rest (quarter-hour rollups) and the ragged rest (the events);
 * periods read together are cut at each other's edges into pieces that sum without counting twice.
 */
import type { Period } from '../calendar.ts';
import { QUARTER_HOUR, split } from './quarter-hours.ts';

export const DAY = 86_400_000;
/** The most rollup buckets a query lists by value (past it, ranges). */
export const MAX_LISTED = 2_000;

/** A period numbered by its place in what was asked. */
export type Indexed = Period & { i: number };
/** A piece of period `i` to add (sign 1, the default) or to take away (−1). */
export type Signed = Indexed & { sign?: 1 | -1 };

/** Each period's pieces by where they are read from. */
export interface Levels {
  days: Signed[];
  quarters: Signed[];
  events: Signed[];
}

export interface LevelOptions {
  /**
   * For sums: a ragged end that is most of one day is read as that whole day less the rest of it
   * (the day so far against the same part of past days, late in the day, reads a few quarter
   * hours per day instead of nearly a hundred); the same for most of a quarter hour.
   */
  subtract?: boolean;
  /** The first instant whose raw events retention keeps: before it nothing is taken away. */
  retainedFrom?: number;
}

/** Each period as its whole days, the whole quarter hours of the rest, and the rest, each piece numbered by its period. */
export function levels(periods: readonly Period[], { subtract = false, retainedFrom = -Infinity }: LevelOptions = {}): Levels {
  const days: Signed[] = [];
  const quarters: Signed[] = [];
  const events: Signed[] = [];
  const byQuarter = (part: Period, i: number, sign: 1 | -1) => {
    const cut = split(part);
    if (cut.core) quarters.push({ ...cut.core, i, sign });
    for (const edge of cut.edges) {
      const quarter = Math.floor(edge.from / QUARTER_HOUR) * QUARTER_HOUR;
      // Most of one quarter hour (up to now, in the quarter hour now is in): the quarter hour less
      // the events of the rest of it, which are few (none yet, when that rest is to come).
      if (subtract && quarter >= retainedFrom && edge.to <= quarter + QUARTER_HOUR && edge.to - edge.from > QUARTER_HOUR / 2) {
        quarters.push({ from: quarter, to: quarter + QUARTER_HOUR, i, sign });
        for (const rest of [
          { from: quarter, to: edge.from },
          { from: edge.to, to: quarter + QUARTER_HOUR },
        ])
          if (rest.from < rest.to) events.push({ ...rest, i, sign: sign === 1 ? -1 : 1 });
      } else events.push({ ...edge, i, sign });
    }
  };
  periods.forEach((period, i) => {
    // A period of no length (the day so far, in its first quarter hour) reads nothing.
    if (period.to <= period.from) return;
    const byDay = split(period, DAY);
    if (byDay.core) days.push({ ...byDay.core, i });
    // A ragged end across a UTC midnight (a local day of a zone off UTC) is cut there, so each
    // part can be read as most of its UTC day.
    const parts = byDay.edges.flatMap((edge) => {
      const midnight = Math.floor(edge.from / DAY) * DAY + DAY;
      return edge.to > midnight
        ? [
            { from: edge.from, to: midnight },
            { from: midnight, to: edge.to },
          ]
        : [edge];
    });
    for (const edge of parts) {
      const day = Math.floor(edge.from / DAY) * DAY;
      // Raw events retention dropped cannot be taken away: there the parts are read as they are.
      if (subtract && day >= retainedFrom && edge.to - edge.from > DAY / 2) {
        days.push({ from: day, to: day + DAY, i });
        for (const rest of [
          { from: day, to: edge.from },
          { from: edge.to, to: day + DAY },
        ])
          if (rest.from < rest.to) byQuarter(rest, i, -1);
      } else byQuarter(edge, i, 1);
    }
  });
  return { days, quarters, events };
}

/** The ranges as few as can cover them: ranges that overlap or touch become one (batched periods often do; every OR costs on each row). */
export function joined(ranges: readonly Period[]): Period[] {
  return [...ranges]
    .sort((a, b) => a.from - b.from)
    .reduce<Period[]>((out, r) => {
      const last = out.at(-1);
      if (last && r.from <= last.to) last.to = Math.max(last.to, r.to);
      else out.push({ from: r.from, to: r.to });
      return out;
    }, []);
}

/** From the earliest start to the latest end. */
export const span = (ranges: readonly Period[]): [from: number, to: number] => [Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))];

/** `each` of every bucket (a multiple of `unit`) that starts in one of the ranges, while they are at most `max`. */
export function listed<T>(ranges: readonly Indexed[], unit: number, each: (bucket: number, range: Indexed) => T, max = MAX_LISTED): T[] | undefined {
  const out: T[] = [];
  for (const r of ranges)
    for (let bucket = Math.ceil(r.from / unit) * unit; bucket < r.to; bucket += unit) {
      if (out.length === max) return undefined;
      out.push(each(bucket, r));
    }
  return out;
}

/**
 * Sums that add up (counts, histograms) over periods that may overlap: `cut` cuts the periods at
 * each other's edges into pieces that each lie wholly inside every period covering them, numbered
 * across every `cut` of one read; `periodsOf(g)` says which periods piece `g`'s sums go to, and
 * with which sign.
 */
export function piecewise() {
  const all: { i: number; sign: 1 | -1 }[][] = [];
  return {
    cut(ranges: readonly Signed[]): Indexed[] {
      const edges = [...new Set(ranges.flatMap((r) => [r.from, r.to]))].sort((a, b) => a - b);
      const pieces: Indexed[] = [];
      for (let k = 0; k + 1 < edges.length; k++) {
        const piece = { from: edges[k]!, to: edges[k + 1]! };
        const periods = ranges.filter((r) => r.from <= piece.from && piece.to <= r.to).map((r) => ({ i: r.i, sign: r.sign ?? 1 }));
        if (!periods.length) continue;
        pieces.push({ ...piece, i: all.length });
        all.push(periods);
      }
      return pieces;
    },
    periodsOf: (g: number): readonly { i: number; sign: 1 | -1 }[] => all[g] ?? [],
  };
}
