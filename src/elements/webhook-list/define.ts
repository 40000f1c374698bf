import { OpsWebhookList } from './ops-webhook-list.ts';

OpsWebhookList.define('ops-webhook-list');

declare global {
  interface HTMLElementTagNameMap {
    'ops-webhook-list': OpsWebhookList;
  }
}
