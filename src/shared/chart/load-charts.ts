/** One shared, lazy load of the chart chunk: a page without charts never downloads it. */
type ChartChunk = typeof import('./echarts-chunk.ts');

let chunk: Promise<ChartChunk> | undefined;

export function loadCharts(): Promise<ChartChunk> {
  chunk ??= import('./echarts-chunk.ts').catch((error: unknown) => {
    chunk = undefined; // let a later render try again, e.g. after a network blip
    throw error;
  });
  return chunk;
}
