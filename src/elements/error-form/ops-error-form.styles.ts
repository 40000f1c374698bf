import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';

export const styles = [
  detailStyles,
  css`
    form {
      display: grid;
      gap: var(--_space);
      max-width: 36rem;
    }
    .field {
      display: grid;
      gap: 0.25rem;
    }
    .field label {
      font-weight: 500;
    }
    .hint {
      margin: -0.75rem 0 var(--_space);
      color: var(--_muted);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_space);
      align-items: center;
    }
    .confirm,
    .saved {
      margin: 0;
      padding: var(--_space);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
  `,
];
