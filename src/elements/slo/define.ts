import { OpsSlo } from './ops-slo.ts';

OpsSlo.define('ops-slo');

declare global {
  interface HTMLElementTagNameMap {
    'ops-slo': OpsSlo;
  }
}
