import '../../shared/chart/define.ts';
import '../error-list/define.ts';
import '../request-log/define.ts';
import { OpsEndpointDetail } from './ops-endpoint-detail.ts';

OpsEndpointDetail.define('ops-endpoint-detail');

declare global {
  interface HTMLElementTagNameMap {
    'ops-endpoint-detail': OpsEndpointDetail;
  }
}
