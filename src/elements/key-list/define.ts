import { OpsKeyList } from './ops-key-list.ts';

OpsKeyList.define('ops-key-list');

declare global {
  interface HTMLElementTagNameMap {
    'ops-key-list': OpsKeyList;
  }
}
