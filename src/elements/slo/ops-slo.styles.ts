import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  detailStyles,
  tableStyles,
  css`
    .burn-rates {
      max-width: 32rem;
    }
  `,
];
