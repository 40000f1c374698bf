import { css } from 'lit';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
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
  `,
];
