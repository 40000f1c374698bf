import { html } from 'lit';
import type { Overview } from '../../api/schemas.ts';
import { formatInteger, formatMonth, formatMs, formatPercent, type FormatOptions } from '../../format/format.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { renderChange } from '../../shared/change.ts';

type Figures = Overview['figures'];

interface ChangeFigure {
  label: string;
  value: (f: Figures, o: FormatOptions) => string;
  change: (f: Figures) => number;
  /** Whether a rise is good news (more requests) or bad (more errors, slower). */
  riseIsGood: boolean;
}

/** The four figures compared with last month, labelled exactly as the seed. */
export const CHANGE_FIGURES: ChangeFigure[] = [
  { label: 'Requests today', value: (f, o) => formatInteger(f.requestsToday.value, o), change: (f) => f.requestsToday.changePct, riseIsGood: true },
  { label: 'Error rate', value: (f, o) => formatPercent(f.errorRate.valuePct, o), change: (f) => f.errorRate.changePct, riseIsGood: false },
  { label: 'P95 latency', value: (f, o) => formatMs(f.p95Latency.valueMs, o), change: (f) => f.p95Latency.changePct, riseIsGood: false },
  { label: 'Active keys', value: (f, o) => formatInteger(f.activeKeys.value, o), change: (f) => f.activeKeys.changePct, riseIsGood: true },
];

export function monthlyChart(series: { months: string[]; values: number[] }, name: string, format: FormatOptions): ChartData {
  return { type: 'sparkline', categories: series.months.map((m) => formatMonth(m, format)), series: [{ name, values: series.values }] };
}

/** The five figure cards. */
export function renderFigures(figures: Figures, format: FormatOptions) {
  const month = figures.requestsThisMonth;
  return html`<ul part="figures" class="figures" aria-label="Summary figures">
    <li part="figure" class="figure figure-wide">
      <p class="figure-label">Requests this month</p>
      <p class="figure-value">${formatInteger(month.value, format)}</p>
      <ops-chart
        class="sparkline"
        label="Requests per month"
        empty-message="No monthly data yet."
        .data=${monthlyChart(month.series, 'Requests', format)}
        .formatValue=${(v: number) => formatInteger(v, format)}
      ></ops-chart>
    </li>
    ${CHANGE_FIGURES.map(
      (figure) => html`<li part="figure" class="figure">
        <p class="figure-label">${figure.label}</p>
        <p class="figure-value">${figure.value(figures, format)}</p>
        ${renderChange(figure.change(figures), figure.riseIsGood, format)}
      </li>`,
    )}
  </ul>`;
}
