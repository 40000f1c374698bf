import { OpsTimeRange } from './ops-time-range.ts';

OpsTimeRange.define('ops-time-range');

declare global {
  interface HTMLElementTagNameMap {
    'ops-time-range': OpsTimeRange;
  }
}
