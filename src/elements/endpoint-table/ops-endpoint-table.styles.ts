import { css } from 'lit';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  css`
    table[aria-busy='true'] tbody {
      opacity: 0.6;
    }
    /* A long table scrolls in a frame of its own, its header always in view. */
    .scroller.long {
      max-height: var(--ops-table-height, 32rem);
      overflow-y: auto;
    }
    .long thead th {
      position: sticky;
      top: 0;
      z-index: 1;
    }
    tbody tr.spacer,
    tbody tr.spacer:hover {
      cursor: default;
      background: none;
    }
    tbody tr.spacer > td {
      padding: 0;
      border: none;
    }
    tbody th {
      font-weight: 500;
    }
    tbody tr {
      cursor: pointer;
    }
    tbody tr:hover {
      background: var(--_surface-raised);
    }
    .row-link {
      font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
      font-size: 0.95em;
      overflow-wrap: anywhere;
      white-space: normal;
      min-width: 10ch;
    }
    /* Tells apart rows of one route under two API versions. */
    .version {
      margin-left: calc(var(--_space) * 0.5);
      padding: 0 0.35rem;
      border: 1px solid var(--_border);
      border-radius: 999px;
      color: var(--_muted);
      font-size: 0.85em;
      font-weight: 400;
      white-space: nowrap;
    }
    /* Narrow containers: each endpoint becomes a small card; headers stay for sorting. */
    @container (max-width: 480px) {
      thead tr {
        display: flex;
        flex-wrap: wrap;
      }
      thead th:first-child,
      thead th:last-child {
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
      tbody th {
        grid-column: 1 / -1;
      }
      thead tr {
        background: var(--_surface-raised);
      }
      /* A label and its figure may take two lines where a language's words are long ("Anfragen 482.113"). */
      thead th,
      tbody th,
      tbody td,
      tbody td.num {
        white-space: normal;
      }
      tbody th,
      tbody td,
      tbody td.num {
        border-bottom: none;
        padding: calc(var(--_space) * 0.25) var(--_space);
        text-align: left;
      }
      tbody td::before {
        content: attr(data-label) ' ';
        color: var(--_muted);
      }
    }
  `,
];
