import { css } from 'lit';
import { detailStyles } from '../../shared/detail.ts';

export const styles = [
  detailStyles,
  css`
    .fact .when {
      color: var(--_muted);
      font-weight: 400;
    }
    .notes,
    .history {
      display: grid;
      gap: var(--_space);
      margin: 0 0 var(--_space);
      padding: 0;
      list-style: none;
    }
    .note p,
    .history p {
      margin: 0;
    }
    .note-text {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .note-form {
      display: grid;
      gap: calc(var(--_space) * 0.5);
      justify-items: start;
    }
    .history-kind {
      font-weight: 600;
    }
  `,
];
