import { html } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Traffic } from '../../api/schemas.ts';
import { formatInteger, formatMonth, formatPercent, formatValue } from '../../format/format.ts';
import { renderChange } from '../../shared/change.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { DataTask } from '../../shared/data-task.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { nextSort } from '../../shared/table.ts';
import { styles } from './ops-traffic.styles.ts';
import { BREAKDOWN_COLUMNS, renderBreakdown, type BreakdownColumn, type BreakdownSort } from './traffic-breakdown.ts';
import { msg } from '../../localize/localize.ts';
import { ifDefined } from 'lit/directives/if-defined.js';

type MetricKey = keyof Traffic['metrics'];

/** The four metrics, labelled as the seed; whether a rise is good news (null: neither). */
const METRICS: { key: MetricKey; label: () => string; riseIsGood: boolean | null }[] = [
  { key: 'requests', label: () => msg('Requests'), riseIsGood: true },
  { key: 'errorRate', label: () => msg('Error rate'), riseIsGood: false },
  { key: 'latency', label: () => msg('Latency'), riseIsGood: false },
  { key: 'bandwidth', label: () => msg('Bandwidth'), riseIsGood: null },
];

/**
 * Traffic: are we growing, and is it healthy. Values are formatted by the unit the API sends
 * (count, ms, bytes, percent or a currency code).
 *
 * @summary Traffic: four metrics with changes, requests over time, error rate by month, breakdown.
 *
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the panel shows the error and Retry.
 *
 * @csspart base - The panel.
 * @csspart metrics - The list of metric cards.
 * @csspart metric - One metric card.
 * @csspart panel - A titled chart or table panel.
 * @csspart breakdown - The breakdown table.
 * @csspart breakdown-row - One row of the breakdown.
 *
 * @customElement ops-traffic
 */
export class OpsTraffic extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The period, sent as `range` (default `12m`). */
  @property({ reflect: true }) range = '12m';

  @state() private sort: BreakdownSort = { column: 'sharePct', descending: true };

  private readonly data: DataTask<readonly [string], Traffic> = new DataTask(this, {
    args: () => [this.range] as const,
    load: (client, [range], signal) => client.getTraffic(range || '12m', { signal }),
  });

  override render() {
    return html`<div part="base" class="base">
      ${renderDataStates(this.data, { noun: msg('traffic'), skeleton: ['figures', 'chart', 'table'], skeletonRows: 5, empty: () => '', complete: (traffic) => this.renderTraffic(traffic) })}
    </div>`;
  }

  private renderTraffic(traffic: Traffic) {
    const format = this.formatOptions;
    const months = (list: string[]) => list.map((m) => formatMonth(m, format));
    const overTime: ChartData = {
      type: 'line',
      categories: months(traffic.requestsOverTime.months),
      series: [
        { name: msg('This year'), values: traffic.requestsOverTime.thisYear },
        { name: msg('Last year'), values: traffic.requestsOverTime.lastYear },
      ],
    };
    const errorRate: ChartData = {
      type: 'bar',
      categories: months(traffic.errorRateByMonth.months),
      series: [{ name: msg('Error rate'), values: traffic.errorRateByMonth.valuesPct }],
    };
    return html`<ul part="metrics" class="figures" aria-label=${msg('Traffic metrics')}>
        ${METRICS.map(({ key, label, riseIsGood }) => {
          const metric = traffic.metrics[key];
          return html`<li part="metric" class="figure" data-metric=${key}>
            <p class="figure-label">${label()}</p>
            <p class="figure-value">${formatValue(metric.value, metric.unit, format)}</p>
            ${renderChange(metric.changePct, riseIsGood, format)}
          </li>`;
        })}
      </ul>
      <div class="charts">
        <section part="panel" class="panel" aria-labelledby="over-time">
          <h3 id="over-time">${msg('Requests over time')}</h3>
          <ops-chart locale=${ifDefined(format.locale)} label=${msg('Requests over time, this year and last year')} .data=${overTime} .formatValue=${(v: number) => formatInteger(v, format)}></ops-chart>
        </section>
        <section part="panel" class="panel" aria-labelledby="error-rate">
          <h3 id="error-rate">${msg('Error rate by month')}</h3>
          <ops-chart locale=${ifDefined(format.locale)} label=${msg('Error rate by month')} .data=${errorRate} .formatValue=${(v: number) => formatPercent(v, format)}></ops-chart>
        </section>
      </div>
      <section part="panel" class="panel" aria-labelledby="breakdown">
        <h3 id="breakdown">${msg('Breakdown')}</h3>
        ${
          traffic.breakdown.length
            ? renderBreakdown(traffic.breakdown, this.sort, this.onSort, format)
            : html`<p class="empty">${msg('No breakdown for this period yet.')}</p>`
        }
      </section>`;
  }

  private onSort = (column: BreakdownColumn) => {
    this.sort = nextSort(this.sort, column, BREAKDOWN_COLUMNS.find((c) => c.key === column)!.numeric);
  };
}
