import '../../shared/chart/define.ts';
import { OpsTraffic } from './ops-traffic.ts';

OpsTraffic.define('ops-traffic');

declare global {
  interface HTMLElementTagNameMap {
    'ops-traffic': OpsTraffic;
  }
}
