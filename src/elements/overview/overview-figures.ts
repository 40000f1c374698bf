import { html } from 'lit';
import type { Overview } from '../../api/schemas.ts';
import { formatInteger, formatMonth, formatMs, formatPercent, type FormatOptions } from '../../format/format.ts';
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
  change: (f: Figures) => number;
  /** A count (0 is a figure), or a rate or percentile of this month's requests (none: no figure). */
  kind: 'count' | 'of-requests';
  /** Whether a rise is good news (more requests) or bad (more errors, slower). */
  riseIsGood: boolean;
}

/** The four figures compared with last month, labelled exactly as the seed. */
const CHANGE_FIGURES: ChangeFigure[] = [
  {
    label: () => msg('Requests today'),
    kind: 'count',
    raw: (f) => f.requestsToday.value,
    format: formatInteger,
    change: (f) => f.requestsToday.changePct,
    riseIsGood: true,
  },
  {
    label: () => msg('Error rate'),
    kind: 'of-requests',
    raw: (f) => f.errorRate.valuePct,
    format: formatPercent,
    change: (f) => f.errorRate.changePct,
    riseIsGood: false,
  },
  {
    label: () => msg('P95 latency'),
    kind: 'of-requests',
    raw: (f) => f.p95Latency.valueMs,
    format: formatMs,
    change: (f) => f.p95Latency.changePct,
    riseIsGood: false,
  },
  {
    label: () => msg('Active keys'),
    kind: 'count',
    raw: (f) => f.activeKeys.value,
    format: formatInteger,
    change: (f) => f.activeKeys.changePct,
    riseIsGood: true,
  },
];

function monthlyChart(series: { months: string[]; values: number[] }, name: string, format: FormatOptions): ChartData {
  return { type: 'sparkline', categories: series.months.map((m) => formatMonth(m, format)), series: [{ name, values: series.values }] };
}

/** The five figure cards. */
export function renderFigures(figures: Figures, format: FormatOptions) {
  const month = figures.requestsThisMonth;
  return html`<ul part="figures" class="figures" aria-label=${msg('Summary figures')}>
    <li part="figure" class="figure figure-wide">
      <p class="figure-label">${msg('Requests this month')}</p>
      <p class="figure-value">${formatInteger(month.value, format)}</p>
      <ops-chart
        locale=${ifDefined(format.locale)}
        class="sparkline"
        label=${msg('Requests per month')}
        empty-message=${msg('No monthly data yet.')}
        .data=${monthlyChart(month.series, msg('Requests'), format)}
        .formatValue=${(v: number) => formatInteger(v, format)}
      ></ops-chart>
    </li>
    ${CHANGE_FIGURES.map((figure) => {
      // No requests this month: an error rate or a P95 of nothing has no value. A count of 0 with
      // a change of 0 is nothing now and nothing then: there is no comparison to show either.
      const unmeasured = figure.kind === 'of-requests' && month.value === 0;
      const change = figure.change(figures);
      const value = figure.raw(figures);
      const compared = !unmeasured && !(figure.kind === 'count' && value === 0 && change === 0);
      return html`<li part="figure" class="figure">
        <p class="figure-label">${figure.label()}</p>
        <p class="figure-value">${unmeasured ? '—' : figure.format(value, format)}</p>
        ${renderChange(compared ? change : undefined, figure.riseIsGood, format)}
      </li>`;
    })}
  </ul>`;
}
