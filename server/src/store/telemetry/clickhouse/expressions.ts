/** SQL for ClickHouse 18.16 (Debian's) and current releases alike: what its reads share. */
import { raw } from 'sql-template-tag';
import type { Contains } from '../../sql-filter.ts';
import { sql, type Sql } from '../../sql.ts';

/**
 * `quantileExact(level)` answers the value at index ⌊level·n⌋ of the sorted values; the
 * nearest rank the console reports is at ⌈q·n⌉ − 1. Since q·n is a multiple of 1/100 for the
 * levels used, a level a hair below q gives exactly the nearest rank for any n below 10⁹.
 * (The level is the code's own constant, and a parametric function's argument must be text in the
 * query, not a parameter.)
 */
export const nearestRank = (q: 0.5 | 0.95 | 0.99, column: 'duration_ms'): Sql => raw(`quantileExact(${(q - 1e-11).toFixed(12)})(${column})`);

/**
 * A duration's latency slot: 32 per doubling (each about 2 % wide), never decreasing as the
 * duration grows, so the slots in order hold the durations in order. Text for the schema's views;
 * `slotOfDuration` in reads.
 */
export const SLOT = 'toUInt16(floor(log2(duration_ms + 1) * 32))';
export const slotOfDuration: Sql = raw(SLOT);

/** `quantileExactIf(level)(duration_ms, condition)`: the level written as text, as a parametric function's argument must be. */
export function quantileExactIf(level: number, condition: Sql): Sql {
  if (!(level >= 0 && level <= 1)) throw new Error(`Not a quantile level: ${level}`);
  return sql`${raw(`quantileExactIf(${level.toFixed(15)})`)}(duration_ms, ${condition})`;
}

/** `position` takes the needle literally: no LIKE wildcards from the query string; any case without lower-casing every row's text first. */
export const contains: Contains = (column, needle, { anyCase = false } = {}) =>
  anyCase ? sql`positionCaseInsensitiveUTF8(${column}, ${needle}) > 0` : sql`position(${column}, ${needle}) > 0`;
