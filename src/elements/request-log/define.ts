import { OpsRequestLog } from './ops-request-log.ts';

if (!customElements.get('ops-request-log')) customElements.define('ops-request-log', OpsRequestLog);

declare global {
  interface HTMLElementTagNameMap {
    'ops-request-log': OpsRequestLog;
  }
}
