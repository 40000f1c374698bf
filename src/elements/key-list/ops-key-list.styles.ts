import { css } from 'lit';
import { cardsBelow, listRowStyles, tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  listRowStyles,
  css`
    /* The id under a key's name: a long token, in the code face. */
    .key-id {
      font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
      font-size: 0.8em;
      overflow-wrap: anywhere;
    }
  `,
  // Each key a small card in a container narrower than its nine columns need (about 880 px).
  cardsBelow(900),
];
