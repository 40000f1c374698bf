import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';
import { tableStyles } from '../../shared/table.ts';
import { bodyStyles } from '../../shared/body-view.ts';

export const styles = [
  detailStyles,
  tableStyles,
  bodyStyles,
  css`
    /* Wider fact columns than the other detail pages: a key id or a date and time is one long token. */
    .facts {
      grid-template-columns: repeat(auto-fill, minmax(min(100%, 11rem), 1fr));
    }
    .headers th,
    .headers td {
      vertical-align: top;
    }
    /* Header names are short and read as one word; values are long tokens (user agents, ids) that wrap anywhere rather than widen the panel. */
    .headers th.mono {
      white-space: nowrap;
      overflow-wrap: normal;
    }
    .headers td {
      white-space: normal;
      overflow-wrap: anywhere;
    }
    .payload-actions {
      margin-top: var(--_space);
    }
  `,
];
