import { OpsChart } from './ops-chart.ts';

OpsChart.define('ops-chart');

declare global {
  interface HTMLElementTagNameMap {
    'ops-chart': OpsChart;
  }
}
