import { css } from 'lit';

export const styles = [
  css`
    .filters {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_space) * 0.5);
      margin-bottom: var(--_space);
    }
    .chip {
      font: inherit;
      font-size: 0.9em;
      color: var(--_text);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: 999px;
      padding: 0.1rem 0.7rem;
      cursor: pointer;
    }
    .chip[aria-pressed='true'] {
      color: var(--_surface);
      background: var(--_accent);
      border-color: var(--_accent);
    }
    .list {
      list-style: none;
      margin: 0;
      padding: 0;
      max-height: var(--ops-feed-max-height, none);
      overflow-y: auto;
      /* New items arrive on top; scroll anchoring keeps what the reader looks at in place. */
      overflow-anchor: auto;
    }
    .item {
      display: flex;
      align-items: flex-start;
      gap: var(--_space);
      padding: calc(var(--_space) * 0.75) 0;
      border-bottom: 1px solid var(--_border);
    }
    .item:last-child {
      border-bottom: none;
    }
    .text {
      flex: 1;
      margin: 0.3rem 0 0;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    .actor {
      font-weight: 600;
    }
    time {
      flex: none;
      margin-top: 0.3rem;
      color: var(--_muted);
      font-variant-numeric: tabular-nums;
    }
  `,
];
