import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendMouse } from '@web/test-runner-commands';
import { $, $$, nextFrames, text, waitFor } from '../../../test/dom.ts';
import type { ChartData } from './chart-data.ts';
import './define.ts';
import type { OpsChart } from './ops-chart.ts';

const months = ['Oct', 'Nov', 'Dec'];
const lineData: ChartData = {
  type: 'line',
  categories: months,
  series: [
    { name: 'This year', values: [10, 20, 30] },
    { name: 'Last year', values: [5, 15, 25] },
  ],
};

interface DrawnOption {
  color: string[];
  animation: boolean;
  textStyle: { color: string };
  xAxis: { data: string[] }[];
  series: { name: string; type: string; data: unknown[] }[];
}
const option = (el: OpsChart) => el.chart!.getOption() as unknown as DrawnOption;
const drawn = (el: OpsChart) => waitFor(() => el.chart, 'chart drawn');

async function chart(data: ChartData | undefined, wrapperStyle = '') {
  const wrapper = await fixture<HTMLDivElement>(html`<div style=${wrapperStyle}>
    <ops-chart label="Requests over time" .data=${data} .formatValue=${(v: number) => `${v} req`}></ops-chart>
  </div>`);
  return wrapper.querySelector('ops-chart')!;
}

/**
 * ECharts prints each notice once per page (some with console.log), so every "[ECharts]" line
 * is collected from this file's first draw on.
 */
const echartsWarnings: string[] = [];
// eslint-disable-next-line @typescript-eslint/unbound-method -- put back on console, and called with it, below
const consoleMethods = (['log', 'warn', 'error'] as const).map((name) => [name, console[name]] as const);
for (const [name, original] of consoleMethods) {
  console[name] = (...args: unknown[]) => {
    if (String(args[0]).startsWith('[ECharts]')) echartsWarnings.push(args.map(String).join(' '));
    original.apply(console, args);
  };
}

