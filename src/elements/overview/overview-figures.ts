import { html, nothing } from 'lit';
import type { Overview, TimeWindow, WindowSeries } from '../../api/schemas.ts';
import { formatInteger, formatMonth, formatMs, formatPercent, type FormatOptions } from '../../format/format.ts';
import { bucketAxis, comparisonLabel } from '../../shared/time-range.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { renderChange } from '../../shared/change.ts';
import { msg } from '../../localize/localize.ts';
import { ifDefined } from 'lit/directives/if-defined.js';

type Figures = Overview['figures'];

interface ChangeFigure {
  label: () => string;
  /** The figure's number, and how it is written. */
  raw: (f: Figures) => number;
  format: (value: number, o: FormatOptions) => string;
  change: (f: Figures) => number | null;
  /** A count (0 is a figure), or a rate or percentile of this month's requests (none: no figure). */
  kind: 'count' | 'of-requests';
  /** Whether a rise is good news (more requests) or bad (more errors, slower). */
  riseIsGood: boolean;
  /** A figure of the calendar (today), not shown over a time range. */
  calendarOnly?: boolean;
  /** The list the figure leads to, where the host has one. */
  leadsTo?: 'active-keys';
  /** Its label addressed to a customer looking at their own usage. */
  customerLabel: () => string;
}

/** The four figures compared with last month, labelled exactly as the seed. */
const CHANGE_FIGURES: ChangeFigure[] = [
  {
    label: () => msg('Requests today'),
    customerLabel: () => msg('Your requests today'),
    kind: 'count',
    raw: (f) => f.requestsToday.value,
    format: formatInteger,
    change: (f) => f.requestsToday.changePct,
    riseIsGood: true,
    calendarOnly: true,
  },
  {
    label: () => msg('Error rate'),
    customerLabel: () => msg('Your error rate'),
    kind: 'of-requests',
    raw: (f) => f.errorRate.valuePct,
    format: formatPercent,
    change: (f) => f.errorRate.changePct,
    riseIsGood: false,
  },
  {
    label: () => msg('P95 latency'),
    customerLabel: () => msg('Your P95 latency'),
    kind: 'of-requests',
    raw: (f) => f.p95Latency.valueMs,
    format: formatMs,
    change: (f) => f.p95Latency.changePct,
    riseIsGood: false,
  },
  {
    label: () => msg('Active keys'),
    customerLabel: () => msg('Your active keys'),
    kind: 'count',
    raw: (f) => f.activeKeys.value,
    format: formatInteger,
    change: (f) => f.activeKeys.changePct,
    riseIsGood: true,
    leadsTo: 'active-keys',
  },
];

function monthlyChart(series: { months: string[]; values: number[] }, name: string, format: FormatOptions): ChartData {
  return { type: 'sparkline', categories: series.months.map((m) => formatMonth(m, format)), series: [{ name, values: series.values }] };
}

function windowChart(series: WindowSeries, bucket: string, name: string, format: FormatOptions): ChartData {
  return { type: 'sparkline', ...bucketAxis(series.starts, bucket, format), series: [{ name, values: series.requests }] };
}

/** Drill-downs from the buckets of the range's sparkline to the request log of each (see `RangedElement.bucketLinks`). */
export type BucketLinks = (
  starts: readonly string[],
  window: TimeWindow,
  labels: readonly string[],
) => { link: (index: number) => unknown; open: (index: number) => void };

/**
 * The figure cards: this month's requests and the four figures against last month, as the seed
 * shows them; over a time range, the range's requests and the three figures against the window
 * before it (today's requests belong to the calendar view, so they are left out).
 */
export function renderFigures(
  overview: Overview,
  format: FormatOptions,
  bucketLinks: BucketLinks,
  /** The figure's label as a link to its list, or `undefined` where the host has no such list. */
  listLink: (list: 'active-keys', label: string) => unknown = () => undefined,
  /** Worded for a customer looking at their own usage ("Your requests this month"). */
  forCustomer = false,
) {
  const { figures, window, overTime } = overview;
  const ranged = window && overTime && figures.requests ? { window, overTime, requests: figures.requests } : undefined;
  const versus = comparisonLabel(ranged?.window);
  const requests = ranged ? ranged.requests.value : figures.requestsThisMonth.value;
  const chart = ranged
    ? windowChart(ranged.overTime, ranged.window.bucket, msg('Requests'), format)
    : monthlyChart(figures.requestsThisMonth.series, msg('Requests'), format);
  // Over a range, a bucket leads to its requests; the months of the calendar view carry no instants.
  const links = ranged && bucketLinks(ranged.overTime.starts, ranged.window, chart.categories);
  return html`<ul part="figures" class="figures" aria-label=${msg('Summary figures')}>
    <li part="figure" class="figure figure-wide">
      <p class="figure-label">
        ${forCustomer ? (ranged ? msg('Your requests') : msg('Your requests this month')) : ranged ? msg('Requests') : msg('Requests this month')}
      </p>
      <p class="figure-value">${formatInteger(requests, format)}</p>
      ${ranged ? renderChange(compared('count', requests, ranged.requests.changePct, requests) ? ranged.requests.changePct : undefined, true, format, versus) : nothing}
      <ops-chart
        locale=${ifDefined(format.locale)}
        class="sparkline"
        label=${ranged ? msg('Requests over time') : msg('Requests per month')}
        empty-message=${ranged ? msg('No requests in this range.') : msg('No monthly data yet.')}
        .data=${chart}
        .categoryLink=${links ? links.link : undefined}
        @ops-chart-select=${(event: CustomEvent<{ index: number }>) => links && links.open(event.detail.index)}
        .formatValue=${(v: number) => formatInteger(v, format)}
      ></ops-chart>
    </li>
    ${CHANGE_FIGURES.filter((figure) => !ranged || figure.calendarOnly !== true).map((figure) => {
      // No requests: an error rate or a P95 of nothing has no value.
      const unmeasured = figure.kind === 'of-requests' && requests === 0;
      const change = figure.change(figures);
      const value = figure.raw(figures);
      const label = forCustomer ? figure.customerLabel() : figure.label();
      return html`<li part="figure" class="figure">
        <p class="figure-label">${(figure.leadsTo && listLink(figure.leadsTo, label)) ?? label}</p>
        <p class="figure-value">${unmeasured ? '—' : figure.format(value, format)}</p>
        ${renderChange(compared(figure.kind, value, change, requests) ? change : undefined, figure.riseIsGood, format, versus)}
      </li>`;
    })}
  </ul>`;
}

/**
 * Whether a change means anything: not when the API says there is nothing to compare (`null`), nor
 * (from a server that still sends 0 then) for a rate of no requests or a count of 0 that was 0 before too.
 */
function compared(kind: ChangeFigure['kind'], value: number, change: number | null, requests: number): boolean {
  if (change === null) return false;
  if (kind === 'of-requests') return requests !== 0;
  return !(value === 0 && change === 0);
}
