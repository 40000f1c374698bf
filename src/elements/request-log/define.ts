import { OpsRequestLog } from './ops-request-log.ts';

OpsRequestLog.define('ops-request-log');

declare global {
  interface HTMLElementTagNameMap {
    'ops-request-log': OpsRequestLog;
  }
}
