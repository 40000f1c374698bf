import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { VirtualizerController, type VirtualItem } from '@tanstack/lit-virtual';

export type { VirtualItem };

export interface VirtualRowsOptions {
  /** The element that scrolls (inside the host's shadow root); null while it is not rendered. */
  scroller: () => HTMLElement | null | undefined;
  /** The whole list, in the order shown: the same array until it changes (measured heights follow each row by its id). */
  rows: () => readonly { id: string }[];
  /** Height of a row before it is measured, in px. */
  estimate: number;
  /** With the index of the last row rendered, after a render that moved it or changed the list (e.g. to load the next page in time). */
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
  #rows: readonly { id: string }[] = [];
  #scroller: HTMLElement | null = null;

  constructor(host: ReactiveControllerHost, options: VirtualRowsOptions) {
    this.#options = options;
    // Added before the virtualizer's own controller: the list is current when it updates, and a
    // new scroller's position is reset before it is attached.
    host.addController(this);
    this.#controller = new VirtualizerController<HTMLElement, Element>(host, {
      count: 0,
      getScrollElement: () => options.scroller() ?? null,
      estimateSize: () => options.estimate,
      // Rows beyond each edge of the view: enough for a fast wheel flick without blank rows.
      overscan: 8,
    });
  }

  get #virtualizer() {
    return this.#controller.getVirtualizer();
  }

  hostUpdate(): void {
    const virtualizer = this.#virtualizer;
    // @tanstack/lit-virtual reads its options once: a new list (pages arrived, another order)
    // gets a new count and key function, which is also what makes it place rows afresh.
    const rows = this.#options.rows();
    if (rows !== this.#rows) {
      // Another first row is another list (a filter, a tenant, a sort): it starts at its top.
      // Pages appended below, or arrivals while the reader is at the top, keep the place.
      const anotherList = this.#rows.length > 0 && rows[0]?.id !== this.#rows[0]?.id;
      this.#rows = rows;
      virtualizer.setOptions({ ...virtualizer.options, count: rows.length, getItemKey: (index) => rows[index]?.id ?? String(index) });
      if (anotherList) {
        virtualizer.scrollOffset = 0;
        virtualizer.scrollToOffset(0);
      }
    }
  }

  hostUpdated(): void {
    // A new scrolling element (another tenant's list, the timeline shown again) starts at the
    // top, and the first one where the reader left it (rows rendered before virtual scrolling
    // arrived may have been scrolled): the virtualizer, whose own controller attaches it right
    // after this, would otherwise scroll it to where the old one was. Only the first is read,
    // since reading a position lays the page out.
    const scroller = this.#options.scroller() ?? null;
    if (scroller !== this.#scroller) {
      const first = this.#scroller === null;
      this.#scroller = scroller;
      if (scroller) this.#virtualizer.scrollOffset = first ? scroller.scrollTop : 0;
    }
    this.#measureNewRows();
    // Without a scroller (a list too short to need one) the virtualizer's range is not the reader's.
    if (!this.#options.onRange || !scroller) return;
    // Reported when the rendered range, the row count or the list itself (its first row) moves,
    // not after every update: a failed page load re-renders the host, and must not start the
    // next attempt by itself.
    const last = this.items.at(-1)?.index;
    const rows = this.#rows;
    const range = `${rows[0]?.id ?? ''}|${last}/${rows.length}`;
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
