import { OpsErrorForm } from './ops-error-form.ts';

OpsErrorForm.define('ops-error-form');

declare global {
  interface HTMLElementTagNameMap {
    'ops-error-form': OpsErrorForm;
  }
}
