/** Sortable data tables: the header button with `aria-sort`, and the styles every table shares. */
import { css, html } from 'lit';

export type SortDirection = 'ascending' | 'descending' | 'none';

const ICONS: Record<SortDirection, string> = { ascending: '▲', descending: '▼', none: '↕' };

/** A column header whose button sorts; `aria-sort` tells screen readers the current order. */
export function renderSortHeader(label: string, direction: SortDirection, onSort: () => void, numeric = false) {
  return html`<th scope="col" class=${numeric ? 'num' : ''} aria-sort=${direction}>
    <button type="button" class="sort" @click=${onSort}>${label}<span class="sort-icon" aria-hidden="true">${ICONS[direction]}</span></button>
  </th>`;
}

export const tableStyles = css`
  .scroller {
    overflow-x: auto;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    padding: calc(var(--_space) * 0.75) var(--_space);
    text-align: left;
    border-bottom: 1px solid var(--_border);
    white-space: nowrap;
  }
  tbody tr:last-child > * {
    border-bottom: none;
  }
  thead th {
    font-weight: 600;
    color: var(--_muted);
    background: var(--_surface-raised);
  }
  .num {
    text-align: right;
  }
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-weight: 500;
    white-space: normal;
    overflow-wrap: anywhere;
  }
  .sort {
    font: inherit;
    font-weight: 600;
    color: var(--_muted);
    background: none;
    border: none;
    padding: 0;
    cursor: pointer;
    text-align: inherit;
  }
  .sort-icon {
    display: inline-block;
    width: 1em;
    margin-left: 0.2em;
    font-size: 0.8em;
  }
`;
