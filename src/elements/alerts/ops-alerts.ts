import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import type { Alert } from '../../api/schemas.ts';
import { formatDateTime } from '../../format/format.ts';
import { alertValue } from '../../shared/alert-value.ts';
import { msg, str } from '../../localize/localize.ts';
import { renderBadge } from '../../shared/badge.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import { renderListTable } from '../../shared/list-table.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { styles } from './ops-alerts.styles.ts';

const LIMIT: NumberRule = { tag: 'ops-alerts', attribute: 'limit', fallback: 50, min: 1, max: 500, integer: true };
const STATES = ['firing', 'resolved'] as const;
type AlertQuery = { state?: 'firing' | 'resolved'; limit: number };

/**
 * The alerts the rules and SLOs raised, newest first: firing ones and the history, each with its
 * value against its threshold, when it started and resolved, and whom it told. What a rule watches
 * (an endpoint, a customer, a key) is a drill-down.
 *
 * @summary Firing and recent alerts, with when each started and resolved and its notifications.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - What an alert watches was activated; detail `{ kind: 'endpoint' | 'customer' | 'key' | 'slo', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the list shows the error and Retry.
 *
 * @csspart base - The panel.
 * @csspart toolbar - The row holding the state filter.
 * @csspart table - The table.
 * @csspart row - A table row of one alert.
 * @csspart badge - A state badge.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @customElement ops-alerts
 */
export class OpsAlerts extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Only `firing` or only `resolved` alerts; empty (or another value) for both. The toolbar's select sets it. */
  @property({ reflect: true }) state = '';

  /** Without the toolbar (in the overview's banner, say). */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  /** Alerts per page, 1–500; another value falls back to 50 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  private readonly list: ListController<AlertQuery, Alert> = new ListController<AlertQuery, Alert>(this, {
    query: () => ({
      state: (STATES as readonly string[]).includes(this.state) ? (this.state as AlertQuery['state']) : undefined,
      limit: validNumber(LIMIT, this.limit),
    }),
    load: (client, query, { cursor }, signal) => client.listAlerts({ ...query, cursor: cursor ?? undefined }, { signal }),
    cap: 10_000,
  });

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderToolbar()}
      ${renderDataStates(this.list.first, {
        noun: msg('alerts'),
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 2),
        empty: () => (this.state === 'firing' ? msg('Nothing is firing.') : this.state === 'resolved' ? msg('No resolved alerts yet.') : msg('No alerts yet.')),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderToolbar() {
    return html`<div part="toolbar" class="toolbar">
      <label>
        <span>${msg('State')}</span>
        <select .value=${this.state} @change=${(e: Event) => (this.state = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.state}>${msg('All alerts')}</option>
          <option value="firing" ?selected=${this.state === 'firing'}>${msg('Firing')}</option>
          <option value="resolved" ?selected=${this.state === 'resolved'}>${msg('Resolved')}</option>
        </select>
      </label>
    </div>`;
  }

  /** What the alert's rule watches, as a drill-down; the whole API leads nowhere. */
  private watched(alert: Alert) {
    const { endpointId, customerId, keyId } = alert.scope;
    // An SLO's alert leads to the SLO; a rule's to what it watches.
    const target: NavigateDetail | undefined =
      alert.metric === 'burnRate'
        ? { kind: 'slo', id: alert.ruleId }
        : endpointId
          ? { kind: 'endpoint', id: endpointId }
          : keyId
            ? { kind: 'key', id: keyId }
            : customerId
              ? { kind: 'customer', id: customerId }
              : undefined;
    return target ? this.renderLink({ ...target, label: alert.ruleName }, alert.ruleName, 'row-link') : alert.ruleName;
  }

  private renderTable(busy: boolean) {
    const format = this.formatOptions;
    const none = html`<span class="muted">—</span>`;
    return renderListTable({
      label: msg('Alerts'),
      rows: this.list.items,
      busy,
      more: this.list.renderMore(),
      columns: [
        { label: msg('Alert'), cell: (row: Alert) => this.watched(row) },
        { label: msg('State'), cell: (row) => renderBadge(row.state) },
        { label: msg('Value'), numeric: true, cell: (row) => alertValue(row.metric, row.value, format) },
        { label: msg('Threshold'), numeric: true, cell: (row) => alertValue(row.metric, row.threshold, format) },
        { label: msg('Started'), cell: (row) => html`<time datetime=${row.startedAt}>${formatDateTime(row.startedAt, format)}</time>` },
        {
          label: msg('Resolved'),
          cell: (row) => (row.endedAt ? html`<time datetime=${row.endedAt}>${formatDateTime(row.endedAt, format)}</time>` : none),
        },
        { label: msg('Notified'), cell: (row) => this.notified(row) },
      ],
    });
  }

  /** How its notifications went: "2 delivered", "1 failed", "1 silenced". */
  private notified(alert: Alert) {
    if (!alert.notifications.length) return html`<span class="muted">—</span>`;
    const count = (status: string) => alert.notifications.filter((n) => n.status === status).length;
    const parts = [
      [count('delivered'), (n: number) => msg(str`${n} delivered`)],
      [count('failed'), (n: number) => msg(str`${n} failed`)],
      [count('silenced'), (n: number) => msg(str`${n} silenced`)],
    ] as const;
    return parts
      .filter(([n]) => n > 0)
      .map(([n, words]) => words(n))
      .join(', ');
  }
}
