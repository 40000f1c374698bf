import { css } from 'lit';

export const styles = [
  css`
    .base {
      display: grid;
      gap: var(--_space);
    }
    form {
      display: grid;
      gap: var(--_space);
      max-width: 36rem;
      padding: var(--_space);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    h4 {
      margin: 0;
    }
    .field {
      display: grid;
      gap: 0.25rem;
    }
    .field label {
      font-weight: 500;
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
    }
    .check {
      display: block;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_space) / 2);
      align-items: center;
    }
    .items {
      display: grid;
      gap: calc(var(--_space) / 2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .item {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem var(--_space);
      align-items: center;
      padding: calc(var(--_space) / 2) var(--_space);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    /* Names and URLs come from the API: any of them may be one long word. */
    .item > * {
      min-width: 0;
      max-width: 100%;
      overflow-wrap: anywhere;
    }
    input,
    select {
      box-sizing: border-box;
      width: 100%;
      min-width: 0;
    }
    .check input {
      width: auto;
    }
    .form-error:empty {
      display: none;
    }
  `,
];
