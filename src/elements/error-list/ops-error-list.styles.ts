import { css } from 'lit';
import { cardsBelow, tableStyles } from '../../shared/table.ts';

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
    .row-problem {
      margin: calc(var(--_space) * 0.25) 0 0;
      max-width: 22rem;
      color: var(--_danger);
    }
  `,
  // Each record a small card in a container narrower than its five columns need (about 580 px).
  cardsBelow(600),
];
