import { html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { ENDPOINT_STATUSES, type Endpoint, type EndpointSort, type Page } from '../../api/schemas.ts';
import { formatInteger, formatPercent } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { DataTask } from '../../shared/data-task.ts';
import { MorePages, pageLimit } from '../../shared/more-pages.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { sharedStyles, tokens } from '../../shared/styles.ts';
import { renderSortHeader, tableStyles } from '../../shared/table.ts';
import { styles } from './ops-endpoint-table.styles.ts';

type SortKey = 'requests' | 'p95Ms' | 'errorPct';

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'requests', label: 'Requests' },
  { key: 'p95Ms', label: 'P95 ms' },
  { key: 'errorPct', label: 'Errors' },
];

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
 */
export class OpsEndpointTable extends OpsElement {
  static override styles = [tokens, sharedStyles, tableStyles, styles];

  /** Show only endpoints with this status (`Healthy`, `Failing`, `Slow`); empty shows all. */
  @property({ reflect: true }) status = '';

  /** Server-side order: `requests`, `-requests`, `p95Ms`, `-p95Ms`, `errorPct`, `-errorPct` or `recent`. */
  @property({ reflect: true }) sort: EndpointSort | '' = '';

  /** Rows per page, 1–500 (e.g. 5 for a "Recent endpoints" panel). */
  @property({ type: Number }) limit = 50;

  /** Hides the status filter, for compact embeds. */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  /** Hides "Load more", so `limit` caps the list (a "Recent endpoints" panel). */
  @property({ type: Boolean, attribute: 'hide-more' }) hideMore = false;

  private readonly data: DataTask<readonly [string, EndpointSort | '', number], Page<Endpoint>> = new DataTask(this, {
    args: () => [this.status, this.sort, clampLimit(this.limit)] as const,
    load: (client, [status, sort, limit], signal) =>
      client.listEndpoints({ status: status || undefined, sort: sort || undefined, limit }, { signal }),
    isEmpty: (page) => page.items.length === 0,
  });

  private readonly more: MorePages<Endpoint> = new MorePages(this, (client, cursor, signal) =>
    client.listEndpoints({ status: this.status || undefined, sort: this.sort || undefined, limit: clampLimit(this.limit), cursor }, { signal }),
  );

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('status') || changed.has('sort') || changed.has('limit') || changed.has('apiBase')) {
      this.more.reset();
    }
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderToolbar()}
      ${renderDataStates(this.data, {
        noun: 'endpoints',
        skeletonRows: Math.min(clampLimit(this.limit), 6),
        empty: () => (this.status ? `No ${this.status} endpoints.` : 'No endpoints yet.'),
        complete: (page, busy) => this.renderTable(page, busy),
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

  private renderTable(first: Page<Endpoint>, busy: boolean) {
    const rows = this.more.items(first);
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
              (row) => html`<tr part="row" data-id=${row.id} @click=${(e: Event) => this.onRowClick(e, row)}>
                <th scope="row">
                  <button type="button" class="row-link" @click=${() => this.navigate(row)}>${endpointLabel(row)}</button>
                </th>
                <td class="num" data-label="Requests">${formatInteger(row.requests, format)}</td>
                <td class="num" data-label="P95 ms">${formatInteger(row.p95Ms, format)}</td>
                <td class="num" data-label="Errors">${formatPercent(row.errorPct, format)}</td>
                <td data-label="Status">${renderBadge(row.status)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.hideMore ? nothing : this.more.render(first)}`;
  }

  private renderSortableHeader(key: SortKey, label: string) {
    const direction = this.sort === key ? 'ascending' : this.sort === `-${key}` ? 'descending' : 'none';
    return renderSortHeader(label, direction, () => this.toggleSort(key), true);
  }

  /** Largest first on the first click, then flips. */
  private toggleSort(key: SortKey) {
    this.sort = this.sort === `-${key}` ? key : `-${key}`;
  }

  private onRowClick(event: Event, row: Endpoint) {
    // The row's own button already navigated; clicks elsewhere in the row are a convenience.
    if ((event.target as Element).closest('button')) return;
    this.navigate(row);
  }

  private navigate(row: Endpoint) {
    this.emit('ops-navigate', { kind: 'endpoint', id: row.id }, { cancelable: true });
  }
}

function clampLimit(limit: number): number {
  return pageLimit(limit, 50);
}
