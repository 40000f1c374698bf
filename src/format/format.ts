/**
 * Every figure a person reads goes through here: numbers, percents, signed changes, dates,
 * times, ages, unit-aware values and initials. All of it is Intl, honouring `locale` and
 * `timeZone`; the defaults give the seed's formats (`1,284,301`, `+12.5%`, `14 Sep 2026 at 09:41`).
 */

import { msg, renderInLocale, str } from '../localize/localize.ts';

export interface FormatOptions {
  /** BCP 47 locale; defaults to `en-US`. */
  locale?: string | undefined;
  /** IANA time zone for timestamps; defaults to the browser's. */
  timeZone?: string | undefined;
}

export const DEFAULT_LOCALE = 'en-US';
const MISSING = '—';
const MINUS = '\u2212';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(safeLocale(locale), options);
    cache.set(key, format);
  }
  return format;
}

function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(safeLocale(locale), { ...options, timeZone: safeTimeZone(options.timeZone) });
    cache.set(key, format);
  }
  return format;
}

/** A malformed locale or time zone from an attribute falls back instead of throwing a RangeError. */
function safeLocale(locale: string | undefined): string {
  if (!locale) return DEFAULT_LOCALE;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

function safeTimeZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** `1284301` → `1,284,301`. */
export function formatInteger(value: number, { locale }: FormatOptions = {}): string {
  return isNumber(value) ? numberFormat(locale, { maximumFractionDigits: 0 }).format(value) : MISSING;
}

/** A plain number with up to `digits` decimals. */
export function formatNumber(value: number, { locale }: FormatOptions = {}, digits = 1): string {
  return isNumber(value) ? numberFormat(locale, { maximumFractionDigits: digits }).format(value) : MISSING;
}

/** Percent units with one decimal: `2.4` → `2.4%`. */
export function formatPercent(pct: number, { locale }: FormatOptions = {}): string {
  if (!isNumber(pct)) return MISSING;
  return numberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(pct / 100);
}

/** A signed change with one decimal and a true minus sign: `+12.5%`, `−3.1%`, `0.0%`; `—` without one (`null`: nothing to compare). */
export function formatChange(pct: number | null | undefined, { locale }: FormatOptions = {}): string {
  if (!isNumber(pct)) return MISSING;
  const format = numberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  return format.format(pct / 100).replace('-', MINUS);
}

/** Which way a change goes, after the rounding that is shown (so `+0.04` reads as flat); flat without one. */
export function changeDirection(pct: number | null | undefined): 'up' | 'down' | 'flat' {
  if (!isNumber(pct)) return 'flat';
  const shown = Math.round(pct * 10) / 10;
  return shown === 0 ? 'flat' : shown > 0 ? 'up' : 'down';
}

/** Milliseconds: `1240` → `1,240 ms`. */
export function formatMs(ms: number, { locale }: FormatOptions = {}): string {
  if (!isNumber(ms)) return MISSING;
  return numberFormat(locale, { style: 'unit', unit: 'millisecond', unitDisplay: 'short', maximumFractionDigits: 0 }).format(ms);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** Bytes in the largest unit that keeps the number at or above 1: `1536000` → `1.5 MB`. */
export function formatBytes(bytes: number, { locale }: FormatOptions = {}): string {
  if (!isNumber(bytes)) return MISSING;
  let value = Math.abs(bytes);
  let index = 0;
  while (value >= 1000 && index < BYTE_UNITS.length - 1) {
    value /= 1000;
    index++;
  }
  const signed = bytes < 0 ? -value : value;
  // Plain bytes in the narrow form (`512B`, `512 B`): the short one is the English word "byte" in languages such as Japanese.
  return numberFormat(locale, { style: 'unit', unit: BYTE_UNITS[index], unitDisplay: index ? 'short' : 'narrow', maximumFractionDigits: index ? 1 : 0 }).format(
    signed,
  );
}

/** A whole-unit currency amount: `1284301, 'USD'` → `$1,284,301`. */
export function formatCurrency(value: number, currency: string, { locale }: FormatOptions = {}): string {
  if (!isNumber(value)) return MISSING;
  try {
    return numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(value);
  } catch {
    return `${formatInteger(value, { locale })} ${currency}`;
  }
}

/**
 * A value in the unit the API sends: `count`, `ms`, `bytes`, `percent` or an ISO 4217
 * currency code. An unknown unit is shown after the number rather than dropped.
 */
export function formatValue(value: number, unit: string, options: FormatOptions = {}): string {
  switch (unit) {
    case 'count':
      return formatInteger(value, options);
    case 'ms':
      return formatMs(value, options);
    case 'bytes':
      return formatBytes(value, options);
    case 'percent':
      return formatPercent(value, options);
    default:
      if (/^[A-Z]{3}$/.test(unit)) return formatCurrency(value, unit, options);
      return isNumber(value) ? `${formatNumber(value, options, 2)} ${unit}`.trim() : MISSING;
  }
}

function parseDay(ymd: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function parseInstant(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Day, short month and year: in English the seed's `14 Sep 2026` (en-US included, whose own order
 * would be `Sep 14, 2026`); in another language, that language's own way (`14. Sept. 2026`, `2026年9月14日`).
 */
function dayMonthYear(date: Date, locale: string | undefined, timeZone: string | undefined): string {
  if (!safeLocale(locale).toLowerCase().startsWith('en')) return dateFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(date);
  const parts = dateFormat(locale, { day: '2-digit', month: 'short', year: 'numeric', timeZone }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}`;
}

/**
 * A calendar date (`YYYY-MM-DD`) as `14 Sep 2026`. A calendar date names a day, not an
 * instant, so it is never shifted into the configured time zone.
 */
export function formatDate(ymd: string, { locale }: FormatOptions = {}): string {
  const date = parseDay(ymd);
  return date ? dayMonthYear(date, locale, 'UTC') : MISSING;
}

/** The day of a timestamp as `14 Sep 2026`, in the configured time zone (a sunset, a publication). */
export function formatDayOf(iso: string, { locale, timeZone }: FormatOptions = {}): string {
  const date = parseInstant(iso);
  return date ? dayMonthYear(date, locale, timeZone) : MISSING;
}

/** Whole days ahead in words: `in 30 days`, `in 30 Tagen`, `30 日後` (`Intl.RelativeTimeFormat`). */
export function formatDaysAhead(days: number, { locale }: FormatOptions = {}): string {
  return new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'always' }).format(Math.max(0, Math.round(days)), 'day');
}

/** A timestamp as `14 Sep 2026 at 09:41` in the configured time zone (24-hour clock). */
export function formatDateTime(iso: string, { locale, timeZone }: FormatOptions = {}): string {
  const date = parseInstant(iso);
  if (!date) return MISSING;
  const time = dateFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(date);
  const day = dayMonthYear(date, locale, timeZone);
  return renderInLocale(locale, () => msg(str`${day} at ${time}`, { desc: 'A date and a time of day: 14 Sep 2026 at 09:41' }));
}

/** A clock time as `10:41` in the configured time zone (24-hour clock), e.g. "Updated 10:41". */
export function formatTime(date: Date, { locale, timeZone }: FormatOptions = {}): string {
  return dateFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(date);
}

/** A calendar date (`YYYY-MM-DD`) as day and short month, `16 Aug` (`16. Aug.`, `8月16日`); the label of a day series. */
export function formatDay(ymd: string, { locale }: FormatOptions = {}): string {
  const date = parseDay(ymd);
  if (!date) return MISSING;
  if (!safeLocale(locale).toLowerCase().startsWith('en')) return dateFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
  const parts = dateFormat(locale, { day: '2-digit', month: 'short', timeZone: 'UTC' }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')}`;
}

/** A `YYYY-MM` month as its short name, e.g. `2025-10` → `Oct`; the label of a month series. */
export function formatMonth(yearMonth: string, { locale }: FormatOptions = {}): string {
  const date = parseDay(`${yearMonth}-01`);
  return date ? dateFormat(locale, { month: 'short', timeZone: 'UTC' }).format(date) : yearMonth;
}

/**
 * Labels of a windowed series' buckets (`starts`, ISO timestamps) in the configured time zone:
 * `09:41` for minutes and hours (`13 Sep, 10:00` when they span more than a day), `16 Aug` for
 * days, `Oct` for months (`Oct 2025` when they span more than a year).
 */
export function formatBuckets(starts: readonly string[], bucket: string, options: FormatOptions = {}): string[] {
  const { locale, timeZone } = options;
  const dates = starts.map(parseInstant);
  const span = dates.length > 1 && dates[0] && dates.at(-1) ? dates.at(-1)!.getTime() - dates[0].getTime() : 0;
  const format = (date: Date): string => {
    if (bucket === 'minute' || bucket === 'hour') {
      const time = formatTime(date, options);
      return span >= 86_400_000 ? `${dateFormat(locale, { day: 'numeric', month: 'short', timeZone }).format(date)}, ${time}` : time;
    }
    if (bucket === 'day') return formatDay(dateFormat('en-CA', { dateStyle: 'short', timeZone }).format(date), options);
    return dateFormat(locale, span >= 366 * 86_400_000 ? { month: 'short', year: 'numeric', timeZone } : { month: 'short', timeZone }).format(date);
  };
  return dates.map((date) => (date ? format(date) : MISSING));
}

/** How long ago, compact: `3m` under an hour, then `5h`, then `2d` (narrow units of the locale). */
export function formatAge(iso: string, now: Date, { locale }: FormatOptions = {}): string {
  const date = parseInstant(iso);
  if (!date) return MISSING;
  const minutes = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 60_000));
  const [value, unit] = minutes < 60 ? [minutes, 'minute'] : minutes < 24 * 60 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return numberFormat(locale, { style: 'unit', unit, unitDisplay: 'narrow' }).format(value);
}

/**
 * How long ago in words, for screen readers and titles where the compact `3m` is not required:
 * `3 minutes ago`, `vor 3 Minuten`, `3 分前` (`Intl.RelativeTimeFormat`, in the locale's language).
 */
export function formatRelative(iso: string, now: Date, { locale }: FormatOptions = {}): string {
  const date = parseInstant(iso);
  if (!date) return MISSING;
  const minutes = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 60_000));
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    minutes < 60 ? [minutes, 'minute'] : minutes < 24 * 60 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'always' }).format(-value, unit);
}

