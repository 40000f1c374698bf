import '../../shared/chart/define.ts';
import '../activity-feed/define.ts';
import '../endpoint-table/define.ts';
import { OpsOverview } from './ops-overview.ts';

if (!customElements.get('ops-overview')) customElements.define('ops-overview', OpsOverview);

declare global {
  interface HTMLElementTagNameMap {
    'ops-overview': OpsOverview;
  }
}
