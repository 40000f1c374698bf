/**
 * The shared time range of the contract: a named range (`24h`) or a custom `from`–`to`, turned
 * into the window a route reads, the buckets its series is cut into, and the window before it
 * that its changes compare with. The server and the mocks both resolve windows here, in the
 * account's time zone, so their buckets cannot drift apart.
 */
import { zonedDate, zonedInstant, type Period } from './calendar.ts';
import { TIME_BUCKETS, TIME_RANGES, type TimeRange } from './enums.ts';

/** What a route is asked for: `range`, or `from` and `to` (ISO timestamps), or nothing (the route's default). */
export interface WindowQuery {
  range?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
}

export type Bucket = (typeof TIME_BUCKETS)[number];

export interface ResolvedWindow extends Period {
  /** The named range, when one was asked for. */
  range?: TimeRange;
  bucket: Bucket;
  /** The buckets, oldest first; the first starts at `from`, the last ends at `to` (so it may be partial). */
  buckets: Period[];
  /** The window of the same length just before this one, which changes compare with. */
  previous: Period;
  /** The buckets one window earlier, bucket for bucket (for a "previous period" line). */
  previousBuckets: Period[];
}

/** How many units of which bucket each named range spans, ending with the unit now is in. */
const NAMED: Record<TimeRange, { bucket: Bucket; count: number }> = {
  '1h': { bucket: 'minute', count: 60 },
  '24h': { bucket: 'hour', count: 24 },
  '7d': { bucket: 'day', count: 7 },
  '30d': { bucket: 'day', count: 30 },
  '12m': { bucket: 'month', count: 12 },
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The longest custom window: ten years of months. */
export const MAX_WINDOW_DAYS = 3660;

export const isTimeRange = (value: unknown): value is TimeRange => typeof value === 'string' && (TIME_RANGES as readonly string[]).includes(value);

/**
 * The window asked for, checked: `undefined` when nothing was asked (the route keeps its
 * default), else the window, else a sentence saying what is wrong with the query.
 */
export function parseWindow(query: WindowQuery): { range: TimeRange } | { from: number; to: number } | string | undefined {
  const { range, from, to } = query;
  if (from || to) {
    if (!from || !to) return 'from and to go together: give both, as timestamps such as 2026-09-14T09:41:00Z.';
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (!isTimestamp(from) || !isTimestamp(to) || Number.isNaN(start) || Number.isNaN(end))
      return 'from and to must be timestamps such as 2026-09-14T09:41:00Z.';
    if (start < 0 || end < 0) return `from and to must be ${EPOCH_DAY} or later: no request is older.`;
    if (start >= end) return 'from must be before to.';
    if (end - start > MAX_WINDOW_DAYS * DAY) return `from and to may span at most ${MAX_WINDOW_DAYS} days.`;
    return { from: start, to: end };
  }
  if (!range) return undefined;
  return isTimeRange(range) ? { range } : `range must be one of ${TIME_RANGES.join(', ')}.`;
}

/** The first day a window may start on: every stored time is at or after it. */
export const EPOCH_DAY = '1970-01-01';

/** An ISO 8601 timestamp with its offset (`2026-09-14T09:41:00Z`), as the contract's `from` and `to` must be. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
export const isTimestamp = (text: string) => TIMESTAMP.test(text);

/** The bucket of a custom window: about 12 to 200 of them, whatever its length. */
function bucketFor(span: number): Bucket {
  if (span <= 3 * HOUR) return 'minute';
  if (span <= 3 * DAY) return 'hour';
  if (span <= 190 * DAY) return 'day';
  return 'month';
}

/** The start of the bucket holding `instant`, `offset` buckets later (negative: earlier), in `timeZone`. */
export function bucketStart(instant: number, bucket: Bucket, timeZone: string, offset = 0): number {
  if (bucket === 'minute') return Math.floor(instant / MINUTE) * MINUTE + offset * MINUTE;
  if (bucket === 'hour') {
    // Whole hours of the zone: an hour starts where the zone's minutes are 0 (a 30-minute zone too).
    const { year, month, day } = zonedDate(instant, timeZone);
    const midnight = zonedInstant(year, month, day, timeZone);
    return midnight + Math.floor((instant - midnight) / HOUR) * HOUR + offset * HOUR;
  }
  const { year, month, day } = zonedDate(instant, timeZone);
  if (bucket === 'day') {
    const shifted = new Date(Date.UTC(year, month - 1, day + offset));
    return zonedInstant(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate(), timeZone);
  }
  const shifted = new Date(Date.UTC(year, month - 1 + offset, 1));
  return zonedInstant(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, 1, timeZone);
}

/** The buckets covering [from, to), cut at both ends. */
function cut(from: number, to: number, bucket: Bucket, timeZone: string): Period[] {
  const buckets: Period[] = [];
  for (let start = from; start < to;) {
    const next = Math.min(to, bucketStart(start, bucket, timeZone, 1));
    buckets.push({ from: start, to: next });
    start = next;
  }
  return buckets;
}

/**
 * The window of a checked query at `now`. A named range is whole buckets ending with the one
 * now is in (so "24h" is the 24 clock hours up to now, the last one so far); a custom window is
 * exactly `from`–`to`, in buckets that fit its length.
 */
export function resolveWindow(asked: { range: TimeRange } | { from: number; to: number }, now: number, timeZone: string): ResolvedWindow {
  if ('range' in asked) {
    const { bucket, count } = NAMED[asked.range];
    const from = bucketStart(now, bucket, timeZone, -(count - 1));
    const to = now + 1;
    const previousFrom = bucketStart(now, bucket, timeZone, -(2 * count - 1));
    const previousBuckets = cut(previousFrom, from, bucket, timeZone);
    // The previous window is as long as this one so far: the same part of its last bucket.
    return {
      range: asked.range,
      from,
      to,
      bucket,
      buckets: cut(from, to, bucket, timeZone),
      previous: { from: previousFrom, to: Math.min(from, previousFrom + (to - from)) },
      previousBuckets,
    };
  }
  const { from, to } = asked;
  const bucket = bucketFor(to - from);
  const length = to - from;
  const buckets = cut(from, to, bucket, timeZone);
  return {
    from,
    to,
    bucket,
    buckets,
    previous: { from: from - length, to: from },
    previousBuckets: buckets.map((b) => ({ from: b.from - length, to: b.to - length })),
  };
}

/** An instant as the contract writes it: ISO 8601 in UTC, to the second. */
export const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The window as the contract writes it (`window` of a ranged response). */
export function windowOf(window: ResolvedWindow) {
  return {
    ...(window.range ? { range: window.range } : {}),
    from: isoSeconds(window.from),
    to: isoSeconds(window.to),
    bucket: window.bucket,
    previousFrom: isoSeconds(window.previous.from),
    previousTo: isoSeconds(window.previous.to),
  };
}
