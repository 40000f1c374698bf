import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import type { Webhook } from '../../api/schemas.ts';
import { formatDate, formatInteger, formatPercent } from '../../format/format.ts';
import { renderBadge } from '../../shared/badge.ts';
import { DataTask } from '../../shared/data-task.ts';
import { renderDetailHeader, renderFacts, renderPerson, renderRelatedEndpoints } from '../../shared/detail.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { countChart, RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { styles } from './ops-webhook.styles.ts';
import { msg, str } from '../../localize/localize.ts';
import { ifDefined } from 'lit/directives/if-defined.js';

/**
 * A webhook's page, e.g. `invoice.paid`: delivery rate, last send, status, owner, related
 * endpoints and monthly activity.
 *
 * @summary Webhook detail with breadcrumb and monthly activity chart.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - Breadcrumb `{ kind: 'webhooks', id: '' }`, customer `{ kind: 'customer', id }` or related endpoint. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the page shows the error and Retry.
 *
 * @csspart header - The breadcrumb, the title and the status badge beside it.
 * @csspart breadcrumb - The `Webhooks / <name>` trail.
 * @csspart facts - The label/value list of key facts.
 * @csspart related - The related endpoints.
 *
 * @customElement ops-webhook
 */
export class OpsWebhook extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** The webhook to show. */
  @property({ attribute: 'webhook-id' }) webhookId = '';

  /** Where the "Webhooks" crumb points (http(s) or relative; default: the wrapper's `routes.webhooks`, else `#webhooks`). */
  @property({ attribute: 'webhooks-href' }) webhooksHref?: string;

  private readonly data: DataTask<readonly [string, string], Webhook> = new DataTask(this, {
    args: () => [this.webhookId, JSON.stringify(this.timeRange)] as const,
    load: (client, [id], signal) => client.getWebhook(id, { signal }, this.timeRange),
  });

  override render() {
    return renderDataStates(this.data, {
      noun: msg('this webhook'),
      notFound: {
        title: msg('Webhook not found.'),
        message: msg(str`No webhook has the id “${this.webhookId}”. It may have been deleted, or the link may be wrong.`),
      },
      skeleton: ['title', 'facts', 'chart'],
      empty: () => '',
      complete: (webhook) => this.renderWebhook(webhook),
    });
  }

  private renderWebhook(webhook: Webhook) {
    const format = this.formatOptions;
    const activity = countChart(webhook.activity, webhook, msg('Deliveries'), format);
    return html`${renderDetailHeader(
      [{ label: msg('Webhooks'), target: this.listTarget('webhooks', this.webhooksHref, 'webhooks-href') }, { label: webhook.name }],
      { navigate: this.navigate },
      { status: renderBadge(webhook.status) },
    )}
      ${renderFacts([
        ...this.forOperators<[string, unknown]>([
          msg('Customer'),
          this.renderLink({ kind: 'customer', id: webhook.customer.id, label: webhook.customer.name }, webhook.customer.name),
        ]),
        [msg('Delivered'), formatPercent(webhook.deliveredPct, format)],
        [msg('Last sent'), formatDate(webhook.lastSentAt, format)],
        ...this.forOperators<[string, unknown]>([msg('Account owner'), webhook.owner ? renderPerson(webhook.owner) : nothing]),
      ])}
      <h3>${msg('Related endpoints')}</h3>
      ${renderRelatedEndpoints({ related: webhook.relatedEndpoints, format }, { link: (target, label, className) => this.renderLink(target, label, className) })}
      <h3>${msg('Activity')}</h3>
      <ops-chart locale=${ifDefined(format.locale)} label=${webhook.countsOverTime ? msg('Deliveries over time') : msg('Deliveries per month')} .data=${activity} .formatValue=${(v: number) => formatInteger(v, format)}></ops-chart>`;
  }
}
