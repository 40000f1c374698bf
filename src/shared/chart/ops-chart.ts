import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { sharedStyles, tokens } from '../styles.ts';
import { isBlank, type ChartData, type ChartTheme } from './chart-data.ts';
import { loadCharts } from './load-charts.ts';
import { msg, renderInLocale } from '../../localize/localize.ts';
import { pageLocale, watchLocale } from '../../localize/page-locale.ts';

type EChartsInstance = ReturnType<Awaited<ReturnType<typeof loadCharts>>['init']>;

const PALETTE_SIZE = 5;

/**
 * The shared chart host used by every chart of the console: ECharts loaded lazily on first
 * draw, themed from the resolved `--ops-*` tokens (and re-themed when they change), resized
 * with its container, disposed on disconnect, and always paired with a data table.
 *
 * @summary Internal: a themed, accessible, lazily loaded chart.
 *
 * @csspart figure - The chart and its table.
 * @csspart legend - The series' names and colours, above a chart of more than one line or bar series.
 * @csspart canvas - The drawing surface (role img, named by `label`).
 * @csspart data-table - The disclosure holding the data table.
 * @csspart empty - The message shown instead of a blank chart.
 *
 * @fires {CustomEvent<{ index: number; category: string }>} ops-chart-select - A bar, point or slice was clicked; detail names its category.
 *
 * @customElement ops-chart
 */
export class OpsChart extends LitElement {
  /** Registers this class under `tag` unless the tag is already taken. */
  static define(tag: string): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  static override styles = [
    tokens,
    sharedStyles,
    css`
      :host {
        background: transparent;
      }
      .canvas {
        height: var(--ops-chart-height, 220px);
        width: 100%;
      }
      figure {
        margin: 0;
      }
      details {
        margin-top: calc(var(--_space) * 0.5);
        color: var(--_muted);
      }
      summary {
        cursor: pointer;
        width: fit-content;
      }
      table {
        border-collapse: collapse;
        margin-top: calc(var(--_space) * 0.5);
        font-variant-numeric: tabular-nums;
        color: var(--_text);
      }
      th,
      td {
        padding: 0.15rem 0.6rem 0.15rem 0;
        text-align: left;
        border-bottom: 1px solid var(--_border);
      }
      td {
        text-align: right;
      }
      /* The series' names and colours, in ECharts' palette order (it starts again after five). */
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        margin: 0 0 calc(var(--_space) * 0.5);
        padding: 0;
        list-style: none;
        color: var(--_text);
      }
      .legend li {
        display: flex;
        align-items: center;
        gap: 0.4rem;
      }
      .swatch {
        width: 0.75rem;
        height: 0.75rem;
        border-radius: 2px;
        background: var(--_chart-1);
      }
      .legend li:nth-child(5n + 2) .swatch {
        background: var(--_chart-2);
      }
      .legend li:nth-child(5n + 3) .swatch {
        background: var(--_chart-3);
      }
      .legend li:nth-child(5n + 4) .swatch {
        background: var(--_chart-4);
      }
      .legend li:nth-child(5n) .swatch {
        background: var(--_chart-5);
      }
      /* Colour probes: their computed colours are the resolved tokens ECharts is given, and a
         transition on them reports every theme change (scheme, attribute or token) as an event:
         its end (or cancel), when the computed colour is the one the theme ends on. At its start
         (transitionrun) a slow frame still reads the old colour. */
      .palette {
        position: absolute;
        width: 0;
        height: 0;
        overflow: hidden;
      }
      .palette span {
        transition: color 1ms;
      }
      .palette span:nth-child(1) {
        color: var(--_text);
      }
      .palette span:nth-child(2) {
        color: var(--_muted);
      }
      .palette span:nth-child(3) {
        color: var(--_border);
      }
      .palette span:nth-child(4) {
        color: var(--_surface);
      }
      .palette span:nth-child(5) {
        color: var(--_chart-1);
      }
      .palette span:nth-child(6) {
        color: var(--_chart-2);
      }
      .palette span:nth-child(7) {
        color: var(--_chart-3);
      }
      .palette span:nth-child(8) {
        color: var(--_chart-4);
      }
      .palette span:nth-child(9) {
        color: var(--_chart-5);
      }
    `,
  ];

  /** The data to draw. */
  @property({ attribute: false }) data?: ChartData;

  /** The table's drill-down for a category (a link to what a bar stands for), so it is reachable without a pointer; the canvas click fires `ops-chart-select`. */
  @property({ attribute: false }) categoryLink?: (index: number) => unknown;

  /** The accessible name of the chart, e.g. "Requests by endpoint". */
  @property() label = '';

  /** Formats values in tooltips, axis labels and the table. */
  @property({ attribute: false }) formatValue: (value: number) => string = (value) => String(value);

  /** The message shown when there is nothing to draw (default "No data for this period yet."). */
  @property({ attribute: 'empty-message' }) emptyMessage?: string;

  /** The language of the chart's own words ("Show data as a table"); the panel drawing it passes its locale. */
  @property() locale?: string;

  #unwatchLocale?: () => void;

  /** Set once the chart chunk failed to load; the table still shows the numbers. */
  @state() private loadFailed = false;

  @query('.canvas') private canvas?: HTMLDivElement;

