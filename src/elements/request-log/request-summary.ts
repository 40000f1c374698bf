import { html } from 'lit';
import type { RequestSummary } from '../../api/schemas.ts';
import { formatInteger, formatMs, type FormatOptions } from '../../format/format.ts';
import { renderStatusCode } from '../../shared/badge.ts';
import { renderSortHeader } from '../../shared/table.ts';

export type SummaryGroup = RequestSummary['groups'][number];
export type SummaryColumn = 'endpoint' | 'status' | 'durationMs' | 'thisWeek';
export interface SummarySort {
  column: SummaryColumn;
  descending: boolean;
}

const COLUMNS: { key: SummaryColumn; label: string; numeric: boolean }[] = [
  { key: 'endpoint', label: 'Endpoint', numeric: false },
  { key: 'status', label: 'Status', numeric: false },
  { key: 'durationMs', label: 'Duration', numeric: true },
  { key: 'thisWeek', label: 'This week', numeric: true },
];

const label = (g: SummaryGroup) => `${g.method} ${g.path}`;

export function sortGroups(groups: readonly SummaryGroup[], { column, descending }: SummarySort): SummaryGroup[] {
  const sign = descending ? -1 : 1;
  const value = (g: SummaryGroup): string | number => (column === 'endpoint' ? label(g) : g[column]);
  return [...groups].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
}

/** The summary table: one row per method, path and status with its typical duration and this week's count. */
export function renderSummary(groups: readonly SummaryGroup[], sort: SummarySort, onSort: (column: SummaryColumn) => void, format: FormatOptions) {
  return html`<div class="scroller" role="region" aria-label="Request summary" tabindex="0">
    <table part="summary-table">
      <thead>
        <tr>
          ${COLUMNS.map((column) =>
            renderSortHeader(
              column.label,
              sort.column === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none',
              () => onSort(column.key),
              column.numeric,
            ),
          )}
        </tr>
      </thead>
      <tbody>
        ${sortGroups(groups, sort).map(
          (g) => html`<tr part="summary-row">
            <th scope="row" class="mono">${label(g)}</th>
            <td>${renderStatusCode(g.status)}</td>
            <td class="num">${formatMs(g.durationMs, format)}</td>
            <td class="num">${formatInteger(g.thisWeek, format)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
