import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { ApiKey, KeyEndpointShare, KeyRequest, KeyVersionShare } from '../../api/schemas.ts';
import { formatDateTime, formatInteger, formatMs, formatPercent } from '../../format/format.ts';
import { renderBadge, renderStatusCode } from '../../shared/badge.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderListTable } from '../../shared/list-table.ts';
import { renderDetailHeader, renderFacts, requestCount } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { bucketAxis, RangedElement } from '../../shared/time-range.ts';
import { styles } from './ops-key.styles.ts';
import { msg, str } from '../../localize/localize.ts';

/**
 * An API key's page: its customer, creation, last use and revocation; its requests, errors %,
 * p95 and 429s over the time range (the last 30 days unless set), bucket by bucket; the
 * endpoints and API versions it called with their shares; and its latest requests, those made
 * after the key was revoked flagged.
 *
 * @summary API key detail: figures, requests over time, endpoints and versions used, latest requests.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - The "API keys" crumb `{ kind: 'keys', id: '' }`, the customer, an endpoint, a request, or a bucket's requests `{ kind: 'requests', keyId, from, to }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 *
 * @csspart header - The breadcrumb, the title and the status badge beside it.
 * @csspart breadcrumb - The `API keys / <name>` trail.
 * @csspart facts - The label/value list of key facts.
 * @csspart endpoints - The table of endpoints the key called.
 * @csspart versions - The table of API versions it used.
 * @csspart requests - The table of its latest requests.
 * @csspart badge - A status badge.
 *
 * @customElement ops-key
 */
