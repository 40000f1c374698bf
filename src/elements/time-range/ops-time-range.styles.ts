import { css } from 'lit';

export const styles = [
  css`
    :host {
      display: block;
    }
    form {
      display: flex;
      flex-wrap: wrap;
      align-items: end;
      gap: calc(var(--_space) * 0.75);
    }
    label {
      display: grid;
      gap: 0.15rem;
      color: var(--_muted);
      font-size: 0.9em;
    }
    .error {
      flex-basis: 100%;
      margin: 0;
      color: var(--_danger);
    }
    .error:empty {
      display: none;
    }
  `,
];
