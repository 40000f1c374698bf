import { html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { KeyQuery } from '../../api/client.ts';
import { KEY_SORTS, KEY_STATUSES, type KeySort } from '@ops-console/contract/enums';
import type { KeySummary } from '../../api/schemas.ts';
import { formatDateTime, formatInteger, formatMs, formatPercent } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { renderListTable } from '../../shared/list-table.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { apiSort, renderSearch } from '../../shared/table.ts';
import { RangedElement } from '../../shared/time-range.ts';
import { statusLabel } from '../../localize/words.ts';
import { styles } from './ops-key-list.styles.ts';
import { msg, str } from '../../localize/localize.ts';

const LIMIT: NumberRule = { tag: 'ops-key-list', attribute: 'limit', fallback: 50, min: 1, max: 500, integer: true };
/** Most keys kept as "Load more" adds pages. */
const MAX_ROWS = 10_000;
/** Unset, the API sorts by requests, most first. */
const SORT = apiSort('ops-key-list', KEY_SORTS, '-requests');

/**
 * The API keys: each key the host registered and each one the traffic named without a record
 * ("Unregistered"), with its customer, the day created, its last use, its requests, errors %,
 * p95 and 429s over the time range (the last 30 days unless set), and its status. Searched by
 * id, name or customer, filtered by status, sorted by the API, paged with "Load more".
 *
 * @summary API key list: searchable, filterable by status, sortable, each key a drill-down.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A key `{ kind: 'key', id }` or its customer `{ kind: 'customer', id }` was activated. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the list shows the error and Retry.
 * @fires {CustomEvent<SortDetail>} ops-sort - The person sorted by a column; detail `{ sort }` (`name`, `-requests`, …), also reflected in the `sort` attribute.
 *
 * @csspart base - The panel.
 * @csspart toolbar - The row holding the search box and the status filter.
 * @csspart table - The table.
 * @csspart row - A table row of one key.
 * @csspart badge - A status badge.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @customElement ops-key-list
 */
export class OpsKeyList extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Only keys whose id or name, or whose customer's name, contains this text, any case (sent as `q`); the search box sets it. */
  @property({ reflect: true }) q = '';

  /** Only keys of this status: `Active` (used in the last 30 days), `Idle`, `Revoked` or `Unregistered` (another value is ignored); the status filter sets it. */
  @property({ reflect: true }) status = '';

  /** Only this customer's keys (its id); the customer page sets it. */
  @property({ attribute: 'customer-id', reflect: true }) customerId = '';

  /** Order: `-requests` (the default, most first), `requests`, `name`, `-name`, `lastUsedAt`, `-lastUsedAt`, `createdAt` or `-createdAt`. */
  @property({ reflect: true }) sort: KeySort | '' = '';

  /** Keys per page, 1–500; another value falls back to 50 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  /** Hides the search box and the status filter, for a customer page's short list. */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  private readonly list: ListController<KeyQuery, KeySummary> = new ListController<KeyQuery, KeySummary>(this, {
    query: () => ({
      q: this.q.trim() || undefined,
      status: this.knownStatus(),
      customerId: this.customerId.trim() || undefined,
      sort: SORT.known(this.sort),
      limit: validNumber(LIMIT, this.limit),
      ...this.timeRange,
    }),
    load: (client, query, { cursor }, signal) => client.listKeys({ ...query, cursor }, { signal }),
    cap: MAX_ROWS,
  });

  private knownStatus(): string | undefined {
    return (KEY_STATUSES as readonly string[]).includes(this.status) ? this.status : undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('sort')) SORT.warnIfUnknown(this.sort);
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderToolbar()}
      ${renderDataStates(this.list.first, {
        noun: msg('API keys'),
        // An account has more keys than customers: about a screen of rows, each with its id under the name.
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 14),
        empty: () =>
          this.q.trim()
            ? msg(str`No API keys match “${this.q.trim()}”.`)
            : this.knownStatus()
              ? msg(str`No ${statusLabel(this.status)} API keys.`, { desc: 'No API keys of a status: No Revoked API keys.' })
              : msg('No API keys yet.'),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderToolbar() {
    return html`<div part="toolbar" class="toolbar">
      ${renderSearch(this.q, this.forCustomer ? 'Production' : 'Acme', (q) => (this.q = q), 'search')}
      <label>
        <span>${msg('Status')}</span>
        <select .value=${this.status} @change=${(e: Event) => (this.status = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.status}>${msg('All statuses')}</option>
          ${KEY_STATUSES.map((s) => html`<option value=${s} ?selected=${this.status === s}>${statusLabel(s)}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private renderTable(busy: boolean) {
    const format = this.formatOptions;
    const none = html`<span class="muted">—</span>`;
    return renderListTable({
      label: this.forCustomer ? msg('Your API keys') : msg('API keys'),
      rows: this.list.items,
      host: this,
      sorter: SORT,
      busy,
      more: this.list.renderMore(),
      columns: [
        {
          label: msg('Key'),
          sort: { key: 'name', ascendingFirst: true },
          cell: (row: KeySummary) =>
            html`${this.renderLink({ kind: 'key', id: row.id, label: row.name ?? row.id }, row.name ?? row.id, 'row-link')}
            ${row.name === null ? nothing : html`<div class="key-id muted">${row.id}</div>`}`,
        },
        { label: msg('Status'), cell: (row) => renderBadge(row.status) },
        ...this.forOperators({
          label: msg('Customer'),
          cell: (row: KeySummary) =>
            row.customer ? this.renderLink({ kind: 'customer', id: row.customer.id, label: row.customer.name }, row.customer.name) : none,
        }),
        { label: msg('Requests'), sort: { key: 'requests' }, numeric: true, cell: (row) => formatInteger(row.requests, format) },
        { label: msg('Errors'), numeric: true, cell: (row) => (row.requests ? formatPercent(row.errorPct, format) : none) },
        { label: msg('P95'), numeric: true, cell: (row) => (row.p95Ms === null ? none : formatMs(row.p95Ms, format)) },
        { label: msg('429s'), numeric: true, cell: (row) => formatInteger(row.throttled, format) },
        { label: msg('Last used'), sort: { key: 'lastUsedAt' }, cell: (row) => (row.lastUsedAt ? formatDateTime(row.lastUsedAt, format) : msg('Never')) },
        { label: msg('Created'), sort: { key: 'createdAt' }, cell: (row) => (row.createdAt ? formatDateTime(row.createdAt, format) : none) },
      ],
    });
  }
}
