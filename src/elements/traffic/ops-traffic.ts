import { MONTHLY_RANGES } from '@ops-console/contract/enums';
import { html } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { TimeWindow, Traffic, WindowSeries } from '../../api/schemas.ts';
import { formatInteger, formatMonth, formatPercent, formatValue } from '../../format/format.ts';
import { renderChange } from '../../shared/change.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { DataTask } from '../../shared/data-task.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { bucketAxis, comparisonLabel, RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { nextSort } from '../../shared/table.ts';
import { styles } from './ops-traffic.styles.ts';
import { BREAKDOWN_COLUMNS, renderBreakdown, type BreakdownColumn, type BreakdownSort } from './traffic-breakdown.ts';
import { msg } from '../../localize/localize.ts';
import { ifDefined } from 'lit/directives/if-defined.js';

type MetricKey = keyof Traffic['metrics'];

/** The four metrics, labelled as the seed; whether a rise is good news (null: neither). */
const METRICS: { key: MetricKey; label: () => string; riseIsGood: boolean | null; ofRequests?: boolean }[] = [
  { key: 'requests', label: () => msg('Requests'), riseIsGood: true },
  { key: 'errorRate', label: () => msg('Error rate'), riseIsGood: false, ofRequests: true },
  { key: 'latency', label: () => msg('Latency'), riseIsGood: false, ofRequests: true },
  { key: 'bandwidth', label: () => msg('Bandwidth'), riseIsGood: null },
];

/**
 * Traffic: are we growing, and is it healthy. Values are formatted by the unit the API sends
 * (count, ms, bytes, percent or a currency code).
 *
 * @summary Traffic: four metrics with changes, requests over time, error rate by month, breakdown.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - Over a time range, a bucket of "Requests over time" was chosen (its bar or its table row): `{ kind: 'requests', id: '', from, to }` (and `customerId` with `customer-id`), the request log of that time. Cancelable.
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
export class OpsTraffic extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Beyond the time ranges, the calendar months this panel always had: `1m`, `3m`, `6m` (and `12m`, the default). */
  protected static override extraRanges = MONTHLY_RANGES.filter((range) => range !== '12m');

  /** Only this customer's traffic (the customer page sets it); empty for all. */
  @property({ attribute: 'customer-id', reflect: true }) customerId = '';

  @state() private sort: BreakdownSort = { column: 'sharePct', descending: true };

  private readonly data: DataTask<readonly [string, string], Traffic> = new DataTask(this, {
    args: () => [JSON.stringify(this.timeRange), this.customerId.trim()] as const,
    load: (client, [, customerId], signal) => {
      const range = this.timeRange;
      return client.getTraffic({ ...(range.from ? range : { range: range.range || '12m' }), customerId: customerId || undefined }, { signal });
    },
  });

  override render() {
    return html`<div part="base" class="base">
      ${renderDataStates(this.data, { noun: msg('traffic'), skeleton: ['figures', 'chart', 'table'], skeletonRows: 5, empty: () => '', complete: (traffic) => this.renderTraffic(traffic) })}
    </div>`;
  }

  private renderTraffic(traffic: Traffic) {
    const format = this.formatOptions;
    const versus = comparisonLabel(traffic.window);
    const charts = traffic.overTime && traffic.window ? this.windowCharts(traffic.overTime, traffic.window) : this.monthCharts(traffic);
    return html`<ul part="metrics" class="figures" aria-label=${msg('Traffic metrics')}>
        ${METRICS.map(({ key, label, riseIsGood, ofRequests }) => {
          const metric = traffic.metrics[key];
          // No requests in the period: an error rate or a latency of nothing has no value, nor a change.
          const unmeasured = ofRequests && traffic.metrics.requests.value === 0;
          return html`<li part="metric" class="figure" data-metric=${key}>
            <p class="figure-label">${label()}</p>
            <p class="figure-value">${unmeasured ? '—' : formatValue(metric.value, metric.unit, format)}</p>
            ${renderChange(unmeasured ? undefined : metric.changePct, riseIsGood, format, versus)}
          </li>`;
        })}
      </ul>
      <div class="charts">
        <section part="panel" class="panel" aria-labelledby="over-time">
          <h3 id="over-time">${msg('Requests over time')}</h3>
          <ops-chart
            locale=${ifDefined(format.locale)}
            label=${charts.overTimeLabel}
            .data=${charts.overTime}
            .formatValue=${(v: number) => formatInteger(v, format)}
            .categoryLink=${charts.link}
            @ops-chart-select=${(event: CustomEvent<{ index: number }>) => charts.open?.(event.detail.index)}
          ></ops-chart>
        </section>
        <section part="panel" class="panel" aria-labelledby="error-rate">
          <h3 id="error-rate">${charts.errorRateTitle}</h3>
          <ops-chart locale=${ifDefined(format.locale)} label=${charts.errorRateTitle} .data=${charts.errorRate} .formatValue=${(v: number) => formatPercent(v, format)}></ops-chart>
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

  /** The charts of the calendar months: this year against last year, and the error rate by month. */
  private monthCharts(traffic: Traffic) {
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
    return {
      overTime,
      errorRate,
      overTimeLabel: msg('Requests over time, this year and last year'),
      errorRateTitle: msg('Error rate by month'),
      link: undefined,
      open: undefined,
    };
  }

  /** The charts of a time range, bucket by bucket against the window before; each bucket leads to its requests. */
  private windowCharts(series: WindowSeries, window: TimeWindow) {
    const { categories, categoryName } = bucketAxis(series.starts, window.bucket, this.formatOptions);
    const overTime: ChartData = {
      type: 'bar',
      categories,
      categoryName,
      series: [
        { name: msg('This period'), values: series.requests },
        { name: msg('Previous period'), values: series.previousRequests },
      ],
    };
    const errorRate: ChartData = { type: 'bar', categories, categoryName, series: [{ name: msg('Error rate'), values: series.errorPct }] };
    const customerId = this.customerId.trim();
    return {
      overTime,
      errorRate,
      overTimeLabel: msg('Requests over time, this period and the previous one'),
      errorRateTitle: msg('Error rate over time'),
      ...this.bucketLinks(series.starts, window, categories, customerId ? { customerId } : {}),
    };
  }

  private onSort = (column: BreakdownColumn) => {
    this.sort = nextSort(this.sort, column, BREAKDOWN_COLUMNS.find((c) => c.key === column)!.numeric);
  };
}