/** The hour (0–23) of `date` in `timeZone`, for time-of-day greetings. */
export function hourIn(date: Date, { timeZone }: FormatOptions = {}): number {
  const hour = dateFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone })
    .formatToParts(date)
    .find((p) => p.type === 'hour');
  return Number(hour?.value ?? date.getHours()) % 24;
}

/** `Ana Silva` → `AS`; the API's own initials win when it sends them. */
export function initials(person: { name: string; initials?: string | undefined }): string {
  if (person.initials?.trim()) return person.initials.trim().slice(0, 3);
  const words = person.name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const first = Array.from(words[0]!)[0] ?? '';
  const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? '') : '';
  return `${first}${last}`.toLocaleUpperCase();
}

/**
 * Rounds shares to `decimals` so that they add up to exactly `total` (largest-remainder
 * method): `[41.24, 22.33, 15.01, 12.49, 8.93]` → `[41.2, 22.3, 15.0, 12.5, 9.0]`. Shares that
 * do not add up to the total (± rounding) are first scaled to it.
 */
export function roundToTotal(values: readonly number[], total = 100, decimals = 1): number[] {
  const clean = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const sum = clean.reduce((a, b) => a + b, 0);
  if (sum === 0) return clean.map(() => 0);
  const unit = 10 ** decimals;
  const scaled = clean.map((v) => (v / sum) * total * unit);
  const floors = scaled.map(Math.floor);
  let left = Math.round(total * unit) - floors.reduce((a, b) => a + b, 0);
  const byRemainder = scaled.map((v, i) => ({ i, rest: v - floors[i]! })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors.map((v) => v / unit);
}

/** "Good morning" / "Good afternoon" / "Good evening" for the hour in the configured zone, in `locale`'s language. */
export function greetingFor(hour: number, { locale }: FormatOptions = {}): string {
  return renderInLocale(locale, () => {
    if (hour >= 5 && hour < 12) return msg('Good morning');
    if (hour >= 12 && hour < 18) return msg('Good afternoon');
    return msg('Good evening');
  });
}
