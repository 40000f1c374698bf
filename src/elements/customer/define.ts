import { OpsCustomer } from './ops-customer.ts';

if (!customElements.get('ops-customer')) customElements.define('ops-customer', OpsCustomer);

declare global {
  interface HTMLElementTagNameMap {
    'ops-customer': OpsCustomer;
  }
}
