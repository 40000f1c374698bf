import { OpsConsole } from './ops-console.ts';

OpsConsole.define('ops-console');

declare global {
  interface HTMLElementTagNameMap {
    'ops-console': OpsConsole;
  }
}
