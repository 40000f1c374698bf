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
  .scroller {
    overflow-x: auto;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    padding: calc(var(--_space) * 0.75) var(--_space);
    text-align: left;
    border-bottom: 1px solid var(--_border);
    white-space: nowrap;
  }
  .num {
    text-align: right;
  }
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-weight: 500;
    white-space: normal;
    overflow-wrap: anywhere;
  }
  .sort {
    font: inherit;
    font-weight: 600;
    color: var(--_muted);
    background: none;
    border: none;
    padding: 0;
    cursor: pointer;
  }
  .sort-icon {
    display: inline-block;
    width: 1em;
    margin-left: 0.2em;
    font-size: 0.8em;
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
