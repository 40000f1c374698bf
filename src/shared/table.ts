/** Sortable data tables: the header button with `aria-sort`, and the styles every table shares. */
import { css, html, unsafeCSS } from 'lit';
import { msg } from '../localize/localize.ts';

export type SortDirection = 'ascending' | 'descending' | 'none';

const ICONS: Record<SortDirection, string> = { ascending: '▲', descending: '▼', none: '↕' };

/** A column header whose button sorts; `aria-sort` tells screen readers the current order. */
export function renderSortHeader(label: string, direction: SortDirection, onSort: () => void, numeric = false) {
  return html`<th scope="col" class=${numeric ? 'num' : ''} aria-sort=${direction}>
    <button type="button" class="sort" @click=${onSort}>${label}<span class="sort-icon" aria-hidden="true">${ICONS[direction]}</span></button>
  </th>`;
}

export interface TableSort<K extends string> {
  column: K;
  descending: boolean;
}

export interface SortableColumn<K extends string> {
  key: K;
  /** The header's words, asked for at render time so they are in the element's language. */
  label: () => string;
  numeric: boolean;
}

/** The header row of a table sorted on the client. */
export function renderSortHeaders<K extends string>(columns: readonly SortableColumn<K>[], sort: TableSort<K>, onSort: (column: K) => void) {
  return columns.map((column) =>
    renderSortHeader(
      column.label(),
      sort.column === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none',
      () => onSort(column.key),
      column.numeric,
    ),
  );
}

/** Rows ordered by the value `valueOf` reads for the sorted column (numbers by size, text by locale). */
export function sortRows<T, K extends string>(rows: readonly T[], { column, descending }: TableSort<K>, valueOf: (row: T, column: K) => string | number): T[] {
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const [x, y] = [valueOf(a, column), valueOf(b, column)];
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
}

/** Clicking the sorted column flips it; a new column starts largest first, text A–Z. */
export function nextSort<K extends string>(sort: TableSort<K>, column: K, numeric: boolean): TableSort<K> {
  return { column, descending: sort.column === column ? !sort.descending : numeric };
}

/** A column of a list that the API sorts: `key` asks for A–Z or smallest first, `-key` for the reverse. */
export interface ApiSortColumn {
  key: string;
  label: string;
  numeric?: boolean;
  /** The first click asks for A–Z (names); otherwise largest or newest first (figures, dates). */
  ascendingFirst?: boolean;
}

/** A list element sorted through the API: its reflected `sort` and its event. */
export interface ApiSortedList<S extends string> {
  sort: S | '';
  emit(type: 'ops-sort', detail: { sort: string }): unknown;
}

/**
 * Sorting a list through the API, for a route whose `sort` takes `sorts`: which value to send
 * (an unknown one is left out with a warning, since the API would only answer 400 and Retry
 * could not fix it) and the column headers that change it. `initial` is the API's own order
 * without a `sort`.
 */
export function apiSort<S extends string>(tag: string, sorts: readonly S[], initial?: S) {
  const known = (sort: string): S | undefined => ((sorts as readonly string[]).includes(sort) ? (sort as S) : undefined);
  return {
    known,
    warnIfUnknown(sort: string) {
      if (sort && !known(sort)) console.warn(`ignored sort="${sort.slice(0, 40)}" on ${tag}: use one of ${sorts.join(', ')}.`);
    },
    /**
     * The column's header for `list`; clicking it flips the column's order, or starts a new
     * column's: the list's `sort` changes (and so its query) and it fires `ops-sort`.
     */
    header(list: ApiSortedList<S>, { key, label, numeric = false, ascendingFirst = false }: ApiSortColumn) {
      const current = known(list.sort) ?? initial;
      const direction: SortDirection = current === key ? 'ascending' : current === `-${key}` ? 'descending' : 'none';
      const next = (direction === 'ascending' ? `-${key}` : direction === 'descending' ? key : ascendingFirst ? key : `-${key}`) as S;
      return renderSortHeader(
        label,
        direction,
        () => {
          list.sort = next;
          list.emit('ops-sort', { sort: next });
        },
        numeric,
      );
    },
  };
}

