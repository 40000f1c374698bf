import { OpsChart } from './ops-chart.ts';

if (!customElements.get('ops-chart')) customElements.define('ops-chart', OpsChart);

declare global {
  interface HTMLElementTagNameMap {
    'ops-chart': OpsChart;
  }
}
