import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { VirtualizerController, type VirtualItem } from '@tanstack/lit-virtual';

export type { VirtualItem };

export interface VirtualRowsOptions {
  /** The element that scrolls (inside the host's shadow root); null while it is not rendered. */
  scroller: () => HTMLElement | null | undefined;
  /** How many rows the list has. */
  count: () => number;
  /** A stable key of the row at `index` (measured heights follow the row when the order changes). */
  key: (index: number) => string;
  /** Height of a row before it is measured, in px. */
  estimate: number;
  /** After each render, with the index of the last row rendered (e.g. to load the next page in time). */
  onRange?: (last: number) => void;
}

/**
 * The one mechanism for long lists and tables: only the rows in and near the scrolled view are
 * rendered, however many are loaded. A thin layer over @tanstack/lit-virtual (a range lookup by
 * binary search per scroll; rows measured once each, then watched by a ResizeObserver), which
 * keeps the row count in step with the host's data before each render. Each rendered row
 * carries `data-index` (its index in the whole list).
 */
export class VirtualRows implements ReactiveController {
  readonly #options: VirtualRowsOptions;
  readonly #controller: VirtualizerController<HTMLElement, Element>;
  #lastRange = '';
  readonly #measured = new WeakSet<Element>();

  constructor(host: ReactiveControllerHost, options: VirtualRowsOptions) {
    this.#options = options;
    // Added before the virtualizer's own controller, so the count is current when it updates.
    host.addController(this);
    this.#controller = new VirtualizerController<HTMLElement, Element>(host, {
      count: options.count(),
      getScrollElement: () => options.scroller() ?? null,
      getItemKey: (index) => options.key(index),
      estimateSize: () => options.estimate,
      // Rows beyond each edge of the view: enough for a fast wheel flick without blank rows.
      overscan: 8,
    });
  }

  get #virtualizer() {
    return this.#controller.getVirtualizer();
  }

  hostUpdate(): void {
    // @tanstack/lit-virtual reads its options once; the count changes as pages arrive.
    const count = this.#options.count();
    const virtualizer = this.#virtualizer;
    if (virtualizer.options.count !== count) virtualizer.setOptions({ ...virtualizer.options, count });
  }

  hostUpdated(): void {
    this.#measureNewRows();
    if (!this.#options.onRange) return;
    // Reported when the rendered range, the row count or the list itself (its first row) moves,
    // not after every update: a failed page load re-renders the host, and must not start the
    // next attempt by itself.
    const last = this.items.at(-1)?.index;
    const count = this.#options.count();
    const range = `${count ? this.#options.key(0) : ''}|${last}/${count}`;
    if (last === undefined || range === this.#lastRange) return;
    this.#lastRange = range;
    this.#options.onRange(last);
  }

  /** The rows to render now, each with its index and offset. */
  get items(): VirtualItem[] {
    return this.#virtualizer.getVirtualItems();
  }

  /** Height of all rows, measured or estimated, in px. */
  get totalSize(): number {
    return this.#virtualizer.getTotalSize();
  }

  /** Space above and below the rendered rows, in px (spacer rows for a table). */
  get padding(): { before: number; after: number } {
    const items = this.items;
    if (!items.length) return { before: 0, after: 0 };
    return { before: items[0]!.start, after: Math.max(0, this.totalSize - items.at(-1)!.end) };
  }

  /**
   * Rows (elements with `data-index` inside the scroller) are measured once, after the render
   * that placed them: a row is only laid out once it is in the document, and a ResizeObserver
   * reports any later change of its height.
   */
  #measureNewRows(): void {
    const scroller = this.#options.scroller();
    if (!scroller) return;
    const virtualizer = this.#virtualizer;
    virtualizer.measureElement(null); // forget rows that have left the DOM
    for (const row of scroller.querySelectorAll('[data-index]')) {
      if (this.#measured.has(row)) continue;
      this.#measured.add(row);
      virtualizer.measureElement(row);
    }
  }

  /** Scrolls the list back to its first row. */
  scrollToTop(): void {
    this.#virtualizer.scrollToOffset(0);
  }
}
