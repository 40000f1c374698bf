import { css } from 'lit';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  css`
    .person {
      display: inline-flex;
      align-items: center;
      gap: calc(var(--_space) * 0.5);
    }
    table[aria-busy='true'] tbody {
      opacity: 0.6;
    }
    /* Narrow containers (the seven columns need about 740 px): each customer becomes a small card; the sortable headers stay for sorting. */
    @container (max-width: 760px) {
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
      tbody th {
        grid-column: 1 / -1;
      }
      thead th,
      tbody :is(th, td, .num) {
        white-space: normal;
        border-bottom: none;
        padding: calc(var(--_space) * 0.25) var(--_space);
        text-align: left;
      }
      tbody td[data-label]::before {
        content: attr(data-label) ' ';
        color: var(--_muted);
      }
    }
  `,
];
