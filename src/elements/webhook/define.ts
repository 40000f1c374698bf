import '../../shared/chart/define.ts';
import { OpsWebhook } from './ops-webhook.ts';

OpsWebhook.define('ops-webhook');

declare global {
  interface HTMLElementTagNameMap {
    'ops-webhook': OpsWebhook;
  }
}
