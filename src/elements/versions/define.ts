import '../../shared/chart/define.ts';
import { OpsVersions } from './ops-versions.ts';

OpsVersions.define('ops-versions');

declare global {
  interface HTMLElementTagNameMap {
    'ops-versions': OpsVersions;
  }
}
