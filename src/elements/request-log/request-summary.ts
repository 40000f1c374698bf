import { html } from 'lit';
import type { RequestSummary } from '../../api/schemas.ts';
import { formatInteger, formatMs, type FormatOptions } from '../../format/format.ts';
import { renderEndpointName } from '../../shared/endpoint-name.ts';
import { renderStatusCode } from '../../shared/badge.ts';
import { renderSortHeaders, sortRows, type SortableColumn, type TableSort } from '../../shared/table.ts';
import { msg } from '../../localize/localize.ts';

export type SummaryGroup = RequestSummary['groups'][number];
export type SummaryColumn = 'endpoint' | 'status' | 'durationMs' | 'thisWeek';
export type SummarySort = TableSort<SummaryColumn>;

export const SUMMARY_COLUMNS: SortableColumn<SummaryColumn>[] = [
  { key: 'endpoint', label: () => msg('Endpoint'), numeric: false },
  { key: 'status', label: () => msg('Status'), numeric: false },
  { key: 'durationMs', label: () => msg('Duration'), numeric: true },
  { key: 'thisWeek', label: () => msg('This week'), numeric: true },
];

const label = (g: SummaryGroup) => `${g.method} ${g.path}`;

/** The summary table: one row per method, path and status with its typical duration and this week's count. */
export function renderSummary(groups: readonly SummaryGroup[], sort: SummarySort, onSort: (column: SummaryColumn) => void, format: FormatOptions) {
  return html`<div class="scroller" role="region" aria-label=${msg('Request summary')} tabindex="0">
    <table part="summary-table" class="stack">
      <thead>
        <tr>
          ${renderSortHeaders(SUMMARY_COLUMNS, sort, onSort)}
        </tr>
      </thead>
      <tbody>
        ${sortRows(groups, sort, (g, column) => (column === 'endpoint' ? label(g) : g[column])).map(
          (g) => html`<tr part="summary-row">
            <th scope="row" class="mono">${renderEndpointName(g.method, g.path)}</th>
            <td>${renderStatusCode(g.status)}</td>
            <td class="num">${formatMs(g.durationMs, format)}</td>
            <td class="num">${formatInteger(g.thisWeek, format)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