export class OpsKey extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The key to show (its id, as the traffic names it). */
  @property({ attribute: 'key-id' }) keyId = '';

  /** Where the "API keys" crumb points (http(s) or relative; default: the wrapper's `routes.keys`, else `#keys`). */
  @property({ attribute: 'keys-href' }) keysHref?: string;

  private readonly data: DataTask<readonly [string, string], ApiKey> = new DataTask(this, {
    args: () => [this.keyId, JSON.stringify(this.timeRange)] as const,
    load: (client, [id], signal) => client.getKey(id, { signal }, this.timeRange),
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this API key'),
      notFound: {
        title: msg('API key not found.'),
        message: msg(str`No API key has the id “${this.keyId}”, and no request named it. It may belong to another account, or the link may be wrong.`),
      },
      skeleton: ['title', 'facts', 'chart', ['table', 4], ['table', 2], ['table', 10]],
      empty: () => '',
      complete: (key) => this.renderKey(key),
    });
  }

  private renderKey(key: ApiKey) {
    const format = this.formatOptions;
    const none = html`<span class="muted">—</span>`;
    const when = (iso: string | null) => (iso ? formatDateTime(iso, format) : none);
    const { categories, categoryName } = bucketAxis(key.overTime.starts, key.window.bucket, format);
    const requests: ChartData = {
      type: 'bar',
      categories,
      categoryName,
      series: [
        { name: msg('Requests'), values: key.overTime.requests },
        { name: msg('Server errors'), values: key.overTime.errors },
      ],
    };
    const links = this.bucketLinks(key.overTime.starts, key.window, categories, { keyId: key.id });
    const late = key.afterRevocation;
    return html`${renderDetailHeader(
      [{ label: msg('API keys'), target: this.listTarget('keys', this.keysHref, 'keys-href') }, { label: key.name ?? key.id }],
      { navigate: this.navigate },
      { status: renderBadge(key.status) },
    )}
      ${renderFacts([
        [msg('Key'), html`<span class="mono">${key.id}</span>`],
        ...this.forOperators<[string, unknown]>([
          msg('Customer'),
          key.customer ? this.renderLink({ kind: 'customer', id: key.customer.id, label: key.customer.name }, key.customer.name) : none,
        ]),
        [msg('Created'), when(key.createdAt)],
        [msg('Last used'), key.lastUsedAt ? formatDateTime(key.lastUsedAt, format) : msg('Never')],
        ...(key.revokedAt ? [[msg('Revoked'), when(key.revokedAt)] as [string, unknown]] : []),
        ...(late
          ? [
              [
                msg('Used after revocation'),
                late.requests && late.lastAt
                  ? html`<span class="warning">${requestCount(late.requests, format)}</span>
                      <div class="when">${msg(str`Last ${formatDateTime(late.lastAt, format)}`, { desc: 'The latest of them: Last 14 Sep 2026 at 09:40' })}</div>`
                  : msg('Not since'),
              ] as [string, unknown],
            ]
          : []),
        [msg('Requests'), formatInteger(key.requests, format)],
        [msg('Errors'), key.requests ? formatPercent(key.errorPct, format) : none],
        [msg('P95'), key.p95Ms === null ? none : formatMs(key.p95Ms, format)],
        [msg('429s'), formatInteger(key.throttled, format)],
      ])}
      <h3>${msg('Requests over time')}</h3>
      <ops-chart
        locale=${ifDefined(format.locale)}
        label=${msg('Requests and server errors over time')}
        .data=${requests}
        .categoryLink=${links.link}
        @ops-chart-select=${(event: CustomEvent<{ index: number }>) => links.open(event.detail.index)}
        .formatValue=${(v: number) => formatInteger(v, format)}
      ></ops-chart>
      <div class="shares">
        <section>
          <h3>${msg('Endpoints')}</h3>
          ${this.renderEndpoints(key)}
        </section>
        <section>
          <h3>${msg('API versions')}</h3>
          ${this.renderVersions(key)}
        </section>
      </div>
      <h3>${msg('Latest requests')}</h3>
      ${this.renderRequests(key)}
      <p>${this.renderLink(this.listTarget('requests', undefined, 'requests-href', { keyId: key.id }), msg('All requests with this key'), 'link')}</p>`;
  }

  private renderEndpoints({ endpoints }: ApiKey) {
    if (!endpoints.length) return html`<p class="muted">${msg('No requests in this range.')}</p>`;
    const format = this.formatOptions;
    return html`<div part="endpoints">
      ${renderListTable({
        label: msg('Endpoints'),
        rows: endpoints,
        busy: false,
        more: nothing,
        columns: [
          { label: msg('Endpoint'), cell: (e: KeyEndpointShare) => this.renderLink({ kind: 'endpoint', id: e.id, label: e.label }, e.label, 'link mono') },
          { label: msg('Version'), cell: (e) => e.apiVersion ?? html`<span class="muted">${msg('None')}</span>` },
          { label: msg('Requests'), numeric: true, cell: (e) => formatInteger(e.requests, format) },
          { label: msg('Share'), numeric: true, cell: (e) => formatPercent(e.sharePct, format) },
        ],
      })}
    </div>`;
  }

  private renderVersions({ versions }: ApiKey) {
    if (!versions.length) return html`<p class="muted">${msg('No requests in this range.')}</p>`;
    const format = this.formatOptions;
    return html`<div part="versions">
      ${renderListTable({
        label: msg('API versions'),
        rows: versions.map((v) => ({ ...v, id: v.version ?? '' })),
        busy: false,
        more: nothing,
        columns: [
          { label: msg('Version'), cell: (v: KeyVersionShare) => v.version ?? msg('None') },
          { label: msg('Requests'), numeric: true, cell: (v) => formatInteger(v.requests, format) },
          { label: msg('Share'), numeric: true, cell: (v) => formatPercent(v.sharePct, format) },
        ],
      })}
    </div>`;
  }

  private renderRequests({ latestRequests }: ApiKey) {
    if (!latestRequests.length) return html`<p class="muted">${msg('No requests with this key yet.')}</p>`;
    const format = this.formatOptions;
    return html`<div part="requests">
      ${renderListTable({
        label: msg('Latest requests'),
        rows: latestRequests,
        busy: false,
        more: nothing,
        columns: [
          {
            label: msg('Time'),
            cell: (r: KeyRequest) =>
              html`${this.renderLink({ kind: 'request', id: r.id, label: `${r.method} ${r.path}` }, formatDateTime(r.time, format), 'link')}
              ${r.afterRevocation ? html`<span part="badge badge-danger" class="badge tone-danger" data-tone="danger">${msg('After revocation')}</span>` : nothing}`,
          },
          { label: msg('Request'), className: 'mono wide', labelled: false, cell: (r) => `${r.method} ${r.path}` },
          { label: msg('Status'), cell: (r) => renderStatusCode(r.status) },
          { label: msg('Duration'), numeric: true, cell: (r) => formatMs(r.durationMs, format) },
        ],
      })}
    </div>`;
  }
}
