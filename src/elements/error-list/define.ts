import { OpsErrorList } from './ops-error-list.ts';

OpsErrorList.define('ops-error-list');

declare global {
  interface HTMLElementTagNameMap {
    'ops-error-list': OpsErrorList;
  }
}
