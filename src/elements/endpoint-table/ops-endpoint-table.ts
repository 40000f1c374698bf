import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { ENDPOINT_STATUSES, type EndpointSort } from '../../api/enums.ts';
import type { Endpoint } from '../../api/schemas.ts';
import { formatInteger, formatPercent } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import type { EndpointQuery } from '../../api/client.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { renderSortHeader } from '../../shared/table.ts';
import { styles } from './ops-endpoint-table.styles.ts';

type SortKey = 'requests' | 'p95Ms' | 'errorPct';

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'requests', label: 'Requests' },
  { key: 'p95Ms', label: 'P95 ms' },
  { key: 'errorPct', label: 'Errors' },
];

const LIMIT: NumberRule = { tag: 'ops-endpoint-table', attribute: 'limit', fallback: 50, min: 1, max: 500, integer: true };
/** Most rows kept as "Load more" adds pages. */
const MAX_ROWS = 10_000;

export const endpointLabel = (endpoint: Pick<Endpoint, 'method' | 'path'>) => `${endpoint.method} ${endpoint.path}`;

/**
 * Every route of the reported API with its request count, P95 latency, error rate and status.
 *
 * @summary Endpoint list: sortable, filterable by status, each row a drill-down.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A row was activated; detail `{ kind: 'endpoint', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; detail `{ error }`. The table shows the error and Retry.
 *
 * @csspart base - The panel around the table.
 * @csspart toolbar - The row holding the status filter.
 * @csspart table - The table.
 * @csspart row - A table row of one endpoint.
 * @csspart badge - A status badge.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @customElement ops-endpoint-table
 */
export class OpsEndpointTable extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Show only endpoints with this status (`Healthy`, `Failing`, `Slow`); empty shows all. */
  @property({ reflect: true }) status = '';

  /** Server-side order: `requests`, `-requests`, `p95Ms`, `-p95Ms`, `errorPct`, `-errorPct` or `recent`. */
  @property({ reflect: true }) sort: EndpointSort | '' = '';

  /** Rows per page, 1–500 (e.g. 5 for a "Recent endpoints" panel); another value falls back to 50 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  /** Hides the status filter, for compact embeds. */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  /** Hides "Load more", so `limit` caps the list (a "Recent endpoints" panel). */
  @property({ type: Boolean, attribute: 'hide-more' }) hideMore = false;

  private readonly list: ListController<EndpointQuery, Endpoint> = new ListController<EndpointQuery, Endpoint>(this, {
    query: () => ({ status: this.status || undefined, sort: this.sort || undefined, limit: validNumber(LIMIT, this.limit) }),
    load: (client, query, { cursor }, signal) => client.listEndpoints({ ...query, cursor }, { signal }),
    cap: MAX_ROWS,
  });

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderToolbar()}
      ${renderDataStates(this.list.first, {
        noun: 'endpoints',
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 6),
        empty: () => (this.status ? `No ${this.status} endpoints.` : 'No endpoints yet.'),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderToolbar() {
    return html`<div part="toolbar" class="toolbar">
      <label>
        <span>Status</span>
        <select .value=${this.status} @change=${(e: Event) => (this.status = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.status}>All statuses</option>
          ${ENDPOINT_STATUSES.map((s) => html`<option value=${s} ?selected=${this.status === s}>${s}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private renderTable(busy: boolean) {
    const rows = this.list.items;
    const format = this.formatOptions;
    return html`<div class="scroller" role="region" aria-label="Endpoints" tabindex="0">
        <table part="table" aria-busy=${busy ? 'true' : 'false'}>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              ${COLUMNS.map((column) => this.renderSortableHeader(column.key, column.label))}
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (row) => html`<tr part="row" data-id=${row.id} @click=${this.onRowClick}>
                <th scope="row">${this.renderLink({ kind: 'endpoint', id: row.id, label: endpointLabel(row) }, endpointLabel(row), 'row-link')}</th>
                <td class="num" data-label="Requests">${formatInteger(row.requests, format)}</td>
                <td class="num" data-label="P95 ms">${formatInteger(row.p95Ms, format)}</td>
                <td class="num" data-label="Errors">${formatPercent(row.errorPct, format)}</td>
                <td data-label="Status">${renderBadge(row.status)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.hideMore ? nothing : this.list.renderMore()}`;
  }

  private renderSortableHeader(key: SortKey, label: string) {
    const direction = this.sort === key ? 'ascending' : this.sort === `-${key}` ? 'descending' : 'none';
    return renderSortHeader(label, direction, () => this.toggleSort(key), true);
  }

  /** Largest first on the first click, then flips. */
  private toggleSort(key: SortKey) {
    this.sort = this.sort === `-${key}` ? key : `-${key}`;
  }

  /** A click elsewhere in the row is a convenience: it activates the row's own link. */
  private onRowClick = (event: MouseEvent) => {
    if ((event.target as Element).closest('a, button')) return;
    if (window.getSelection()?.toString()) return; // the person is selecting text, not navigating
    (event.currentTarget as HTMLElement).querySelector<HTMLElement>('.row-link')?.click();
  };
}
