import { OpsErrorForm } from './ops-error-form.ts';

if (!customElements.get('ops-error-form')) customElements.define('ops-error-form', OpsErrorForm);

declare global {
  interface HTMLElementTagNameMap {
    'ops-error-form': OpsErrorForm;
  }
}
