import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { EndpointDetail } from '../../api/schemas.ts';
import { formatDay, formatInteger, formatMs, formatPercent, roundToTotal } from '../../format/format.ts';
import { renderBadge, renderStatusCode } from '../../shared/badge.ts';
import { renderDeprecation } from '../../shared/deprecation.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts, requestCount } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { bucketAxis, RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { styles } from './ops-endpoint-detail.styles.ts';
import { msg, str } from '../../localize/localize.ts';

/**
 * One endpoint's page, e.g. `POST /webhooks` under API version v3: its figures over the last 30
 * days or the time range (requests, errors %, p50/p95/p99), requests and p95 latency per day (or per bucket of the range), the status codes it
 * answered, its busiest customers, its error records and its latest requests (the error list and
 * the request log, each filtered to it).
 *
 * @summary Endpoint detail: figures, daily charts, status codes, customers, errors and requests of one endpoint.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - Breadcrumb `{ kind: 'endpoints', id: '' }`, a customer `{ kind: 'customer', id }`, over a time range a bucket of the requests chart `{ kind: 'requests', id: '', from, to, endpointId }`, or from the embedded lists an error record or a request. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 *
 * @csspart header - The breadcrumb, the title and the status badge beside it.
 * @csspart breadcrumb - The `Endpoints / <method> <path>` trail.
 * @csspart facts - The label/value list of the endpoint's figures.
 * @csspart status-codes - The table of requests per status code.
 * @csspart customers - The busiest customers.
 *
 * @customElement ops-endpoint-detail
 */
