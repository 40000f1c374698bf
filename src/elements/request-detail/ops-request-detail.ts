import { html } from 'lit';
import { property } from 'lit/decorators.js';
import type { RequestDetail } from '../../api/schemas.ts';
import { formatBytes, formatDateTime, formatMs } from '../../format/format.ts';
import { renderStatusCode } from '../../shared/badge.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts, renderPerson } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { styles } from './ops-request-detail.styles.ts';
import { msg, str } from '../../localize/localize.ts';

/**
 * One request of the log, e.g. `POST /webhooks/wh_9` answered `500`: its endpoint, duration,
 * time, actor, customer, key, API version, response size and the request headers the collector
 * was allowed to keep (as its redact hook left them). What the collector did not record shows `—`.
 *
 * @summary Request detail: everything recorded about one request.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - Breadcrumb `{ kind: 'requests', id: '' }`, endpoint `{ kind: 'endpoint', id }`, customer `{ kind: 'customer', id }` or API key `{ kind: 'key', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 *
 * @csspart header - The breadcrumb, the title and the status code beside it.
 * @csspart breadcrumb - The `Requests / <method> <path>` trail.
 * @csspart facts - The label/value list of what was recorded.
 * @csspart headers - The table of kept request headers.
 *
 * @customElement ops-request-detail
 */
export class OpsRequestDetail extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The request to show: an `id` from the request log (`rq_…`). */
  @property({ attribute: 'request-id' }) requestId = '';

  /** Where the "Requests" crumb points (http(s) or relative; default: the wrapper's `routes.requests`, else `#requests`). */
  @property({ attribute: 'requests-href' }) requestsHref?: string;

  private readonly data: DataTask<readonly [string], RequestDetail> = new DataTask(this, {
    args: () => [this.requestId] as const,
    load: (client, [id], signal) => client.getRequest(id, { signal }),
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this request'),
      notFound: {
        title: msg('Request not found.'),
        message: msg(str`No request has the id “${this.requestId}”. It may be older than the log keeps, or the link may be wrong.`),
      },
      skeleton: ['title', 'facts', ['table', 4]],
      empty: () => '',
      complete: (request) => this.renderRequest(request),
    });
  }

  private renderRequest(request: RequestDetail) {
    const format = this.formatOptions;
    const title = `${request.method} ${request.path}`;
    const endpointLabel = `${request.method} ${request.route ?? request.path}`;
    const none = html`<span class="muted">—</span>`;
    return html`${renderDetailHeader(
      [{ label: msg('Requests'), target: this.listTarget('requests', this.requestsHref, 'requests-href') }, { label: title }],
      { navigate: this.navigate },
      { status: renderStatusCode(request.status) },
    )}
      ${renderFacts([
        [
          msg('Endpoint'),
          request.endpointId
            ? this.renderLink({ kind: 'endpoint', id: request.endpointId, label: endpointLabel }, endpointLabel, 'link mono')
            : html`<span class="mono">${endpointLabel}</span>`,
        ],
        [msg('Duration'), formatMs(request.durationMs, format)],
        [msg('Time'), html`<time datetime=${request.time}>${formatDateTime(request.time, format)}</time>`],
        [msg('Actor'), renderPerson(request.actor)],
        ...this.forOperators<[string, unknown]>([
          msg('Customer'),
          request.customer ? this.renderLink({ kind: 'customer', id: request.customer.id, label: request.customer.name }, request.customer.name) : none,
        ]),
        [msg('Key'), request.keyId ? this.renderLink({ kind: 'key', id: request.keyId, label: request.keyId }, request.keyId, 'link mono') : none],
        [msg('API version'), request.apiVersion || none],
        [msg('Response size'), request.bytes == null ? none : formatBytes(request.bytes, format)],
      ])}
      <h3>${msg('Headers')}</h3>
      ${this.renderHeaders(request.headers ?? [])}`;
  }

  private renderHeaders(headers: NonNullable<RequestDetail['headers']>) {
    if (!headers.length)
      return html`<p class="muted headers-empty">${msg('No headers were kept for this request: the collector keeps only those it is told to.')}</p>`;
    return html`<div class="scroller" role="region" aria-label=${msg('Request headers')} tabindex="0">
      <table part="headers" class="headers">
        <thead>
          <tr><th scope="col">${msg('Name')}</th><th scope="col">${msg('Value')}</th></tr>
        </thead>
        <tbody>
          ${headers.map((h) => html`<tr><th scope="row" class="mono">${h.name}</th><td class="mono">${h.value}</td></tr>`)}
        </tbody>
      </table>
    </div>`;
  }
}