describe('ops-chart (shared chart host)', () => {
  afterEach(() => emulateMedia({ reducedMotion: 'no-preference' }));
  after(() => consoleMethods.forEach(([name, original]) => (console[name] = original)));

  it('loads ECharts on first draw and draws the series with their labels', async () => {
    const el = await chart(lineData);
    await drawn(el);
    expect(performance.getEntriesByType('resource').some((e) => e.name.includes('echarts-chunk'))).to.equal(true);
    expect(option(el).xAxis[0]!.data).to.deep.equal(months);
    expect(option(el).series.map((s) => [s.name, s.type, s.data])).to.deep.equal([
      ['This year', 'line', [10, 20, 30]],
      ['Last year', 'line', [5, 15, 25]],
    ]);
    expect($(el, '[part="canvas"]')!.getAttribute('role')).to.equal('img');
    expect($(el, '[part="canvas"]')!.getAttribute('aria-label')).to.equal('Requests over time');
  });

  it('names each series in an HTML legend, coloured like its line, when there is more than one', async () => {
    const el = await chart(lineData);
    await drawn(el);
    expect($$(el, '[part="legend"] li').map(text)).to.deep.equal(['This year', 'Last year']);
    const swatches = $$(el, '[part="legend"] .swatch').map((s) => getComputedStyle(s).backgroundColor);
    expect(swatches).to.deep.equal(option(el).color.slice(0, 2));
    const single = await chart({ type: 'bar', categories: months, series: [{ name: 'Errors', values: [1, 2, 3] }] });
    await drawn(single);
    expect($(single, '[part="legend"]')).to.equal(null);
  });

  it('draws after the frame that shows its table and legend, so the panel paints first', async () => {
    await drawn(await chart(lineData)); // the chunk is loaded: nothing but the frame holds the next one back
    const el = document.createElement('ops-chart');
    el.data = lineData;
    document.body.append(el);
    try {
      // A task queued now runs before one queued in the next animation frame.
      await new Promise((resolve) => setTimeout(resolve));
      expect($$(el, '[part="legend"] li').map(text)).to.deep.equal(['This year', 'Last year']);
      // (a boolean: chai describing a live ECharts instance in a failure message never finishes)
      expect(el.chart === undefined, 'the chart waits for the next frame').to.equal(true);
      await drawn(el);
    } finally {
      el.remove();
    }
  });

  it('names the category of a clicked bar in ops-chart-select', async () => {
    const el = await chart({ type: 'bar', categories: ['Oct', 'Nov', 'Dec'], series: [{ name: 'Requests', values: [10, 20, 30] }] });
    await drawn(el);
    // Where a person would click: the middle of November's bar, in the chart's own pixels.
    const [x = 0, y = 0] = el.chart!.convertToPixel({ seriesIndex: 0 }, [1, 10]);
    const selected = new Promise<CustomEvent<{ index: number; category: string }>>((resolve) =>
      el.addEventListener('ops-chart-select', (e) => resolve(e as CustomEvent<{ index: number; category: string }>), { once: true }),
    );
    await nextFrames();
    const box = $(el, '[part="canvas"]')!.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(box.left + x), Math.round(box.top + y)] });
    expect((await selected).detail).to.deep.equal({ index: 1, category: 'Nov' });
  });

  it('offers the same data as a table', async () => {
    const el = await chart(lineData);
    await drawn(el);
    expect(text($(el, 'summary'))).to.equal('Show data as a table');
    expect($$(el, 'thead th').map(text)).to.deep.equal(['Month', 'This year', 'Last year']);
    expect($$(el, 'tbody tr').map((tr) => [...tr.children].map(text))).to.deep.equal([
      ['Oct', '10 req', '5 req'],
      ['Nov', '20 req', '15 req'],
      ['Dec', '30 req', '25 req'],
    ]);
    expect(text($(el, 'caption'))).to.equal('Requests over time');
  });

  it('shows a clear message instead of an empty or all-zero chart', async () => {
    const zero = await chart({ type: 'bar', categories: months, series: [{ name: 'Errors', values: [0, 0, 0] }] });
    expect(text($(zero, '[part="empty"]'))).to.equal('No data for this period yet.');
    expect($(zero, '[part="canvas"]')).to.equal(null);
    const none = await chart({ type: 'pie', categories: [], series: [] });
    expect($(none, '[part="empty"]')).to.exist;
    expect(zero.chart).to.equal(undefined);
  });

  it('takes its colours from the resolved tokens and follows a theme switch', async () => {
    const el = await chart(lineData, '--ops-chart-1: rgb(200, 0, 0); color-scheme: light');
    await drawn(el);
    expect(option(el).color[0]).to.equal('rgb(200, 0, 0)');
    const lightText = option(el).textStyle.color;
    expect(lightText).to.equal('rgb(27, 31, 36)');
    el.parentElement!.style.colorScheme = 'dark';
    await waitFor(() => option(el).textStyle.color === 'rgb(232, 234, 237)', 'dark text colour');
  });

  it('draws a theme switch with the colours it ends on, however long the switch takes to show', async () => {
    const el = await chart(lineData, 'color-scheme: light');
    await drawn(el);
    // A busy page can take long over the colour probes' transition: stretched here to 300 ms, as
    // if frames were slow, the chart must still end on the dark colours, not the first step's.
    const slow = new CSSStyleSheet();
    slow.replaceSync('.palette span { transition-duration: 300ms; }');
    el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, slow];
    el.parentElement!.style.colorScheme = 'dark';
    await waitFor(() => option(el).textStyle.color === 'rgb(232, 234, 237)', 'dark text colour', 5_000);
  });

  it('writes its labels in the font the page sets with --ops-font-family', async () => {
    const fonts: string[] = [];
    const font = Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, 'font')!;
    Object.defineProperty(CanvasRenderingContext2D.prototype, 'font', {
      ...font,
      set(this: CanvasRenderingContext2D, value: string) {
        fonts.push(value);
        font.set!.call(this, value);
      },
    });
    try {
      const el = await chart(lineData, '--ops-font-family: "Courier New", monospace');
      await drawn(el);
      await waitFor(() => fonts.length > 0, 'labels drawn');
      expect(
        fonts.every((f) => f.includes('"Courier New", monospace')),
        fonts.join(' | '),
      ).to.equal(true);
    } finally {
      Object.defineProperty(CanvasRenderingContext2D.prototype, 'font', font);
    }
  });

  it('turns animation off when the reader prefers reduced motion', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    const el = await chart(lineData);
    await drawn(el);
    expect(option(el).animation).to.equal(false);
  });

  it('resizes with its container', async () => {
    const el = await chart(lineData, 'width: 400px');
    await drawn(el);
    expect(el.chart!.getWidth()).to.equal(400);
    el.parentElement!.style.width = '250px';
    await waitFor(() => el.chart!.getWidth() === 250, 'resized');
  });

  it('disposes its chart when removed', async () => {
    const el = await chart(lineData);
    const instance = await drawn(el);
    const canvas = instance.getDom();
    el.remove();
    const { getInstanceByDom } = await import('echarts/core'); // after the first-draw test: that one checks the lazy load
    expect(instance.isDisposed()).to.equal(true);
    expect(getInstanceByDom(canvas), 'ECharts still holds an instance for the canvas').to.equal(undefined);
  });

  it('draws every chart type without an ECharts warning (no deprecated option such as grid.containLabel)', async () => {
    for (const type of ['line', 'bar', 'pie', 'sparkline'] as const) {
      const el = await chart({ ...lineData, type });
      await drawn(el);
      el.remove();
    }
    expect(echartsWarnings).to.deep.equal([]);
  });

  it('draws a pie from categories and values', async () => {
    const el = await chart({ type: 'pie', categories: ['/messages', 'Other'], series: [{ name: 'Share', values: [60, 40] }] });
    await drawn(el);
    expect(option(el).series[0]!.data).to.deep.equal([
      { name: '/messages', value: 60 },
      { name: 'Other', value: 40 },
    ]);
    expect($$(el, 'thead th').map(text)).to.deep.equal(['Group', 'Share']);
  });

  it('passes axe', async () => {
    const el = await chart(lineData);
    await drawn(el);
    await expect(el).to.be.accessible();
  });
});
