import '../../shared/chart/define.ts';
import '../activity-feed/define.ts';
import '../endpoint-table/define.ts';
import { OpsOverview } from './ops-overview.ts';

OpsOverview.define('ops-overview');

declare global {
  interface HTMLElementTagNameMap {
    'ops-overview': OpsOverview;
  }
}
