import { OpsAlertRules } from './ops-alert-rules.ts';

OpsAlertRules.define('ops-alert-rules');

declare global {
  interface HTMLElementTagNameMap {
    'ops-alert-rules': OpsAlertRules;
  }
}
