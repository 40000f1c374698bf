import { property } from 'lit/decorators.js';
import type { TimeRangeQuery } from '../api/client.ts';
import { TIME_RANGES, type TimeRange } from '@ops-console/contract/enums';
import type { CountSeries, TimeWindow } from '../api/schemas.ts';
import type { ChartData } from './chart/chart-data.ts';
import { isTimestamp, MAX_WINDOW_DAYS } from '@ops-console/contract/time-window';
import { formatBuckets, formatMonth, type FormatOptions } from '../format/format.ts';
import { msg } from '../localize/localize.ts';
import type { RangeDetail } from './events.ts';
import { OpsElement } from './ops-element.ts';

const isInstant = (text: unknown): text is string => typeof text === 'string' && isTimestamp(text) && !Number.isNaN(Date.parse(text));
/** Up to 40 characters of what was given, for a warning (a property may hold anything). */
const shown = (value: unknown): string => {
  // JSON.stringify(undefined) is undefined, whatever its type says.
  const text = typeof value === 'string' ? value : (JSON.stringify(value) as string | undefined);
  return (text ?? '').slice(0, 40);
};

/**
 * The time range a panel reads, checked: a custom `from`–`to` (both timestamps, in order), else a
 * known named range, else nothing (the panel's default period). What is unusable is dropped with
 * a warning naming `tag`, so one bad attribute never turns into a 400 that Retry cannot fix.
 */
export function checkedRange(asked: RangeDetail | undefined, tag: string, extraRanges: readonly string[] = []): TimeRangeQuery & { range?: string } {
  if (!asked) return {};
  const { range, from, to } = asked;
  if (from || to) {
    const span = isInstant(from) && isInstant(to) ? Date.parse(to) - Date.parse(from) : NaN;
    if (span > 0 && span <= MAX_WINDOW_DAYS * 86_400_000) return { from, to };
    warnOnce(
      `<${tag}> ignored from="${shown(from)}" to="${shown(to)}": give both, as timestamps with their offset (2026-09-14T09:41:00Z), from before to, at most ${MAX_WINDOW_DAYS} days apart.`,
    );
  }
  if (!range) return {};
  if (typeof range === 'string' && ((TIME_RANGES as readonly string[]).includes(range) || extraRanges.includes(range))) return { range: range as TimeRange };
  warnOnce(`<${tag}> ignored range="${shown(range)}": use ${[...extraRanges, ...TIME_RANGES].join(', ')}.`);
  return {};
}

const warned = new Set<string>();
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

/** `Last 24 hours`: how the range control and the figures name a named range. */
export function rangeLabel(range: string | undefined): string {
  switch (range) {
    case '1h':
      return msg('Last hour');
    case '24h':
      return msg('Last 24 hours');
    case '7d':
      return msg('Last 7 days');
    case '30d':
      return msg('Last 30 days');
    case '12m':
      return msg('Last 12 months');
    default:
      return msg('Custom range');
  }
}

/** The x axis of a windowed series: its buckets' labels, and the name its table gives them (`Day`, `Time`, `Month`). */
export function bucketAxis(starts: readonly string[], bucket: string, format: FormatOptions): { categories: string[]; categoryName: string } {
  return {
    categories: formatBuckets(starts, bucket, format),
    categoryName: bucket === 'day' ? msg('Day') : bucket === 'month' ? msg('Month') : msg('Time'),
  };
}

/** A record's counts as a bar chart: over the time range in its buckets when the answer has them, else by month. */
export function countChart(
  months: { months: string[]; values: number[] },
  ranged: { window?: TimeWindow | undefined; countsOverTime?: CountSeries | undefined },
  name: string,
  format: FormatOptions,
): ChartData {
  if (ranged.window && ranged.countsOverTime) {
    return { type: 'bar', ...bucketAxis(ranged.countsOverTime.starts, ranged.window.bucket, format), series: [{ name, values: ranged.countsOverTime.values }] };
  }
  return { type: 'bar', categories: months.months.map((m) => formatMonth(m, format)), series: [{ name, values: months.values }] };
}

/** What a figure's change compares with: `vs previous 24 h` over a range, the contract's `vs last month` without one. */
export function comparisonLabel(window: TimeWindow | undefined): string {
  if (!window) return msg('vs last month');
  switch (window.range) {
    case '1h':
      return msg('vs previous hour');
    case '24h':
      return msg('vs previous 24 h');
    case '7d':
      return msg('vs previous 7 days');
    case '30d':
      return msg('vs previous 30 days');
    case '12m':
      return msg('vs previous 12 months');
    default:
      return msg('vs previous period');
  }
}

/**
 * The base of the panels that follow a time range: `range`, `from` and `to` of their own, else the
 * `<ops-console>` wrapper's, else the panel's default period.
 */
export class RangedElement extends OpsElement {
  /** Named ranges a panel accepts beyond the shared ones (the traffic page's calendar months). */
  protected static extraRanges: readonly string[] = [];

  /**
   * The time range: `1h`, `24h`, `7d`, `30d` or `12m` (the last hour … the last 12 months, to now).
   * Unset, the `<ops-console>` wrapper's applies, else the panel's default period.
   */
  @property({ reflect: true }) range?: string;

  /** Start of a custom time range, an ISO timestamp (with `to`); `from`–`to` wins over `range`. */
  @property() from?: string;

  /** End of a custom time range, exclusive, an ISO timestamp (with `from`). */
  @property() to?: string;

  /**
   * Drill-downs from the buckets of a time chart (`starts`, labelled `labels`) to the request log of
   * each bucket, within `scope` (one customer's, one endpoint's): the table's links and the bars' clicks.
   * The last bucket runs to the window's end.
   */
  protected bucketLinks(
    starts: readonly string[],
    window: TimeWindow,
    labels: readonly string[],
    scope: { customerId?: string; endpointId?: string; keyId?: string; status?: string } = {},
  ) {
    const target = (index: number) =>
      this.listTarget('requests', undefined, 'requests-href', { from: starts[index]!, to: starts[index + 1] ?? window.to, ...scope }, labels[index]);
    return {
      link: (index: number) => this.renderLink(target(index), labels[index]),
      open: (index: number) => this.follow(target(index)),
    };
  }

  /**
   * The time range in force, checked: own `from`–`to`, else own `range`, else the wrapper's; empty for the default period.
   * @internal
   */
  get timeRange(): TimeRangeQuery & { range?: string } {
    const own = this.from || this.to || this.range ? { range: this.range, from: this.from, to: this.to } : this.consoleConfig?.range;
    return checkedRange(own, this.localName, (this.constructor as typeof RangedElement).extraRanges);
  }
}
