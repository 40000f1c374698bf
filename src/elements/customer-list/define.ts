import { OpsCustomerList } from './ops-customer-list.ts';

OpsCustomerList.define('ops-customer-list');

declare global {
  interface HTMLElementTagNameMap {
    'ops-customer-list': OpsCustomerList;
  }
}
