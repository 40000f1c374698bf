import { css } from 'lit';
import { cardsBelow, tableStyles } from '../../shared/table.ts';

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
  `,
  // Each webhook a small card in a container narrower than its six columns need (about 660 px).
  cardsBelow(680),
];
