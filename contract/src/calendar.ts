/**
 * Calendar periods of the account's time zone, as UTC instants (epoch milliseconds): the
 * stores compare plain instants and never need time-zone support of their own.
 */

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a wall-clock time of `timeZone` starts (the later one when a clock change repeats it). */
export function zonedInstant(year: number, month: number, day: number, timeZone: string, hour = 0, minute = 0): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone); // settles a clock change between the guesses
  // Where midnight repeats, the earlier one; where clocks jump over midnight, the first instant
  // that is on the asked-for day (the other guess falls on the day before).
  const asked = new Date(wall);
  const onDay = [first, second].filter((t) => {
    const d = zonedDate(t, timeZone);
    return d.year === asked.getUTCFullYear() && d.month === asked.getUTCMonth() + 1 && d.day === asked.getUTCDate();
  });
  return onDay.length ? Math.min(...onDay) : Math.max(first, second);
}

/** `YYYY-MM-DDTHH:mm`, the wall-clock time of `instant` in `timeZone` (what a `datetime-local` input shows). */
export function wallClock(instant: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** The instant of a wall-clock `YYYY-MM-DDTHH:mm` in `timeZone`; `undefined` when the text is no such time. */
export function fromWallClock(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  const instant = zonedInstant(year, month, day, timeZone, hour, minute);
  return Number.isNaN(instant) ? undefined : instant;
}

/** Year, month (1–12), day and ISO weekday (1 = Monday) of `instant` in `timeZone`. */
export function zonedDate(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'short' }).formatToParts(
    new Date(instant),
  );
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1;
  return { year: Number(get('year')), month: Number(get('month')), day: Number(get('day')), weekday };
}

/** `YYYY-MM-DD` of `instant` in `timeZone`. */
export function dayLabel(instant: number, timeZone: string): string {
  const { year, month, day } = zonedDate(instant, timeZone);
  return `${year}-${pad(month)}-${pad(day)}`;
}

export interface Period {
  /** Inclusive start, epoch ms. */
  from: number;
  /** Exclusive end, epoch ms. */
  to: number;
}

export interface MonthBucket extends Period {
  /** `YYYY-MM`. */
  month: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The `count` calendar months ending with the one holding `now`, oldest first; the last ends at the month's end. */
export function lastMonths(now: number, timeZone: string, count: number, monthsBack = 0): MonthBucket[] {
  const { year, month } = zonedDate(now, timeZone);
  const buckets: MonthBucket[] = [];
  for (let i = count - 1 + monthsBack; i >= monthsBack; i--) {
    const start = new Date(Date.UTC(year, month - 1 - i, 1));
    const end = new Date(Date.UTC(year, month - i, 1));
    buckets.push({
      month: `${start.getUTCFullYear()}-${pad(start.getUTCMonth() + 1)}`,
      from: zonedInstant(start.getUTCFullYear(), start.getUTCMonth() + 1, 1, timeZone),
      to: zonedInstant(end.getUTCFullYear(), end.getUTCMonth() + 1, 1, timeZone),
    });
  }
  return buckets;
}

export interface DayBucket extends Period {
  /** `YYYY-MM-DD`. */
  day: string;
}

/** The `count` calendar days ending with today (whole, so the last ends at midnight), oldest first. */
export function lastDays(now: number, timeZone: string, count: number): DayBucket[] {
  const { year, month, day } = zonedDate(now, timeZone);
  const buckets: DayBucket[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const start = new Date(Date.UTC(year, month - 1, day - i));
    const end = new Date(Date.UTC(year, month - 1, day - i + 1));
    buckets.push({
      day: start.toISOString().slice(0, 10),
      from: zonedInstant(start.getUTCFullYear(), start.getUTCMonth() + 1, start.getUTCDate(), timeZone),
      to: zonedInstant(end.getUTCFullYear(), end.getUTCMonth() + 1, end.getUTCDate(), timeZone),
    });
  }
  return buckets;
}

/** Today so far, and the day before. */
export function today(now: number, timeZone: string): { today: Period; yesterday: Period } {
  const { year, month, day } = zonedDate(now, timeZone);
  const start = zonedInstant(year, month, day, timeZone);
  const before = new Date(Date.UTC(year, month - 1, day - 1));
  return {
    today: { from: start, to: now + 1 },
    yesterday: { from: zonedInstant(before.getUTCFullYear(), before.getUTCMonth() + 1, before.getUTCDate(), timeZone), to: start },
  };
}

/** Monday 00:00 of the week holding `now`, until now. */
export function thisWeek(now: number, timeZone: string): Period {
  const { year, month, day, weekday } = zonedDate(now, timeZone);
  const monday = new Date(Date.UTC(year, month - 1, day - (weekday - 1)));
  return { from: zonedInstant(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), timeZone), to: now + 1 };
}

/** Whether `timeZone` is one Intl knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
