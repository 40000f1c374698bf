import { html } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { RequestDetail } from '../../api/schemas.ts';
import { formatBytes, formatDateTime, formatMs } from '../../format/format.ts';
import { renderStatusCode } from '../../shared/badge.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts, renderPerson } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { curlOf, renderBody, renderMasked } from '../../shared/body-view.ts';
import { styles } from './ops-request-detail.styles.ts';
import { msg, str } from '../../localize/localize.ts';

/**
 * One request of the log, e.g. `POST /webhooks/wh_9` answered `500`: its endpoint, duration,
 * time, actor, customer, key, API version, response size, and both sides' headers and bodies as
 * the server kept them (secrets already `[masked]`): JSON pretty-printed and foldable, other text
 * as text, a long body drawn in part until "Show all", with "Copy body" and "Copy as curl". A body
 * is always shown as text, whatever it holds. What the collector did not record shows `—`;
 * headers and bodies no longer kept say so.
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
 * @csspart response-headers - The table of kept response headers.
 * @csspart request-body - The request body: its type, size, actions and text.
 * @csspart response-body - The response body.
 *
 * @customElement ops-request-detail
 */
export class OpsRequestDetail extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The request to show: an `id` from the request log (`rq_…`). */
  @property({ attribute: 'request-id' }) requestId = '';

  /** Where the "Requests" crumb points (http(s) or relative; default: the wrapper's `routes.requests`, else `#requests`). */
  @property({ attribute: 'requests-href' }) requestsHref?: string;

  /** The bodies drawn whole after "Show all". */
  @state() private wholeBodies: ReadonlySet<string> = new Set();
  /** What the last copy did, read out to screen readers. */
  @state() private copied = '';

  private readonly data: DataTask<readonly [string], RequestDetail> = new DataTask(this, {
    args: () => [this.requestId] as const,
    load: (client, [id], signal) => client.getRequest(id, { signal }),
  });

  override willUpdate(changed: Map<PropertyKey, unknown>) {
    super.willUpdate(changed);
    // Another request's bodies start drawn in part again, and nothing is said of its copies yet.
    if (changed.has('requestId')) {
      this.wholeBodies = new Set();
      this.copied = '';
    }
  }

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this request'),
      notFound: {
        title: msg('Request not found.'),
        message: msg(str`No request has the id “${this.requestId}”. It may be older than the log keeps, or the link may be wrong.`),
      },
      // The facts, then each side's headers and body (a box, as the body's view is).
      skeleton: ['title', 'facts', ['table', 4], 'chart', ['table', 2], 'chart'],
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
      ${this.renderPayload(request)}`;
  }

  private renderPayload(request: RequestDetail) {
    const state =
      request.payload ?? (request.headers?.length || request.requestBody || request.responseBody || request.responseHeaders?.length ? 'kept' : 'none');
    if (state === 'removed')
      return html`<h3>${msg('Headers')}</h3>
        <p class="muted payload-gone">
          <strong>${msg('Payload no longer kept')}</strong>: ${msg('its headers and bodies passed their retention, or were erased.')}
        </p>`;
    if (state === 'hidden')
      return html`<h3>${msg('Headers')}</h3><p class="muted payload-hidden">${msg('Headers and bodies are not shown to this session.')}</p>`;
    if (state !== 'kept')
      return html`<h3>${msg('Headers')}</h3>
        <p class="muted headers-empty">${msg('No headers were kept for this request: the collector keeps only those it is told to.')}</p>`;
    const body = (side: 'request' | 'response', label: string) =>
      html`<section part=${`${side}-body`} class="body">
        <h3>${label}</h3>
        ${renderBody(side === 'request' ? request.requestBody : request.responseBody, {
          label,
          format: this.formatOptions,
          whole: this.wholeBodies.has(side),
          showAll: () => (this.wholeBodies = new Set([...this.wholeBodies, side])),
          copy: (text) => void this.copy(text),
        })}
      </section>`;
    return html`<div class="payload-actions">
        <button type="button" class="button curl" @click=${() => void this.copy(curlOf(request))}>${msg('Copy as curl')}</button>
        <span class="visually-hidden copied" role="status">${this.copied}</span>
      </div>
      <h3>${msg('Request headers')}</h3>
      ${this.renderHeaders(request.headers ?? [], 'headers', msg('Request headers'))} ${body('request', msg('Request body'))}
      <h3>${msg('Response headers')}</h3>
      ${this.renderHeaders(request.responseHeaders ?? [], 'response-headers', msg('Response headers'))} ${body('response', msg('Response body'))}`;
  }

  /** Copies text to the clipboard and says whether it could. */
  private async copy(text: string) {
    // Emptied first, so that a second copy is announced again.
    this.copied = '';
    await this.updateComplete;
    try {
      await navigator.clipboard.writeText(text);
      this.copied = msg('Copied.');
    } catch {
      this.copied = msg('The browser did not allow copying.');
    }
  }

  private renderHeaders(headers: NonNullable<RequestDetail['headers']>, part: string, label: string) {
    if (!headers.length) return html`<p class="muted headers-empty">${msg('None kept.')}</p>`;
    return html`<div class="scroller" role="region" aria-label=${label} tabindex="0">
      <table part=${part} class="headers">
        <thead>
          <tr><th scope="col">${msg('Name')}</th><th scope="col">${msg('Value')}</th></tr>
        </thead>
        <tbody>
          ${headers.map((h) => html`<tr><th scope="row" class="mono">${h.name}</th><td class="mono">${renderMasked(h.value, { wrap: true })}</td></tr>`)}
        </tbody>
      </table>
    </div>`;
  }
}
