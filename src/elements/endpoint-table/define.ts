import { OpsEndpointTable } from './ops-endpoint-table.ts';

if (!customElements.get('ops-endpoint-table')) customElements.define('ops-endpoint-table', OpsEndpointTable);

declare global {
  interface HTMLElementTagNameMap {
    'ops-endpoint-table': OpsEndpointTable;
  }
}