  /** The live ECharts instance, once drawn. */
  chart?: EChartsInstance;
  #resizeObserver?: ResizeObserver;
  #motionQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : undefined;
  #redraw = () => void this.draw();

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatchLocale = watchLocale(() => this.requestUpdate());
    this.#motionQuery?.addEventListener('change', this.#redraw);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatchLocale?.();
    this.#motionQuery?.removeEventListener('change', this.#redraw);
    this.#dispose();
  }

  protected override update(changed: PropertyValues): void {
    renderInLocale(this.locale || pageLocale(), () => super.update(changed));
  }

  override render() {
    if (isBlank(this.data)) {
      return html`<p part="empty" class="empty">${this.emptyMessage ?? msg('No data for this period yet.')}</p>`;
    }
    const data = this.data!;
    const legend = data.type !== 'pie' && data.type !== 'sparkline' && data.series.length > 1;
    return html`<figure part="figure">
      ${
        legend
          ? html`<ul part="legend" class="legend" aria-label=${msg('Series')}>
              ${data.series.map((s) => html`<li><span class="swatch"></span>${s.name}</li>`)}
            </ul>`
          : nothing
      }
      ${
        this.loadFailed
          ? html`<p class="empty">${msg('The chart could not be loaded; the numbers are in the table below.')}</p>`
          : html`<div part="canvas" class="canvas" role="img" aria-label=${this.label}></div>`
      }
      <details part="data-table" ?open=${this.loadFailed}>
        <summary>${msg('Show data as a table')}</summary>
        ${this.renderTable(data)}
      </details>
      <div class="palette" aria-hidden="true" @transitionend=${this.#redraw} @transitioncancel=${this.#redraw}>
        ${Array.from({ length: 4 + PALETTE_SIZE }, () => html`<span></span>`)}
      </div>
    </figure>`;
  }

  private renderTable(data: ChartData) {
    return html`<table>
      <caption class="visually-hidden">${this.label}</caption>
      <thead>
        <tr>
          <th scope="col">${data.categoryName ?? (data.type === 'pie' ? msg('Group') : msg('Month'))}</th>
          ${data.series.map((s) => html`<th scope="col">${s.name}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${data.categories.map(
          (category, i) => html`<tr>
            <th scope="row">${this.categoryLink?.(i) ?? category}</th>
            ${data.series.map((s) => html`<td>${Number.isFinite(s.values[i]) ? this.formatValue(s.values[i]!) : '—'}</td>`)}
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (isBlank(this.data)) {
      this.#dispose();
    } else if (changed.has('data') || changed.has('formatValue') || !this.chart) {
      void this.draw();
    }
  }

  /** Draws (or redraws with the current theme); loads the chart chunk on first use. */
  async draw(): Promise<void> {
    if (isBlank(this.data) || this.loadFailed) return;
    let charts: Awaited<ReturnType<typeof loadCharts>>;
    try {
      charts = await loadCharts(this.data!.type === 'pie' ? 'pie' : 'cartesian');
    } catch {
      this.loadFailed = true;
      return;
    }
    await this.updateComplete;
    // The first drawing waits for the frame that shows the panel's text: ECharts lays out and
    // draws synchronously, and would otherwise hold that frame back by its own 10-20 ms.
    if (!this.chart) await afterNextPaint();
    const canvas = this.canvas;
    if (!this.isConnected || !canvas || isBlank(this.data)) return;
    if (!this.chart || this.chart.isDisposed()) {
      clearWithoutInnerHtml(canvas);
      this.chart = charts.init(canvas, undefined, { renderer: 'canvas' });
      // A click on a bar, point or slice names its category; the element that drew the chart decides where it leads.
      this.chart.on('click', (params: { dataIndex?: number }) => {
        const index = params.dataIndex;
        const category = index === undefined ? undefined : this.data?.categories[index];
        if (category !== undefined) this.dispatchEvent(new CustomEvent('ops-chart-select', { detail: { index, category }, bubbles: true, composed: true }));
      });
      this.#resizeObserver = new ResizeObserver(() => this.chart?.resize());
      this.#resizeObserver.observe(canvas);
    }
    this.chart.setOption(charts.buildOption(this.data!, this.readTheme(), this.formatValue), { notMerge: true });
  }

  private readTheme(): ChartTheme {
    const colors = [...this.renderRoot.querySelectorAll<HTMLElement>('.palette span')].map((span) => getComputedStyle(span).color);
    const [text = '#222', muted = '#666', border = '#ccc', surface = '#fff', ...palette] = colors;
    return { fontFamily: getComputedStyle(this).fontFamily, text, muted, border, surface, palette, reducedMotion: this.#motionQuery?.matches ?? false };
  }

  #dispose(): void {
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = undefined;
    if (this.chart && !this.chart.isDisposed()) this.chart.dispose();
    this.chart = undefined;
  }
}

/** Resolves in the task after the next frame is painted (requestAnimationFrame runs just before it). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

/**
 * zrender empties its root with `root.innerHTML = ''` when it starts and when it is disposed.
 * On a host page that requires Trusted Types that assignment is blocked (even for ''), so the
 * chart's own container gets an innerHTML that empties it without touching the HTML sink.
 */
function clearWithoutInnerHtml(element: HTMLElement): void {
  Object.defineProperty(element, 'innerHTML', {
    configurable: true,
    get: () => '',
    set: (value: unknown) => {
      if (value === '') element.replaceChildren();
    },
  });
}
