import { html, svg } from 'lit';
import type { Traffic } from '../../api/schemas.ts';
import { formatChange, formatPercent, formatValue, type FormatOptions } from '../../format/format.ts';
import { renderEndpointName } from '../../shared/endpoint-name.ts';
import { changeTone } from '../../shared/change.ts';
import { renderSortHeaders, sortRows, type SortableColumn, type TableSort } from '../../shared/table.ts';
import { msg } from '../../localize/localize.ts';

export type BreakdownRow = Traffic['breakdown'][number];
export type BreakdownColumn = 'name' | 'value' | 'changePct' | 'sharePct';
export type BreakdownSort = TableSort<BreakdownColumn>;

export const BREAKDOWN_COLUMNS: SortableColumn<BreakdownColumn>[] = [
  { key: 'name', label: () => msg('Name'), numeric: false },
  { key: 'value', label: () => msg('Value'), numeric: true },
  { key: 'changePct', label: () => msg('Change'), numeric: true },
  { key: 'sharePct', label: () => msg('Share'), numeric: true },
];

export const rowName = (row: BreakdownRow) => `${row.method} ${row.path}`;

/** As in the metric cards: more requests or revenue is good news, more latency or errors bad, more bytes neither. */
const RISE_IS_GOOD: Record<string, boolean | null> = { count: true, USD: true, ms: false, percent: false, bytes: null };

/** A share bar drawn with SVG attributes rather than inline styles, so a strict CSP needs no exception. */
const shareBar = (sharePct: number) =>
  svg`<svg class="share-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
    <rect class="share-track" width="100" height="6" rx="3"></rect>
    <rect class="share-fill" width=${Math.max(0, Math.min(100, sharePct))} height="6" rx="3"></rect>
  </svg>`;

/**
 * Breakdown: Name, Value (in its unit), Change (signed, coloured as in the metric cards: a rise is
 * good news for requests and revenue, bad for latency and error rates) and Share (number and bar), sortable. When the rows do not
 * cover all traffic, an "Other" row after them shows the rest of the share.
 */
export function renderBreakdown(rows: readonly BreakdownRow[], sort: BreakdownSort, onSort: (column: BreakdownColumn) => void, format: FormatOptions) {
  // Shares come rounded to tenths: a rest within that rounding is no "Other".
  const rest = Math.round((100 - rows.reduce((sum, row) => sum + row.sharePct, 0)) * 10) / 10;
  const showRest = rest > rows.length * 0.05 + 1e-9;
  return html`<div class="scroller" role="region" aria-label=${msg('Breakdown table')} tabindex="0">
    <table part="breakdown" class="stack">
      <thead>
        <tr>
          ${renderSortHeaders(BREAKDOWN_COLUMNS, sort, onSort)}
        </tr>
      </thead>
      <tbody>
        ${sortRows(rows, sort, (row, column) => (column === 'name' ? rowName(row) : (row[column] ?? -Infinity))).map(
          (row) => html`<tr part="breakdown-row" data-key=${rowName(row)}>
            <th scope="row" class="mono">${renderEndpointName(row.method, row.path)}</th>
            <td class="num">${formatValue(row.value, row.unit, format)}</td>
            <td class="num"><span class="tone-${changeTone(row.changePct, RISE_IS_GOOD[row.unit] ?? null)}">${formatChange(row.changePct, format)}</span></td>
            <td class="num"><span class="share"><span class="share-value">${formatPercent(row.sharePct, format)}</span>${shareBar(row.sharePct)}</span></td>
          </tr>`,
        )}
      </tbody>
      ${
        showRest
          ? html`<tfoot>
            <tr part="breakdown-row" class="other">
              <th scope="row">${msg('Other')}</th>
              <td class="num">—</td>
              <td class="num">—</td>
              <td class="num"><span class="share"><span class="share-value">${formatPercent(rest, format)}</span>${shareBar(rest)}</span></td>
            </tr>
          </tfoot>`
          : ''
      }
    </table>
  </div>`;
}
