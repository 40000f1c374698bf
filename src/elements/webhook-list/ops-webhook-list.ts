import { html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { WebhookQuery } from '../../api/client.ts';
import { WEBHOOK_SORTS, type WebhookSort } from '@ops-console/contract/enums';
import type { WebhookSummary } from '../../api/schemas.ts';
import { formatDate, formatPercent } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { renderPerson } from '../../shared/detail.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { renderListTable } from '../../shared/list-table.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { apiSort, renderSearch } from '../../shared/table.ts';
import { styles } from './ops-webhook-list.styles.ts';
import { msg, str } from '../../localize/localize.ts';

const LIMIT: NumberRule = { tag: 'ops-webhook-list', attribute: 'limit', fallback: 50, min: 1, max: 500, integer: true };
/** Most webhooks kept as "Load more" adds pages. */
const MAX_ROWS = 10_000;
/** Unset, the API sorts by name. */
const SORT = apiSort('ops-webhook-list', WEBHOOK_SORTS, 'name');

/**
 * The webhooks of the API: name (a drill-down), the customer it calls (a drill-down), status,
 * the share delivered, the day last sent and the owner; searched by name, id or customer and
 * sorted by the API, paged with "Load more".
 *
 * @summary Webhook list: searchable, sortable, each webhook and customer a drill-down.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A webhook or customer was activated; detail `{ kind: 'webhook' | 'customer', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the list shows the error and Retry.
 * @fires {CustomEvent<SortDetail>} ops-sort - The person sorted by a column; detail `{ sort }` (`name`, `-deliveredPct`, …), also reflected in the `sort` attribute.
 *
 * @csspart base - The panel.
 * @csspart toolbar - The row holding the search box.
 * @csspart table - The table.
 * @csspart row - A table row of one webhook.
 * @csspart badge - A status badge.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @customElement ops-webhook-list
 */
export class OpsWebhookList extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Only webhooks whose name, id or customer's name contains this text, any case (sent as `q`); the search box sets it. */
  @property({ reflect: true }) q = '';

  /** Order: `name` (the default, A–Z), `-name`, `deliveredPct`, `-deliveredPct`, `lastSentAt` or `-lastSentAt`. */
  @property({ reflect: true }) sort: WebhookSort | '' = '';

  /** Webhooks per page, 1–500; another value falls back to 50 with a warning. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  private readonly list: ListController<WebhookQuery, WebhookSummary> = new ListController<WebhookQuery, WebhookSummary>(this, {
    query: () => ({ q: this.q.trim() || undefined, sort: SORT.known(this.sort), limit: validNumber(LIMIT, this.limit) }),
    load: (client, query, { cursor }, signal) => client.listWebhooks({ ...query, cursor }, { signal }),
    cap: MAX_ROWS,
  });

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('sort')) SORT.warnIfUnknown(this.sort);
  }

  override render() {
    return html`<div part="base" class="base">
      <div part="toolbar" class="toolbar">${renderSearch(this.q, 'invoice.paid', (q) => (this.q = q))}</div>
      ${renderDataStates(this.list.first, {
        noun: msg('webhooks'),
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 6),
        empty: () => (this.q.trim() ? msg(str`No webhooks match “${this.q.trim()}”.`) : msg('No webhooks yet.')),
        complete: (_page, busy) => this.renderTable(busy),
      })}
    </div>`;
  }

  private renderTable(busy: boolean) {
    const format = this.formatOptions;
    return renderListTable({
      label: this.forCustomer ? msg('Your webhooks') : msg('Webhooks'),
      rows: this.list.items,
      host: this,
      sorter: SORT,
      busy,
      more: this.list.renderMore(),
      columns: [
        {
          label: msg('Webhook'),
          sort: { key: 'name', ascendingFirst: true },
          cell: (row: WebhookSummary) => this.renderLink({ kind: 'webhook', id: row.id, label: row.name }, row.name, 'row-link'),
        },
        ...this.forOperators({
          label: msg('Customer'),
          cell: (row: WebhookSummary) => this.renderLink({ kind: 'customer', id: row.customer.id, label: row.customer.name }, row.customer.name),
        }),
        { label: msg('Status'), cell: (row) => renderBadge(row.status) },
        { label: msg('Delivered'), sort: { key: 'deliveredPct' }, numeric: true, cell: (row) => formatPercent(row.deliveredPct, format) },
        { label: msg('Last sent'), sort: { key: 'lastSentAt' }, cell: (row) => formatDate(row.lastSentAt, format) },
        ...this.forOperators({ label: msg('Account owner'), cell: (row: WebhookSummary) => (row.owner ? renderPerson(row.owner) : nothing) }),
      ],
    });
  }
}
