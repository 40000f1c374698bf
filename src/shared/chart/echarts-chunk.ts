/**
 * The lazily loaded chart chunk: ECharts core with the canvas renderer, and the option builder.
 * Loaded by dynamic import() the first time any chart renders, together with the series it
 * draws: `echarts-cartesian.ts` (line, bar) or `echarts-pie.ts`. Three modules, not one, so that
 * a host's bundler cuts ECharts into chunks under 500 kB each (Vite warns above that on every
 * build); the script-tag build joins them again into one file (scripts/build.mjs).
 * No legend component: the chart host writes legends as HTML (text a screen reader and a
 * search can find, and 5.6 KB gz less to download).
 */
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import { init, use, type ComposeOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { ChartData, ChartTheme } from './chart-data.ts';

use(CanvasRenderer);

export type ChartOption = ComposeOption<BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | TooltipComponentOption>;

export { init };

export function buildOption(data: ChartData, theme: ChartTheme, formatValue: (value: number) => string): ChartOption {
  const base = {
    animation: !theme.reducedMotion,
    color: theme.palette,
    textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    tooltip: {
      // Drawn on the canvas, not as HTML: no innerHTML, so a Trusted Types policy has nothing to block.
      renderMode: 'richText',
      trigger: data.type === 'pie' ? 'item' : 'axis',
      // A missing value (null: nothing was measured) reads as a dash, as in the table.
      valueFormatter: (value: unknown) => (typeof value === 'number' ? formatValue(value) : '—'),
      backgroundColor: theme.surface,
      borderColor: theme.border,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    },
  } satisfies ChartOption;

  if (data.type === 'pie') {
    return {
      ...base,
      // The element writes its own legend with the rounded shares next to the chart.
      series: [
        {
          type: 'pie',
          radius: ['45%', '72%'],
          center: ['50%', '50%'],
          label: { show: false },
          itemStyle: { borderColor: theme.surface, borderWidth: 2 },
          data: data.categories.map((name, i) => ({ name, value: data.series[0]?.values[i] ?? 0 })),
        },
      ],
    };
  }

  const sparkline = data.type === 'sparkline';
  const axisLine = { lineStyle: { color: theme.border } };
  return {
    ...base,
    grid: sparkline
      ? { left: 2, right: 2, top: 4, bottom: 18 }
      : { left: 8, right: 16, top: 16, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    xAxis: {
      type: 'category',
      data: data.categories,
      boundaryGap: data.type === 'bar',
      axisLine,
      axisTick: { show: false },
      // 'auto' thins the labels out to those that fit the width (every month on a wide panel, every other one or fewer on a narrow one).
      axisLabel: { color: theme.muted, fontSize: sparkline ? 10 : 12, interval: 'auto', hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      show: !sparkline,
      scale: sparkline, // a sparkline shows the shape, not the distance from zero
      splitLine: { lineStyle: { color: theme.border, type: 'dashed' } },
      axisLabel: { color: theme.muted, formatter: (value: number) => formatValue(value) },
    },
    series: data.series.map((s) =>
      data.type === 'bar'
        ? ({ type: 'bar', name: s.name, data: s.values, barMaxWidth: 28, itemStyle: { borderRadius: [3, 3, 0, 0] } } satisfies BarSeriesOption)
        : ({
            type: 'line',
            name: s.name,
            data: s.values,
            smooth: true,
            showSymbol: false,
            lineStyle: { width: 2 },
            areaStyle: sparkline ? { opacity: 0.15 } : undefined,
          } satisfies LineSeriesOption),
    ),
  };
}
