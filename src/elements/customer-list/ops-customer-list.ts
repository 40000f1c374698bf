import { html, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { CustomerQuery } from '../../api/client.ts';
import { CUSTOMER_SORTS, type CustomerSort } from '@ops-console/contract/enums';
import type { CustomerSummary } from '../../api/schemas.ts';
import { formatDate, formatInteger, formatPercent } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { renderPerson } from '../../shared/detail.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { renderListTable } from '../../shared/list-table.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { apiSort, renderSearch } from '../../shared/table.ts';
import { styles } from './ops-customer-list.styles.ts';
import { msg, str } from '../../localize/localize.ts';

const LIMIT: NumberRule = { tag: 'ops-customer-list', attribute: 'limit', fallback: 50, min: 1, max: 500, integer: true };
/** Most customers kept as "Load more" adds pages. */
const MAX_ROWS = 10_000;
/** Unset, the API sorts by name. */
const SORT = apiSort('ops-customer-list', CUSTOMER_SORTS, 'name');

/**
 * The customers of the API: name (a drill-down), status, plan, recent requests and errors %,
 * the day created and the account owner; searched by name or id and sorted by the API, paged
 * with "Load more".
 *
 * @summary Customer list: searchable, sortable, each name a drill-down.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A customer was activated; detail `{ kind: 'customer', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the list shows the error and Retry.
 * @fires {CustomEvent<SortDetail>} ops-sort - The person sorted by a column; detail `{ sort }` (`name`, `-requests`, …), also reflected in the `sort` attribute.
 *
 * @csspart base - The panel.
 * @csspart toolbar - The row holding the search box.
 * @csspart table - The table.
 * @csspart row - A table row of one customer.
 * @csspart badge - A status badge.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @customElement ops-customer-list
 */
export class OpsCustomerList extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Only customers whose name or id contains this text, any case (sent as `q`); the search box sets it. */
  @property({ reflect: true }) q = '';

  /** Order: `name` (the default, A–Z), `-name`, `requests`, `-requests`, `createdAt` or `-createdAt`. */
  @property({ reflect: true }) sort: CustomerSort | '' = '';

  /** Customers per page, 1–500; another value falls back to 50 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  private readonly list: ListController<CustomerQuery, CustomerSummary> = new ListController<CustomerQuery, CustomerSummary>(this, {
    query: () => ({ q: this.q.trim() || undefined, sort: SORT.known(this.sort), limit: validNumber(LIMIT, this.limit) }),
    load: (client, query, { cursor }, signal) => client.listCustomers({ ...query, cursor }, { signal }),
    cap: MAX_ROWS,
  });

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('sort')) SORT.warnIfUnknown(this.sort);
  }

  override render() {
    return html`<div part="base" class="base">
      <div part="toolbar" class="toolbar">${renderSearch(this.q, 'Acme', (q) => (this.q = q))}</div>
      ${renderDataStates(this.list.first, {
        noun: msg('customers'),
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 6),
        empty: () => (this.q.trim() ? msg(str`No customers match “${this.q.trim()}”.`) : msg('No customers yet.')),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderTable(busy: boolean) {
    const format = this.formatOptions;
    return renderListTable({
      label: msg('Customers'),
      rows: this.list.items,
      host: this,
      sorter: SORT,
      busy,
      more: this.list.renderMore(),
      columns: [
        {
          label: msg('Customer'),
          sort: { key: 'name', ascendingFirst: true },
          cell: (row: CustomerSummary) => this.renderLink({ kind: 'customer', id: row.id, label: row.name }, row.name, 'row-link'),
        },
        { label: msg('Status'), cell: (row) => renderBadge(row.status) },
        { label: msg('Plan'), cell: (row) => row.plan },
        { label: msg('Requests'), sort: { key: 'requests' }, numeric: true, cell: (row) => formatInteger(row.requests, format) },
        { label: msg('Errors'), numeric: true, cell: (row) => formatPercent(row.errorPct, format) },
        { label: msg('429s'), numeric: true, cell: (row) => (row.throttled === undefined ? '—' : formatInteger(row.throttled, format)) },
        { label: msg('Created'), sort: { key: 'createdAt' }, cell: (row) => formatDate(row.createdAt, format) },
        { label: msg('Account owner'), cell: (row) => renderPerson(row.owner) },
      ],
    });
  }
}
