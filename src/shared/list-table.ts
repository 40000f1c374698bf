/**
 * The table of a list element, from its columns: a header per column (a sort button for those the
 * API sorts), a row per item with the first column as the row's header, cells labelled for the
 * narrow layout, in a scrolling region named for the list. The list elements differ only in
 * their columns.
 */
import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { repeat } from 'lit/directives/repeat.js';
import type { ApiSortColumn, ApiSortedList } from './table.ts';

/** One column of a list table, over `V`, what a row is shown as. */
export interface ListColumn<V> {
  label: string;
  /** Sorted through the API under `key` (a sort button in its header). */
  sort?: Omit<ApiSortColumn, 'label' | 'numeric'>;
  /** A figure: aligned to the end, and sorted largest first. */
  numeric?: boolean;
  /** Classes of its cells besides `num`. */
  className?: string;
  /** Whether its cells carry their label for the narrow layout, where each row is a card (default: yes). */
  labelled?: boolean;
  cell: (view: V) => unknown;
}

/** The column headers a list sorted through the API draws (`apiSort(…).header`). */
export interface ListSorter<S extends string> {
  header(list: ApiSortedList<S>, column: ApiSortColumn): unknown;
}

export interface ListTable<R extends { id: string }, V, S extends string> {
  /** The accessible name of the scrolling region. */
  label: string;
  rows: readonly R[];
  /** What a row is shown as (a row with an edit in flight, say); default: the row itself. */
  view?: (row: R) => V;
  columns: readonly ListColumn<V>[];
  /** A page is loading: the table says so to assistive technology. */
  busy: boolean;
  /** The list its sortable columns change (with `sorter`); a table sorted by its answer has neither. */
  host?: ApiSortedList<S>;
  sorter?: ListSorter<S>;
  /** What follows the table: the list's "Load more". */
  more: unknown;
}

export function renderListTable<R extends { id: string }, V = R, S extends string = string>(table: ListTable<R, V, S>) {
  const { label, rows, columns, busy, host, sorter, more } = table;
  const view = table.view ?? ((row: R) => row as unknown as V);
  return html`<div class="scroller" role="region" aria-label=${label} tabindex="0">
      <table part="table" aria-busy=${busy ? 'true' : 'false'}>
        <thead>
          <tr>
            ${columns.map((column) =>
              column.sort && sorter && host
                ? sorter.header(host, { ...column.sort, label: column.label, numeric: column.numeric ?? false })
                : html`<th scope="col" class=${ifDefined(column.numeric ? 'num' : undefined)}>${column.label}</th>`,
            )}
          </tr>
        </thead>
        <tbody>
          ${repeat(
            rows,
            (row) => row.id,
            (row) => {
              const shown = view(row);
              return html`<tr part="row" data-id=${row.id}>
                ${columns.map((column, i) => {
                  if (i === 0) return html`<th scope="row">${column.cell(shown)}</th>`;
                  const classes = [column.numeric ? 'num' : '', column.className ?? ''].filter(Boolean).join(' ');
                  return html`<td class=${ifDefined(classes || undefined)} data-label=${column.labelled === false ? nothing : column.label}>${column.cell(shown)}</td>`;
                })}
              </tr>`;
            },
          )}
        </tbody>
      </table>
    </div>
    ${more}`;
}
