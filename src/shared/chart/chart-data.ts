/** What an element hands the chart host: plain data, no ECharts types, so it costs nothing until drawn. */
export interface ChartSeries {
  name: string;
  /** `null` where there is nothing to measure (a day without requests has no latency): a gap in a line, `—` in the table. */
  values: (number | null)[];
}

export interface ChartData {
  /** `sparkline` is a small line without axes, for a figure card. */
  type: 'line' | 'bar' | 'pie' | 'sparkline';
  /** X-axis labels, or slice names of a pie. */
  categories: string[];
  /** The table's name for the categories (`Day`, `Time`); default `Month`, or `Group` for a pie. */
  categoryName?: string;
  series: ChartSeries[];
}

/** The resolved colours of the host's tokens, read from the page at draw time. */
export interface ChartTheme {
  /** The host's resolved font family (`--ops-font-family`): a canvas cannot inherit one. */
  fontFamily: string;
  text: string;
  muted: string;
  border: string;
  surface: string;
  palette: string[];
  reducedMotion: boolean;
}

/** Nothing to draw: no series, no points, or every value zero (or not a number). */
export function isBlank(data: ChartData | undefined): boolean {
  if (!data || !data.categories.length) return true;
  return !data.series.some((s) => s.values.some((v) => Number.isFinite(v) && v !== 0));
}
