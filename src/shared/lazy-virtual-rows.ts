import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { VirtualRows, VirtualRowsOptions } from './virtual-rows.ts';

/** Lists longer than this render only the rows in view; shorter ones render every row. */
export const VIRTUAL_FROM = 100;

/**
 * How a list's rows render now:
 * - `VirtualRows`: only those in and near the view (a list longer than {@link VIRTUAL_FROM});
 * - `'all'`: every row (a short list, or virtual scrolling's code could not load: slower, nothing missing);
 * - `'first'`: the first {@link VIRTUAL_FROM} rows, for the frame or two while that code loads.
 */
export type RowsShown = VirtualRows | 'all' | 'first';

/**
 * Virtual scrolling for lists that may grow long (the endpoint table, the request log), imported
 * with the first list longer than {@link VIRTUAL_FROM} rows: its code (about 7.5 KB gz) is not
 * in the element's chunk, and most lists never need it. While the list is short the scroller is
 * not handed to the virtualizer, so it leaves the scroll position alone; `onRange` is then told
 * the last row's index once the reader comes within a screenful of it (the virtualizer, later,
 * reports the last row it renders).
 */
export class LazyVirtualRows implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #options: VirtualRowsOptions;
  #virtual: VirtualRows | 'loading' | 'failed' | undefined;
  #firstId: string | undefined;
  #lastRange = '';
  /** While every row renders: the last one, watched (without laying the page out) until it comes within a screenful of the view. */
  #observer: IntersectionObserver | undefined;
  #observerRoot: HTMLElement | null = null;
  #watched: Element | undefined;

  constructor(host: ReactiveControllerHost, options: VirtualRowsOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostUpdated(): void {
    // Another first row is another list (a filter, a tenant, an order): it starts at its top.
    const rows = this.#options.rows();
    const anotherList = this.#firstId !== undefined && rows[0]?.id !== this.#firstId;
    this.#firstId = rows[0]?.id;
    if (anotherList && !this.#virtualActive()) this.#options.scroller()?.scrollTo({ top: 0 });
    this.#watchLastRow();
  }

  hostConnected(): void {
    // Back in the page (moved, or shown again): the last row is watched afresh, and reported
    // even where it was before, since leaving the page cancelled the page being loaded.
    this.#lastRange = '';
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#observerRoot = null;
    this.#watched = undefined;
  }

  /**
   * Starts fetching virtual scrolling now when a page may bring more than {@link VIRTUAL_FROM}
   * rows (the list's page size), so that a long first page renders through it straight away
   * instead of switching over under the reader.
   */
  expect(pageSize: number): void {
    if (pageSize > VIRTUAL_FROM && this.#virtual === undefined) this.#load();
  }

  /** How the rows render in this update (starts the import the first time the list is long). */
  shown(): RowsShown {
    if (this.#options.rows().length <= VIRTUAL_FROM) return 'all';
    if (this.#virtual === undefined) this.#load();
    return this.#virtual === 'failed' ? 'all' : this.#virtual === 'loading' ? 'first' : this.#virtual!;
  }

  /** Scrolls the list back to its first row (a short list's scroller directly). */
  scrollToTop(): void {
    if (this.#virtualActive()) (this.#virtual as VirtualRows).scrollToTop();
    else this.#options.scroller()?.scrollTo({ top: 0 });
  }

  /** Whether virtual scrolling renders the rows now: loaded, and the list long enough (a short one renders in the flow, loaded or not). */
  #virtualActive(): boolean {
    return typeof this.#virtual === 'object' && this.#options.rows().length > VIRTUAL_FROM;
  }

  #watchLastRow(): void {
    const scroller = (this.#options.onRange && !this.#virtualActive() && this.#options.scroller()) || null;
    const last = scroller ? [...scroller.querySelectorAll('[data-index]')].at(-1) : undefined;
    if (scroller !== this.#observerRoot) {
      this.#observer?.disconnect();
      this.#observer = scroller ? new IntersectionObserver(this.#onSeen, { root: scroller, rootMargin: '0px 0px 100% 0px' }) : undefined;
      this.#observerRoot = scroller;
      this.#watched = undefined;
    }
    if (last === this.#watched) return;
    if (this.#watched) this.#observer?.unobserve(this.#watched);
    this.#watched = last;
    if (last) this.#observer?.observe(last);
  }

  /**
   * The last row rendered came within a screenful of the view: its index is reported, once per
   * list and row — a failed page load re-renders the host, and must not start the next attempt
   * by itself.
   */
  readonly #onSeen = (entries: IntersectionObserverEntry[]) => {
    const entry = entries.at(-1);
    const rows = this.#options.rows();
    if (!entry?.isIntersecting || entry.target !== this.#watched || !rows.length) return;
    const last = Number((entry.target as HTMLElement).dataset['index']);
    const range = `${rows[0]!.id}|${last}/${rows.length}`;
    if (range === this.#lastRange) return;
    this.#lastRange = range;
    this.#options.onRange?.(last);
  };

  #load(): void {
    this.#virtual = 'loading';
    const options = this.#options;
    import('./virtual-rows.ts').then(
      ({ VirtualRows }) => {
        // Rows already in the flow say how tall a row is here (a narrow container's rows are
        // taller), so the position the reader scrolled to maps to the same rows.
        const measured = options.scroller()?.querySelector('[data-index]')?.getBoundingClientRect().height;
        this.#virtual = new VirtualRows(this.#host, {
          ...options,
          estimate: measured || options.estimate,
          scroller: () => (options.rows().length > VIRTUAL_FROM ? options.scroller() : null),
        });
        this.#host.requestUpdate();
      },
      () => {
        this.#virtual = 'failed';
        this.#host.requestUpdate();
      },
    );
  }
}
