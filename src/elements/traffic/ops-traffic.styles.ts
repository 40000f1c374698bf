import { css } from 'lit';

export const styles = css`
  .base {
    display: grid;
    gap: calc(var(--_space) * 2);
  }
  .metrics {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
    gap: var(--_space);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .metric {
    padding: calc(var(--_space) * 1.25);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .metric p {
    margin: 0;
  }
  .metric-label {
    color: var(--_muted);
  }
  .metric-value {
    font-size: 1.5em;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
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
    height: 0.4rem;
  }
  .share-track {
    fill: var(--_surface-raised);
  }
  .share-fill {
    fill: var(--_chart-1);
  }
`;
