import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';

export const styles = [
  detailStyles,
  css`
    .edit {
      display: grid;
      gap: var(--_space);
      justify-items: start;
      max-width: 36rem;
    }
    .field {
      display: grid;
      gap: 0.25rem;
      width: 100%;
    }
    .notes-text {
      white-space: pre-wrap;
    }
  `,
];
