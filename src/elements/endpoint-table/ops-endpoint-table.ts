import { html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { ENDPOINT_STATUSES, type EndpointSort, type EndpointStatus } from '@ops-console/contract/enums';
import type { Endpoint } from '../../api/schemas.ts';
import { formatInteger, formatPercent, type FormatOptions } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { renderDeprecation } from '../../shared/deprecation.ts';
import { renderEndpointName } from '../../shared/endpoint-name.ts';
import type { EndpointQuery } from '../../api/client.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { renderSearch, renderSortHeader, sortRows } from '../../shared/table.ts';
import { LazyVirtualRows, VIRTUAL_FROM } from '../../shared/lazy-virtual-rows.ts';
import { styles } from './ops-endpoint-table.styles.ts';
import { styleProperties } from '../../shared/style-properties.ts';
import { msg, str } from '../../localize/localize.ts';
import { statusLabel } from '../../localize/words.ts';

type SortKey = 'requests' | 'p50Ms' | 'p95Ms' | 'p99Ms' | 'errorPct';

/** The figure columns in their order; p50 and p99 only when the host switches them on. */
const COLUMNS: { key: SortKey; label: () => string; optional?: 'showP50' | 'showP99' }[] = [
  { key: 'requests', label: () => msg('Requests') },
  { key: 'p50Ms', label: () => msg('P50 ms'), optional: 'showP50' },
  { key: 'p95Ms', label: () => msg('P95 ms') },
  { key: 'p99Ms', label: () => msg('P99 ms'), optional: 'showP99' },
  { key: 'errorPct', label: () => msg('Errors') },
];

const LIMIT: NumberRule = { tag: 'ops-endpoint-table', attribute: 'limit', fallback: 50, min: 1, max: 500, integer: true };
/** Most rows kept as "Load more" adds pages. */
const MAX_ROWS = 10_000;
/** A row's height in px before it is measured (one line at the default font size). */
const ROW_ESTIMATE = 41;
const LOCAL_SORTS = new Set<string>(COLUMNS.flatMap(({ key }) => [key, `-${key}`]));

export const endpointLabel = (endpoint: Pick<Endpoint, 'method' | 'path'>) => `${endpoint.method} ${endpoint.path}`;

/**
 * Whether a row names its API version: its route has more than one version in the account (the
 * API's `versions`, which counts rows on every page), or, from a server that does not send
 * `versions`, another loaded row has the same method and path.
 */
const showsVersion = (row: Endpoint, repeated: ReadonlySet<string>) => (row.versions ?? 0) > 1 || repeated.has(endpointLabel(row));

const repeatedLabels = new WeakMap<readonly Endpoint[], ReadonlySet<string>>();
/** The labels that more than one row has (the same route under two API versions), worked out once per list. */
function labelsOnSeveralRows(rows: readonly Endpoint[]): ReadonlySet<string> {
  let repeated = repeatedLabels.get(rows);
  if (!repeated) {
    const seen = new Set<string>();
    const several = new Set<string>();
    for (const row of rows) {
      const label = endpointLabel(row);
      if (seen.has(label)) several.add(label);
      seen.add(label);
    }
    repeatedLabels.set(rows, (repeated = several));
  }
  return repeated;
}

/**
 * Every route of the reported API with its request count, P95 latency, error rate and status.
 *
 * @summary Endpoint list: sortable, filterable by status, each row a drill-down.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A row was activated; detail `{ kind: 'endpoint', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; detail `{ error }`. The table shows the error and Retry.
 * @fires {CustomEvent<SortDetail>} ops-sort - The person sorted by a column; detail `{ sort }` (`-requests`, `p95Ms`, …), also reflected in the `sort` attribute.
 *
 * @csspart base - The panel around the table.
 * @csspart toolbar - The row holding the status filter.
 * @csspart table - The table.
 * @csspart row - A table row of one endpoint.
 * @csspart badge - A status badge.
 * @csspart version - The API version beside an endpoint whose method and path have more than one API version.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @cssprop --ops-table-height - Height of the scrolling frame a table of more than 100 rows gets (default 32rem).
 *
 * @customElement ops-endpoint-table
 */
export class OpsEndpointTable extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Show only endpoints with this status (`Healthy`, `Failing`, `Slow`); empty shows all. */
  @property({ reflect: true }) status: EndpointStatus | '' = '';

  /**
   * Order: `requests`, `-requests`, `p95Ms`, `-p95Ms`, `errorPct`, `-errorPct` or `recent`. The
   * API sorts; once every row is loaded, a new column order is sorted here instead, at once and
   * without a request (rows with equal figures keep their loaded order).
   */
  @property({ reflect: true }) sort: EndpointSort | '' = '';

  /** Rows per page, 1–500 (e.g. 5 for a "Recent endpoints" panel); another value falls back to 50 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  /** Only endpoints whose `METHOD /path` contains this text, any case (sent as `q`); the search box sets it. */
  @property({ reflect: true }) q = '';

  /** Shows the P50 ms column (the median duration), sortable like the others. */
  @property({ type: Boolean, attribute: 'show-p50' }) showP50 = false;

  /** Shows the P99 ms column, sortable like the others. */
  @property({ type: Boolean, attribute: 'show-p99' }) showP99 = false;

  /** Hides the search box and the status filter, for compact embeds. */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  /** Hides "Load more", so `limit` caps the list (a "Recent endpoints" panel). */
  @property({ type: Boolean, attribute: 'hide-more' }) hideMore = false;

  /** The order the API was asked for: `sort`, unless the loaded rows are sorted here. */
  @state() private fetchedSort: EndpointSort | '' = '';

  @query('.scroller') private scrollerEl?: HTMLElement;

  private readonly list: ListController<EndpointQuery, Endpoint> = new ListController<EndpointQuery, Endpoint>(this, {
    query: () => ({ ...this.scope(), sort: this.fetchedSort || undefined }),
    load: (client, query, { cursor }, signal) => client.listEndpoints({ ...query, cursor }, { signal }),
    cap: MAX_ROWS,
  });

  /** Tables longer than {@link VIRTUAL_FROM} rows scroll in a frame of their own (`--ops-table-height`) and render only the rows in view. */
  private readonly virtualRows = new LazyVirtualRows(this, { scroller: () => this.scrollerEl, rows: () => this.sortedRows(), estimate: ROW_ESTIMATE });

  #sorted: { items: readonly Endpoint[]; sort: string; rows: readonly Endpoint[] } | undefined;
  /** The scope of the last update: rows loaded for another scope are not all there is for this one. */
  #scope = '';

  /** What the list asks for but its order: filters, page size and time range. */
  private scope(): Omit<EndpointQuery, 'sort'> {
    return { status: this.status || undefined, q: this.q.trim() || undefined, limit: validNumber(LIMIT, this.limit), ...this.timeRange };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new order of rows that are all here is sorted locally; anything else asks the API, and
    // so does a list about to load for another scope (a filter, the limit or the time range):
    // its first request carries the order on screen, rather than the API's and a second request.
    const scope = JSON.stringify(this.scope());
    const rescoped = scope !== this.#scope;
    this.#scope = scope;
    const local = LOCAL_SORTS.has(this.sort) && !rescoped && this.list.isComplete;
    if (this.sort !== this.fetchedSort && !local) this.fetchedSort = this.sort;
    if (changed.has('limit')) this.virtualRows.expect(validNumber(LIMIT, this.limit));
  }

  /** The loaded rows in the order shown (sorted once per new list or order, not per render). */
  private sortedRows(): readonly Endpoint[] {
    const items = this.list.items;
    if (this.sort === this.fetchedSort) return items;
    if (this.#sorted?.items !== items || this.#sorted.sort !== this.sort) {
      const column = this.sort.replace('-', '') as SortKey;
      // A figure an older server does not send sorts below every sent one.
      this.#sorted = { items, sort: this.sort, rows: sortRows(items, { column, descending: this.sort.startsWith('-') }, (row, key) => row[key] ?? -1) };
    }
    return this.#sorted.rows;
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderToolbar()}
      ${renderDataStates(this.list.first, {
        noun: msg('endpoints'),
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 6),
        empty: () =>
          this.q.trim()
            ? msg(str`No endpoints match “${this.q.trim()}”.`)
            : this.status
              ? msg(str`No ${statusLabel(this.status)} endpoints.`)
              : msg('No endpoints yet.'),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderToolbar() {
    return html`<div part="toolbar" class="toolbar">
      ${renderSearch(this.q, 'POST /messages', (q) => (this.q = q), 'search')}
      <label>
        <span>${msg('Status')}</span>
        <select .value=${this.status} @change=${(e: Event) => (this.status = (e.target as HTMLSelectElement).value as EndpointStatus | '')}>
          <option value="" ?selected=${!this.status}>${msg('All statuses')}</option>
          ${ENDPOINT_STATUSES.map((s) => html`<option value=${s} ?selected=${this.status === s}>${statusLabel(s)}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private renderTable(busy: boolean) {
    const rows = this.sortedRows();
    const format = this.formatOptions;
    const visible = this.virtualRows.shown();
    const virtual = visible !== 'all';
    let shown = rows.map((_, index) => index);
    let padding = { before: 0, after: 0 };
    if (typeof visible === 'object') {
      shown = visible.items.filter((item) => item.index < rows.length).map((item) => item.index);
      padding = visible.padding;
    } else if (visible === 'first') {
      shown = shown.slice(0, VIRTUAL_FROM);
      padding = { before: 0, after: (rows.length - VIRTUAL_FROM) * ROW_ESTIMATE };
    }
    const { before, after } = padding;
    const repeated = labelsOnSeveralRows(this.list.items);
    return html`<div class=${virtual ? 'scroller long' : 'scroller'} role="region" aria-label=${msg('Endpoints')} tabindex="0">
        <table part="table" aria-busy=${busy ? 'true' : 'false'} aria-rowcount=${virtual ? (this.list.hasMore ? -1 : rows.length + 1) : nothing}>
          <thead>
            <tr aria-rowindex=${virtual ? 1 : nothing}>
              <th scope="col">${msg('Endpoint')}</th>
              ${this.columns().map((column) => this.renderSortableHeader(column.key, column.label()))}
              <th scope="col">${msg('Status')}</th>
            </tr>
          </thead>
          <tbody>
            ${before ? renderSpacer(before, this.columns().length + 2) : nothing}
            ${repeat(
              shown,
              (index) => rows[index]!.id,
              (index) => {
                const row = rows[index]!;
                return html`<tr
                  part="row"
                  data-id=${row.id}
                  data-index=${virtual ? index : nothing}
                  aria-rowindex=${virtual ? index + 2 : nothing}
                  @click=${this.onRowClick}
                >
                  <th scope="row">
                    ${this.renderLink({ kind: 'endpoint', id: row.id, label: endpointLabel(row) }, renderEndpointName(row.method, row.path), 'row-link')}
                    ${showsVersion(row, repeated) ? html`<span part="version" class="version">${row.apiVersion ?? row.id}</span>` : nothing}
                    ${row.deprecation ? html`<div class="deprecated">${renderDeprecation(row.deprecation, format)}</div>` : nothing}
                  </th>
                  ${this.columns().map((column) => html`<td class="num" data-label=${column.label()}>${figure(row, column.key, format)}</td>`)}
                  <td data-label=${msg('Status')}>${renderBadge(row.status)}</td>
                </tr>`;
              },
            )}
            ${after ? renderSpacer(after, this.columns().length + 2) : nothing}
          </tbody>
        </table>
      </div>
      ${this.hideMore ? nothing : this.list.renderMore()}`;
  }

  /** The figure columns shown: the three always there, and p50 and p99 when switched on. */
  private columns() {
    return COLUMNS.filter((column) => !column.optional || this[column.optional]);
  }

  private renderSortableHeader(key: SortKey, label: string) {
    const direction = this.sort === key ? 'ascending' : this.sort === `-${key}` ? 'descending' : 'none';
    return renderSortHeader(label, direction, () => this.toggleSort(key), true);
  }

  /** Largest first on the first click, then flips. */
  private toggleSort(key: SortKey) {
    this.sort = this.sort === `-${key}` ? key : `-${key}`;
    this.emit('ops-sort', { sort: this.sort });
  }

  /** A click elsewhere in the row is a convenience: it activates the row's own link. */
  private onRowClick = (event: MouseEvent) => {
    if ((event.target as Element).closest('a, button')) return;
    if (window.getSelection()?.toString()) return; // the person is selecting text, not navigating
    (event.currentTarget as HTMLElement).querySelector<HTMLElement>('.row-link')?.click();
  };
}

/** Stands in for the rows above or below the rendered ones, so the scrollbar is true to the whole table. */
function renderSpacer(height: number, columns: number) {
  return html`<tr class="spacer" aria-hidden="true"><td colspan=${columns} ${styleProperties({ height: `${height}px` })}></td></tr>`;
}

/** A figure cell's text; `—` for a percentile an older server does not send. */
function figure(row: Endpoint, key: SortKey, format: FormatOptions) {
  if (key === 'errorPct') return formatPercent(row.errorPct, format);
  const value = row[key];
  return value === undefined ? '—' : formatInteger(value, format);
}
