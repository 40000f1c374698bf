import { OpsAlerts } from './ops-alerts.ts';

OpsAlerts.define('ops-alerts');

declare global {
  interface HTMLElementTagNameMap {
    'ops-alerts': OpsAlerts;
  }
}
