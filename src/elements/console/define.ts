import { OpsConsole } from './ops-console.ts';

if (!customElements.get('ops-console')) customElements.define('ops-console', OpsConsole);

declare global {
  interface HTMLElementTagNameMap {
    'ops-console': OpsConsole;
  }
}
