import { html } from 'lit';
import { property } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { SloDetail } from '../../api/schemas.ts';
import { formatDay, formatInteger, formatMs, formatPercent } from '../../format/format.ts';
import { msg, str } from '../../localize/localize.ts';
import { renderBadge } from '../../shared/badge.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { styles } from './ops-slo.styles.ts';

/** The windows whose burn rates the multi-window alerts read, shortest first. */
const WINDOWS = ['5m', '30m', '1h', '6h', '3d'] as const;

/**
 * One SLO's page: its target and what it counts as good, the share of good requests and the error
 * budget left over its period, how fast the budget burns over each alert window, and the budget
 * left at the end of each day as a burn-down chart with its table.
 *
 * @summary An SLO: good share, error budget left, burn rates and the budget's burn-down.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - The "Alerts" crumb (`{ kind: 'alerts', id: '' }`). Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 *
 * @csspart header - The breadcrumb, the title and the state badge beside it.
 * @csspart breadcrumb - The `Alerts / <name>` trail.
 * @csspart facts - The label/value list of key facts.
 * @csspart burn-rates - The table of burn rates by window.
 *
 * @customElement ops-slo
 */
export class OpsSlo extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The SLO to show. */
  @property({ attribute: 'slo-id' }) sloId = '';

  /** Where the "Alerts" crumb points (http(s) or relative; default: the wrapper's `routes.alerts`, else `#alerts`). */
  @property({ attribute: 'alerts-href' }) alertsHref?: string;

  private readonly data: DataTask<readonly [string], SloDetail> = new DataTask(this, {
    args: () => [this.sloId] as const,
    load: (client, [id], signal) => client.getSlo(id, { signal }),
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this SLO'),
      notFound: { title: msg('SLO not found.'), message: msg(str`No SLO has the id “${this.sloId}”. It may have been removed, or the link may be wrong.`) },
      skeleton: ['title', 'facts', ['table', 5], 'chart'],
      empty: () => '',
      complete: (slo) => this.renderSlo(slo),
    });
  }

  private renderSlo(slo: SloDetail) {
    const format = this.formatOptions;
    const none = html`<span class="muted">—</span>`;
    const pct = (value: number | null) => (value === null ? none : formatPercent(value, format));
    const good =
      slo.objective === 'latency' && slo.thresholdMs !== null
        ? msg(str`At most ${formatMs(slo.thresholdMs, format)}`, { desc: 'A latency SLO’s good request: At most 300 ms' })
        : msg('Not a server error');
    const chart: ChartData = {
      type: 'line',
      categories: slo.budgetOverTime.days.map((d) => formatDay(d, format)),
      categoryName: msg('Day'),
      series: [{ name: msg('Error budget left'), values: slo.budgetOverTime.remainingPct.map((v) => v ?? 0) }],
    };
    return html`${renderDetailHeader(
      [{ label: msg('Alerts'), target: this.listTarget('alerts', this.alertsHref, 'alerts-href') }, { label: slo.name }],
      { navigate: this.navigate },
      { status: renderBadge(slo.state) },
    )}
      ${renderFacts([
        [msg('Target'), msg(str`${formatPercent(slo.targetPct, format)} over ${slo.period}`, { desc: 'An SLO’s target: 99.5% over 28d' })],
        [msg('Good request'), good],
        [msg('Good share'), pct(slo.sliPct)],
        [msg('Error budget left'), pct(slo.budgetRemainingPct)],
        [msg('Requests'), formatInteger(slo.requests, format)],
        [msg('Bad requests'), formatInteger(slo.badRequests, format)],
      ])}
      <h3>${msg('Burn rate')}</h3>
      <table part="burn-rates" class="burn-rates">
        <caption class="visually-hidden">${msg('Burn rate by window')}</caption>
        <thead>
          <tr>
            ${WINDOWS.map((w) => html`<th scope="col">${w}</th>`)}
          </tr>
        </thead>
        <tbody>
          <tr>
            ${WINDOWS.map((w) => {
              const rate = slo.burnRates[w];
              return html`<td class="numeric">${rate === null ? none : msg(str`${rate}×`, { desc: 'A multiple: 3.2×' })}</td>`;
            })}
          </tr>
        </tbody>
      </table>
      <h3>${msg('Error budget left')}</h3>
      ${
        slo.budgetOverTime.days.length
          ? html`<ops-chart
            locale=${ifDefined(format.locale)}
            label=${msg('Error budget left at the end of each day')}
            .data=${chart}
            .formatValue=${(v: number) => formatPercent(v, format)}
          ></ops-chart>`
          : html`<p class="muted">${msg('No requests in this period yet.')}</p>`
      }`;
  }
}
