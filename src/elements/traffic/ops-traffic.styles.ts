import { css } from 'lit';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  css`
    .base {
      display: grid;
      gap: calc(var(--_space) * 2);
    }
    .figure-value {
      overflow-wrap: anywhere;
    }
    .charts {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr));
      gap: calc(var(--_space) * 2);
    }
    .panel {
      padding: calc(var(--_space) * 1.5);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      min-width: 0;
    }
    h3 {
      margin: 0 0 var(--_space);
      font-size: 1.05em;
    }
    /* The breakdown sits in a panel that already has a border. */
    .scroller {
      border: none;
    }
    .share {
      display: flex;
      align-items: center;
      justify-content: flex-end;
      gap: var(--_space);
    }
    .share-bar {
      width: 5rem;
      min-width: 1rem; /* gives way to the number in a narrow column */
      height: 0.4rem;
    }
    .share-track {
      fill: var(--_surface-raised);
    }
    .share-fill {
      fill: var(--_chart-1);
    }
  `,
];
