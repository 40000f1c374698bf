import { OpsRequestDetail } from './ops-request-detail.ts';

OpsRequestDetail.define('ops-request-detail');

declare global {
  interface HTMLElementTagNameMap {
    'ops-request-detail': OpsRequestDetail;
  }
}
