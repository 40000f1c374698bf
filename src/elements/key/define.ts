import '../../shared/chart/define.ts';
import { OpsKey } from './ops-key.ts';

OpsKey.define('ops-key');

declare global {
  interface HTMLElementTagNameMap {
    'ops-key': OpsKey;
  }
}
