import '../../shared/chart/define.ts';
import { OpsTraffic } from './ops-traffic.ts';

if (!customElements.get('ops-traffic')) customElements.define('ops-traffic', OpsTraffic);

declare global {
  interface HTMLElementTagNameMap {
    'ops-traffic': OpsTraffic;
  }
}