/** The search box of a list searched through the API (`q`): applied on Enter or on leaving the field, trimmed. */
export function renderSearch(q: string, placeholder: string, onSearch: (q: string) => void, className = '') {
  return html`<label class=${className}>
    <span>${msg('Search')}</span>
    <input type="search" placeholder=${placeholder} .value=${q} @change=${(e: Event) => onSearch((e.target as HTMLInputElement).value.trim())} />
  </label>`;
}

/** A list's rows while a new page of it loads, and the owner beside their avatar. */
export const listRowStyles = css`
  .person {
    display: inline-flex;
    align-items: center;
    gap: calc(var(--_space) * 0.5);
  }
  table[aria-busy='true'] tbody {
    opacity: 0.6;
  }
`;

/** A table, and the filter toolbar above it. */
export const tableStyles = css`
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space) calc(var(--_space) * 1.5);
    align-items: center;
    margin-bottom: var(--_space);
  }
  .toolbar label {
    display: inline-flex;
    gap: calc(var(--_space) * 0.5);
    align-items: center;
    color: var(--_muted);
  }
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
  /*
   * Narrow containers: a .stack table (a name and three figures per row) puts the name on a line
   * of its own and the figures in three equal columns under it, header row included, so nothing
   * is clipped and the name is not squeezed into breaking mid-word.
   */
  @container (max-width: 480px) {
    table.stack,
    table.stack > :is(thead, tbody, tfoot) {
      display: block;
    }
    table.stack tr {
      display: grid;
      grid-template-columns: repeat(3, minmax(0, 1fr));
      padding: calc(var(--_space) * 0.25) 0;
      border-bottom: 1px solid var(--_border);
    }
    table.stack > :last-child > tr:last-child {
      border-bottom: none;
    }
    table.stack thead tr {
      background: var(--_surface-raised);
    }
    table.stack tr > * {
      padding: calc(var(--_space) * 0.25) var(--_space);
      border-bottom: none;
    }
    /* A column name longer than its third of the row ("Diese Woche") takes two lines. */
    table.stack thead tr > * {
      white-space: normal;
    }
    table.stack tr > :first-child {
      grid-column: 1 / -1;
    }
  }
`;

/** The card rules of {@link cardsBelow}, minified as a template of their own (the minifier cannot read an at-rule with an interpolated value). */
const cardRules = css`
      thead tr {
        display: flex;
        flex-wrap: wrap;
        background: var(--_surface-raised);
      }
      thead th:not([aria-sort]) {
        display: none;
      }
      thead th {
        border-bottom: none;
      }
      tbody tr {
        display: grid;
        grid-template-columns: repeat(2, minmax(0, 1fr));
        border-bottom: 1px solid var(--_border);
        padding: calc(var(--_space) * 0.5) 0;
      }
      tbody tr:last-child {
        border-bottom: none;
      }
      tbody :is(th, .wide) {
        grid-column: 1 / -1;
      }
      /* A label and its figure may take two lines where a language's words are long ("Anfragen 482.113"). */
      thead th,
      tbody :is(th, td, .num) {
        white-space: normal;
      }
      tbody :is(th, td, .num) {
        border-bottom: none;
        padding: calc(var(--_space) * 0.25) var(--_space);
        text-align: left;
      }
      tbody td[data-label]::before {
        content: attr(data-label) ' ';
        color: var(--_muted);
      }
`;

/**
 * A table whose rows become small cards in a container narrower than `maxWidth` px (the width
 * its columns need): the row's header cell and cells marked `.wide` take a line of their own, the
 * other cells share lines two by two, each led by its `data-label`, and of the column headers
 * only the sortable ones stay, for sorting.
 */
export function cardsBelow(maxWidth: number) {
  return unsafeCSS(`@container (max-width: ${maxWidth}px) { ${cardRules.cssText} }`);
}
