/**
 * One shared, lazy load of the chart chunk and of the series a chart draws: a page without
 * charts never downloads them, and a page of time charts never downloads the pie.
 */
type ChartChunk = typeof import('./echarts-chunk.ts');
export type SeriesKind = 'cartesian' | 'pie';

const loads = new Map<SeriesKind, Promise<ChartChunk>>();

export function loadCharts(kind: SeriesKind): Promise<ChartChunk> {
  let load = loads.get(kind);
  if (!load) {
    const series = kind === 'pie' ? import('./echarts-pie.ts') : import('./echarts-cartesian.ts');
    load = Promise.all([import('./echarts-chunk.ts'), series]).then(([chunk]) => chunk);
    // Let a later render try again, e.g. after a network blip.
    load.catch(() => loads.delete(kind));
    loads.set(kind, load);
  }
  return load;
}
