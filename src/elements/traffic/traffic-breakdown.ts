import { html, svg } from 'lit';
import type { Traffic } from '../../api/schemas.ts';
import { formatChange, formatPercent, formatValue, type FormatOptions } from '../../format/format.ts';
import { renderSortHeader } from '../../shared/table.ts';

export type BreakdownRow = Traffic['breakdown'][number];
export type BreakdownColumn = 'name' | 'value' | 'changePct' | 'sharePct';
export interface BreakdownSort {
  column: BreakdownColumn;
  descending: boolean;
}

const COLUMNS: { key: BreakdownColumn; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'value', label: 'Value' },
  { key: 'changePct', label: 'Change' },
  { key: 'sharePct', label: 'Share' },
];

export const rowName = (row: BreakdownRow) => `${row.method} ${row.path}`;

export function sortBreakdown(rows: readonly BreakdownRow[], { column, descending }: BreakdownSort): BreakdownRow[] {
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) =>
    column === 'name' ? sign * rowName(a).localeCompare(rowName(b)) : sign * (a[column] - b[column]),
  );
}

/** A share bar drawn with SVG attributes rather than inline styles, so a strict CSP needs no exception. */
const shareBar = (sharePct: number) =>
  svg`<svg class="share-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
    <rect class="share-track" width="100" height="6" rx="3"></rect>
    <rect class="share-fill" width=${Math.max(0, Math.min(100, sharePct))} height="6" rx="3"></rect>
  </svg>`;

/** Breakdown: Name, Value (in its unit), Change (signed) and Share (number and bar), sortable. */
export function renderBreakdown(rows: readonly BreakdownRow[], sort: BreakdownSort, onSort: (column: BreakdownColumn) => void, format: FormatOptions) {
  return html`<div class="scroller" role="region" aria-label="Breakdown table" tabindex="0">
    <table part="breakdown">
      <thead>
        <tr>
          ${COLUMNS.map((column) =>
            renderSortHeader(
              column.label,
              sort.column === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none',
              () => onSort(column.key),
              column.key !== 'name',
            ),
          )}
        </tr>
      </thead>
      <tbody>
        ${sortBreakdown(rows, sort).map(
          (row) => html`<tr part="breakdown-row" data-key=${rowName(row)}>
            <th scope="row" class="mono">${rowName(row)}</th>
            <td class="num">${formatValue(row.value, row.unit, format)}</td>
            <td class="num">${formatChange(row.changePct, format)}</td>
            <td class="num"><span class="share"><span class="share-value">${formatPercent(row.sharePct, format)}</span>${shareBar(row.sharePct)}</span></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
