import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  detailStyles,
  tableStyles,
  css`
    .headers th,
    .headers td {
      vertical-align: top;
    }
    /* Header values are long tokens (user agents, ids): they wrap anywhere rather than widen the panel. */
    .headers td {
      white-space: normal;
      overflow-wrap: anywhere;
    }
  `,
];
