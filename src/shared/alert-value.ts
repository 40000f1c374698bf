import type { Alert } from '../api/schemas.ts';
import { formatInteger, formatMs, formatPercent, type FormatOptions } from '../format/format.ts';
import { msg, str } from '../localize/localize.ts';

/** An alert's value (or threshold) in its rule's unit: "6.8%", "240 ms", "1,204", "3.2×". */
export function alertValue(metric: Alert['metric'], value: number, format: FormatOptions): string {
  switch (metric) {
    case 'errorRate':
      return formatPercent(value, format);
    case 'p95':
    case 'p99':
      return formatMs(value, format);
    case 'spike':
    case 'burnRate':
      return msg(str`${value}×`, { desc: 'A multiple: 3.2×' });
    default:
      return formatInteger(value, format);
  }
}
