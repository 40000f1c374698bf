import { css } from 'lit';
import { cardsBelow, tableStyles } from '../../shared/table.ts';

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
    }
    /* A deprecated route's badge and sunset, under its name. */
    .deprecated {
      margin-top: 0.2em;
      font-weight: 400;
    }
  `,
  // Each endpoint a small card in a narrow container.
  cardsBelow(480),
];
