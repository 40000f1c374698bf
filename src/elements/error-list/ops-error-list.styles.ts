import { css } from 'lit';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  css`
    .toolbar .new-error {
      margin-inline-start: auto;
      display: inline-flex;
      align-items: center;
      text-decoration: none;
    }
    td.status {
      white-space: normal;
    }
    /* Narrow containers (the five columns need about 580 px): each record becomes a small card; the Count and First seen headers stay for sorting. */
    @container (max-width: 600px) {
      thead tr {
        display: flex;
        flex-wrap: wrap;
        background: var(--_surface-raised);
      }
      thead th:is(:first-child, :nth-child(2), :last-child) {
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
      tbody :is(th, td.endpoint, td.status) {
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
    .row-problem {
      margin: calc(var(--_space) * 0.25) 0 0;
      max-width: 22rem;
      color: var(--_danger);
    }
  `,
];
