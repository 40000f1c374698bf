import '../../shared/chart/define.ts';
import { OpsError } from './ops-error.ts';

if (!customElements.get('ops-error')) customElements.define('ops-error', OpsError);

declare global {
  interface HTMLElementTagNameMap {
    'ops-error': OpsError;
  }
}
