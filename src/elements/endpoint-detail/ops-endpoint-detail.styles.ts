import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  detailStyles,
  tableStyles,
  css`
    .charts {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr));
      gap: var(--_space);
    }
    .charts h3 {
      margin-block-start: 0;
    }
    .status-codes {
      max-width: 32rem;
    }
  `,
];
