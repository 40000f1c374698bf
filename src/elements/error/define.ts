import '../../shared/chart/define.ts';
import { OpsError } from './ops-error.ts';

OpsError.define('ops-error');

declare global {
  interface HTMLElementTagNameMap {
    'ops-error': OpsError;
  }
}