export class OpsEndpointDetail extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The endpoint to show: a row's `id` from the endpoint table (`ep_…`). */
  @property({ attribute: 'endpoint-id' }) endpointId = '';

  /** Where the "Endpoints" crumb points (http(s) or relative; default: the wrapper's `routes.endpoints`, else `#endpoints`). */
  @property({ attribute: 'endpoints-href' }) endpointsHref?: string;

  private readonly data: DataTask<readonly [string, string], EndpointDetail> = new DataTask(this, {
    args: () => [this.endpointId, JSON.stringify(this.timeRange)] as const,
    load: (client, [id], signal) => client.getEndpoint(id, { signal }, this.timeRange),
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this endpoint'),
      notFound: {
        title: msg('Endpoint not found.'),
        message: msg(str`No endpoint has the id “${this.endpointId}” with requests in the last 30 days. It may be retired, or the link may be wrong.`),
      },
      // Charts, status codes, customers, error records and the log's rows: about the page's height once loaded.
      skeleton: this.forCustomer
        ? ['title', 'facts', 'chart', ['table', 3], ['table', 11]]
        : ['title', 'facts', 'chart', ['table', 3], ['list', 5], ['table', 3], ['table', 11]],
      empty: () => '',
      complete: (endpoint) => this.renderEndpoint(endpoint),
    });
  }

  private renderEndpoint(endpoint: EndpointDetail) {
    const format = this.formatOptions;
    const label = `${endpoint.method} ${endpoint.path}`;
    const none = html`<span class="muted">—</span>`;
    const ms = (value: number | undefined) => (value === undefined ? none : formatMs(value, format));
    // Over a time range, its buckets; else the contract's 30 days.
    const ranged = endpoint.window && endpoint.overTime ? { bucket: endpoint.window.bucket, ...endpoint.overTime } : undefined;
    const series = ranged ?? endpoint.daily;
    const { categories, categoryName } = ranged
      ? bucketAxis(ranged.starts, ranged.bucket, format)
      : { categories: endpoint.daily.days.map((d) => formatDay(d, format)), categoryName: msg('Day') };
    const requests: ChartData = {
      type: 'bar',
      categories,
      categoryName,
      series: [
        { name: msg('Requests'), values: series.requests },
        { name: msg('Server errors'), values: series.errors },
      ],
    };
    const latency: ChartData = { type: 'line', categories, categoryName, series: [{ name: msg('P95 latency'), values: series.p95Ms }] };
    // Over a range, a bucket leads to this endpoint's requests of that time (the days of the default view carry no instants).
    const links = ranged && endpoint.window ? this.bucketLinks(ranged.starts, endpoint.window, categories, { endpointId: endpoint.id }) : undefined;
    const range = this.timeRange;
    return html`${renderDetailHeader(
      [{ label: msg('Endpoints'), target: this.listTarget('endpoints', this.endpointsHref, 'endpoints-href') }, { label }],
      { navigate: this.navigate },
      { status: html`${renderBadge(endpoint.status)} ${endpoint.deprecation ? renderDeprecation(endpoint.deprecation, format) : nothing}` },
    )}
      ${renderFacts([
        [endpoint.window ? msg('Requests') : msg('Requests (30 days)'), formatInteger(endpoint.requests, format)],
        [msg('Errors'), formatPercent(endpoint.errorPct, format)],
        [msg('P50'), ms(endpoint.p50Ms)],
        [msg('P95'), ms(endpoint.p95Ms)],
        [msg('P99'), ms(endpoint.p99Ms)],
        [msg('API version'), endpoint.apiVersion || none],
        ...(endpoint.deprecation?.replacement ? [[msg('Replacement'), endpoint.deprecation.replacement] as [string, unknown]] : []),
      ])}
      <div class="charts">
        <section>
          <h3>${ranged ? msg('Requests over time') : msg('Requests per day')}</h3>
          <ops-chart locale=${ifDefined(format.locale)} label=${ranged ? msg('Requests and server errors over time') : msg('Requests and server errors per day')} .data=${requests}
            .categoryLink=${links?.link}
            @ops-chart-select=${(event: CustomEvent<{ index: number }>) => links?.open(event.detail.index)}
            .formatValue=${(v: number) => formatInteger(v, format)}></ops-chart>
        </section>
        <section>
          <h3>${ranged ? msg('Latency over time') : msg('Latency per day')}</h3>
          <ops-chart locale=${ifDefined(format.locale)} label=${ranged ? msg('P95 latency over time') : msg('P95 latency per day')} .data=${latency} .formatValue=${(
            v: number,
          ) => formatMs(v, format)}></ops-chart>
        </section>
      </div>
      <h3>${msg('Status codes')}</h3>
      ${this.renderStatusCodes(endpoint)}
      ${
        this.forCustomer
          ? nothing
          : html`<h3>${msg('Top customers')}</h3>
            ${this.renderCustomers(endpoint)}
            <h3>${msg('Error records')}</h3>
            <ops-error-list
              endpoint=${label}
              limit="5"
              api-base=${ifDefined(this.apiBase)}
              locale=${ifDefined(this.locale)}
              time-zone=${ifDefined(this.timeZone)}
              theme=${ifDefined(this.theme)}
            ></ops-error-list>`
      }
      <h3>${msg('Latest requests')}</h3>
      <ops-request-log
        endpoint-id=${endpoint.id}
        limit="20"
        range=${ifDefined(range.range)}
        from=${ifDefined(range.from)}
        to=${ifDefined(range.to)}
        api-base=${ifDefined(this.apiBase)}
        locale=${ifDefined(this.locale)}
        time-zone=${ifDefined(this.timeZone)}
        theme=${ifDefined(this.theme)}
        audience=${ifDefined(this.audience)}
      ></ops-request-log>`;
  }

  private renderStatusCodes({ statusCodes, window }: EndpointDetail) {
    if (!statusCodes.length) return html`<p class="muted">${window ? msg('No requests in this range.') : msg('No requests in the last 30 days.')}</p>`;
    const format = this.formatOptions;
    const total = statusCodes.reduce((sum, s) => sum + s.requests, 0);
    // Shares add up to 100.0 as shown, like the overview's.
    const shares = roundToTotal(statusCodes.map((s) => (s.requests / total) * 100));
    return html`<div class="scroller status-codes" role="region" aria-label=${msg('Status codes')} tabindex="0">
      <table part="status-codes">
        <thead>
          <tr>
            <th scope="col">${msg('Status')}</th>
            <th scope="col" class="num">${msg('Requests')}</th>
            <th scope="col" class="num">${msg('Share')}</th>
          </tr>
        </thead>
        <tbody>
          ${statusCodes.map(
            (s, i) =>
              html`<tr>
                <th scope="row">${renderStatusCode(s.status)}</th>
                <td class="num">${formatInteger(s.requests, format)}</td>
                <td class="num">${formatPercent(shares[i]!, format)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private renderCustomers({ topCustomers, window }: EndpointDetail) {
    if (!topCustomers.length)
      return html`<p class="muted">${window ? msg('No customer called this endpoint in this range.') : msg('No customer called this endpoint in the last 30 days.')}</p>`;
    const format = this.formatOptions;
    return html`<ul part="customers" class="related">
      ${topCustomers.map(
        (c) => html`<li>
          ${this.renderLink({ kind: 'customer', id: c.id, label: c.name }, c.name, 'link')}
          <span class="muted">${requestCount(c.requests, format)}</span>
        </li>`,
      )}
    </ul>`;
  }
}
