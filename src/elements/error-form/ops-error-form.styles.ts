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
    /* A success, said as one: the success colour's border and a tint of it, with a tick. */
    .saved {
      border-color: var(--_success);
      background: color-mix(in srgb, var(--_success) 10%, var(--_surface));
    }
    /* The tick is decoration: its alternative text is empty, so it is not read out. */
    .saved::before {
      content: '✓' / '';
      margin-right: calc(var(--_space) * 0.5);
      color: var(--_success);
      font-weight: 700;
    }
    .field-hint {
      margin: 0.25rem 0 0;
      color: var(--_muted);
    }
  `,
];
