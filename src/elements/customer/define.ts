import '../key-list/define.ts';
import '../request-log/define.ts';
import '../traffic/define.ts';
import { OpsCustomer } from './ops-customer.ts';

OpsCustomer.define('ops-customer');

declare global {
  interface HTMLElementTagNameMap {
    'ops-customer': OpsCustomer;
  }
}
