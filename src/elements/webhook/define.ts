import '../../shared/chart/define.ts';
import { OpsWebhook } from './ops-webhook.ts';

if (!customElements.get('ops-webhook')) customElements.define('ops-webhook', OpsWebhook);

declare global {
  interface HTMLElementTagNameMap {
    'ops-webhook': OpsWebhook;
  }
}
