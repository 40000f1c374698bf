import { css } from 'lit';

export const styles = [
  css`
    .overview {
      display: grid;
      gap: calc(var(--_space) * 2);
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
    /* What is firing comes first, across the whole width, in the danger colour as a second cue to its words. */
    .alerts,
    .alerts-unavailable {
      grid-column: 1 / -1;
    }
    .alerts {
      border: 1px solid var(--_danger);
      border-inline-start-width: 4px;
      border-radius: var(--_radius);
      padding: calc(var(--_space) * 1.5) calc(var(--_space) * 2);
    }
    .alerts h3 {
      margin: 0 0 var(--_space);
    }
    .alerts ul {
      margin: 0 0 var(--_space);
      padding-inline-start: 1.2em;
    }
    .summary,
    .recent,
    /* Without the activity feed beside it (a customer's overview), the shares take the row. */
    .shares-panel:last-child {
      grid-column: 1 / -1;
    }
    @container (max-width: 720px) {
      .overview {
        grid-template-columns: minmax(0, 1fr);
      }
    }
    h2,
    h3 {
      margin: 0 0 var(--_space);
    }
    .greeting {
      font-size: 1.4em;
    }
    h3 {
      font-size: 1.05em;
    }
    .panel {
      padding: calc(var(--_space) * 1.5);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_surface);
      min-width: 0;
    }
    .panel[hidden] {
      display: none;
    }
    .panel-header {
      display: flex;
      justify-content: space-between;
      align-items: baseline;
      gap: var(--_space);
    }
    .figure-wide {
      grid-column: span 2;
    }
    /* Narrow: the card with the sparkline takes a row of its own, so the chart and its data table have room. */
    @container (max-width: 480px) {
      .figure-wide {
        grid-column: 1 / -1;
      }
    }
    .sparkline {
      --ops-chart-height: 64px;
    }
    /* The donut and its legend side by side once the panel has room, rather than a donut in a sea of white above a list. */
    .shares-panel {
      container-type: inline-size;
    }
    .shares-body {
      --ops-chart-height: 180px;
    }
    @container (min-width: 24rem) {
      .shares-body {
        display: grid;
        grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr);
        gap: calc(var(--_space) * 2);
        align-items: center;
      }
    }
    .shares {
      display: grid;
      gap: 0.2rem;
      margin: var(--_space) 0 0;
      padding: 0;
      list-style: none;
      font-variant-numeric: tabular-nums;
    }
    .shares li {
      display: flex;
      align-items: center;
      gap: var(--_space);
    }
    .share-group {
      flex: 1;
    }
    .share-total {
      border-top: 1px solid var(--_border);
      padding-top: 0.2rem;
      font-weight: 600;
    }
    .swatch {
      width: 0.75rem;
      height: 0.75rem;
      border-radius: 2px;
    }
    /* Classes, not inline styles, so a strict style-src CSP needs no exception. */
    .swatch-1 {
      background: var(--_chart-1);
    }
    .swatch-2 {
      background: var(--_chart-2);
    }
    .swatch-3 {
      background: var(--_chart-3);
    }
    .swatch-4 {
      background: var(--_chart-4);
    }
    .swatch-5 {
      background: var(--_chart-5);
    }
    .unavailable {
      color: var(--_muted);
    }
  `,
];
