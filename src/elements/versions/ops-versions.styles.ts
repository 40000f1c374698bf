import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  detailStyles,
  css`
    :host {
      display: block;
    }
    ops-chart {
      margin-block-end: var(--_space);
    }
    .scroller {
      max-width: 32rem;
    }
    tbody th {
      font-weight: 400;
    }
    tbody th.muted {
      color: var(--_muted);
    }
    .deprecations {
      margin-block-start: calc(var(--_space) * 2);
    }
    h3,
    h4 {
      margin: 0 0 calc(var(--_space) * 0.75);
      font-size: 1em;
      font-weight: 600;
    }
    .deprecated {
      padding-block: var(--_space);
      border-block-start: 1px solid var(--_border);
    }
    .deprecated h4 {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.25em 0.5em;
    }
    .endpoint,
    .key {
      font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
      font-size: 0.95em;
      overflow-wrap: anywhere;
    }
    /* Side by side only where each table has room for its three columns. */
    .callers {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 24rem), 1fr));
      gap: var(--_space);
      margin-block-start: var(--_space);
    }
    .callers .scroller {
      max-width: none;
    }
    a[part='external-link'] {
      color: var(--_accent);
    }
    h5 {
      margin: 0 0 calc(var(--_space) * 0.5);
      font-size: 1em;
      font-weight: 600;
    }
    /* A day or a time may take two lines in a third of a narrow row. */
    td.published,
    td.when {
      white-space: normal;
    }
    /* Stacked, a caller's last call takes the two thirds its row has left. */
    @container (max-width: 480px) {
      table[part='callers'] tr > :last-child {
        grid-column: span 2;
      }
    }
    .none {
      margin: 0;
      color: var(--_muted);
    }
    .none strong {
      display: block;
      color: var(--_text);
    }
  `,
];
