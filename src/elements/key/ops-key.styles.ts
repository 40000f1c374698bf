import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';
import { cardsBelow, tableStyles } from '../../shared/table.ts';

export const styles = [
  detailStyles,
  tableStyles,
  css`
    .fact .when {
      color: var(--_muted);
      font-weight: 400;
    }
    /* Requests after revocation are the page's alarm: said in words, coloured as a second cue. */
    .fact .warning {
      color: var(--_danger);
    }
    .shares {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr));
      gap: var(--_space);
    }
    .shares h3 {
      margin-block-start: var(--_space);
    }
    tbody th .badge {
      margin-inline-start: 0.5rem;
    }
  `,
  // Each request, endpoint and version a small card in a container narrower than the requests' four columns need.
  cardsBelow(480),
];
