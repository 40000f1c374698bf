import { OpsEndpointTable } from './ops-endpoint-table.ts';

OpsEndpointTable.define('ops-endpoint-table');

declare global {
  interface HTMLElementTagNameMap {
    'ops-endpoint-table': OpsEndpointTable;
  }
}
