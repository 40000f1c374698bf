import { html, nothing, type ReactiveController } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { ConsoleClient } from '../api/client.ts';
import { toConsoleError, type ConsoleApiError } from '../api/errors.ts';
import type { Page } from '../api/schemas.ts';
import { formatInteger, formatTime } from '../format/format.ts';
import { TaskStatus } from '@lit/task';
import { DataTask } from './data-task.ts';
import type { OpsElement } from './ops-element.ts';
import { msg, str } from '../localize/localize.ts';

/** Which page to load: the first (`cursor` null), a later one, or the items newer than `since`. */
export interface PageRequest {
  cursor: string | null;
  /** Set on live polls when the list knows its newest item and the API filters by time. */
  since?: string | undefined;
}

export interface ListConfig<Q, T extends { id: string }> {
  /** The list's query, declared once. Any change of it — or of the API client (tenant, token) — starts the list afresh. */
  query: () => Q;
  /** Loads one page of the query. */
  load: (client: ConsoleClient, query: Q, page: PageRequest, signal: AbortSignal) => Promise<Page<T>>;
  /** Seconds between live polls; 0 is off. Values under {@link MIN_POLL_SECONDS} are raised to it. */
  pollSeconds?: () => number;
  /** The `since` value for a poll, from the newest item on screen (for APIs that filter by time). */
  since?: (newest: T) => string;
  /** Whether arrivals may go straight on top; when false they wait behind the "N new" button. Default: always. */
  readerAtTop?: () => boolean;
  /** Most items kept; past it the oldest are dropped and "Load more" ends. */
  cap: number;
  /** When false, nothing loads (e.g. a view not shown yet). */
  enabled?: () => boolean;
  /** Whether the loaded list counts as empty (default: no items). */
  isEmpty?: (items: readonly T[]) => boolean;
  /** After the waiting arrivals moved on top (e.g. scroll the list to show them). */
  onShowPending?: () => void;
  /** The clock of the "Updated 10:41" status. */
  now?: () => Date;
}

/** Shortest live period: faster polling only loads the API without showing anything sooner. */
export const MIN_POLL_SECONDS = 2;
/** Longest wait between failed polls. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** Pages a catch-up poll follows before it shows a gap instead. */
export const MAX_CATCH_UP_PAGES = 5;

type PollStatus = { state: 'idle' } | { state: 'updated'; at: Date } | { state: 'failed'; retryInMs: number; error: ConsoleApiError };

/**
 * The one list mechanism: the first page (a {@link DataTask}), "Load more" by cursor, live
 * polling with backoff and catch-up, the "N new" queue, a cap, and the reset — all driven by
 * the query and the client, so no element keeps a reset list of its own.
 */
export class ListController<Q, T extends { id: string }> implements ReactiveController {
  readonly first: DataTask<readonly [string], Page<T>>;
  /** Items that arrived by live polling and are shown on top, newest first. */
  #arrived: T[] = [];
  /** Items that arrived while the reader was scrolled down, waiting behind "N new". */
  #pending: T[] = [];
  #morePages: T[][] = [];
  #cursor: string | null | undefined;
  #trimmed = false;
  #gap = false;
  #base: Page<T> | undefined;
  #key: readonly unknown[] = [];
  #moreAbort: AbortController | undefined;
  #moreError: ConsoleApiError | undefined;
  #pollAbort: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #status: PollStatus = { state: 'idle' };
  #version = 0;
  #list: { version: number; base: Page<T> | undefined; items: T[] } | undefined;
  readonly #host: OpsElement;
  readonly #config: ListConfig<Q, T>;
  readonly #onVisibility = () => {
    if (document.visibilityState === 'visible' && this.#pollingWanted()) this.#schedule(0);
  };

  constructor(host: OpsElement, config: ListConfig<Q, T>) {
    this.#host = host;
    this.#config = config;
    this.first = new DataTask(host, {
      args: () => [JSON.stringify(config.query())] as const,
      enabled: () => config.enabled?.() ?? true,
      load: (client, _key, signal) => config.load(client, config.query(), { cursor: null }, signal),
      isEmpty: (page) => (config.isEmpty ?? ((items: readonly T[]) => items.length === 0))([...this.#arrived, ...page.items]),
    });
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
    this.#schedulePoll();
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#stopPolling();
    this.#moreAbort?.abort();
  }

  /** Before each render: a new query or client starts afresh; a changed period reschedules. */
  hostUpdate(): void {
    const key = [this.#host.client, JSON.stringify(this.#config.query()), this.#config.pollSeconds?.() ?? 0];
    if (key[0] !== this.#key[0] || key[1] !== this.#key[1]) this.#reset();
    if (key.some((part, i) => part !== this.#key[i])) {
      this.#key = key;
      this.#schedulePoll();
    }
  }

  /** Every item on screen, newest first: live arrivals, the first page, then the pages loaded after it. */
  get items(): T[] {
    const base = this.first.value;
    if (base !== this.#base) this.#forgetExtras(base);
    if (this.#list?.version === this.#version && this.#list.base === base) return this.#list.items;
    const seen = new Set<string>();
    const all = [...this.#arrived, ...(base?.items ?? []), ...this.#morePages.flat()].filter((item) => !seen.has(item.id) && seen.add(item.id));
    const items = all.length > this.#config.cap ? all.slice(0, this.#config.cap) : all;
    this.#list = { version: this.#version, base, items };
    return items;
  }

  /** Arrivals waiting behind the "N new" button. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Moves the waiting arrivals on top (the "N new" button). */
  showPending(): void {
    this.#arrived = [...this.#pending, ...this.#arrived];
    this.#pending = [];
    this.#changed();
    this.#config.onShowPending?.();
  }

  get hasMore(): boolean {
    return !this.#trimmed && !!this.#nextCursor();
  }

  /**
   * Whether every item of the current query is on screen: its first page has arrived (not the
   * previous query's, still shown while the new one loads), and there is no next one (nor a
   * dropped one).
   */
  get isComplete(): boolean {
    return this.first.status === TaskStatus.COMPLETE && !this.#trimmed && !this.#gap && !this.#nextCursor();
  }

  get loadingMore(): boolean {
    return !!this.#moreAbort;
  }

  /** Loads the page after the last one loaded (no-op while one is on its way or at the end). */
  loadMore(): void {
    const client = this.#host.client;
    const cursor = this.#nextCursor();
    if (!client || !cursor || this.#moreAbort || this.#trimmed) return;
    const controller = (this.#moreAbort = new AbortController());
    this.#moreError = undefined;
    this.#host.requestUpdate();
    const base = this.first.value;
    this.#config
      .load(client, this.#config.query(), { cursor }, controller.signal)
      .then(
        (page) => {
          if (controller.signal.aborted || base !== this.first.value) return;
          this.#morePages = [...this.#morePages, page.items];
          this.#cursor = page.nextCursor;
          this.#applyCap();
        },
        (error: unknown) => {
          if (!controller.signal.aborted) this.#moreError = toConsoleError(error);
        },
      )
      .finally(() => {
        if (this.#moreAbort === controller) this.#moreAbort = undefined;
        this.#changed();
      });
  }

  /** Starts the list again from the first page (the gap marker's Reload). */
  reload(): void {
    this.#reset();
    this.first.retry();
  }

  /** Checks for new items now. */
  async poll(): Promise<void> {
    const client = this.#host.client;
    const base = this.first.value;
    if (!client || !base) return;
    this.#pollAbort?.abort();
    const controller = (this.#pollAbort = new AbortController());
    try {
      const arrivals = await this.#fetchArrivals(client, controller.signal);
      if (controller.signal.aborted || base !== this.first.value) return;
      if (arrivals.length) {
        if ((this.#config.readerAtTop?.() ?? true) && !this.#pending.length) this.#arrived = [...arrivals, ...this.#arrived];
        else this.#pending = [...arrivals, ...this.#pending];
        this.#applyCap();
      }
      this.#failures = 0;
      this.#status = { state: 'updated', at: this.#now() };
    } catch (error) {
      if (controller.signal.aborted) return;
      const problem = toConsoleError(error);
      this.#failures++;
      this.#status = { state: 'failed', retryInMs: this.#backoff(problem), error: problem };
    } finally {
      if (this.#pollAbort === controller) this.#pollAbort = undefined;
      this.#changed();
      this.#schedulePoll();
    }
  }

  /** Follows pages of newer items until it reaches one already shown; past {@link MAX_CATCH_UP_PAGES} it marks a gap. */
  async #fetchArrivals(client: ConsoleClient, signal: AbortSignal): Promise<T[]> {
    const known = new Set([...this.#pending, ...this.items].map((item) => item.id));
    const newest = this.#pending[0] ?? this.items[0];
    const since = newest && this.#config.since?.(newest);
    const arrivals: T[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages++) {
      const page = await this.#config.load(client, this.#config.query(), { cursor, since }, signal);
      const index = page.items.findIndex((item) => known.has(item.id));
      arrivals.push(...(index === -1 ? page.items : page.items.slice(0, index)).filter((item) => !known.has(item.id)));
      if (index !== -1 || !page.nextCursor || !known.size) return arrivals;
      cursor = page.nextCursor;
    }
    this.#gap = true;
    return arrivals;
  }

  /** Polling's quiet status line, the gap marker and the "N new" button. */
  renderLive(format = this.#host.formatOptions) {
    const status = this.#status;
    const line =
      status.state === 'updated'
        ? msg(str`Updated ${formatTime(status.at, format)}`)
        : status.state === 'failed'
          ? msg(str`Couldn’t refresh — retrying in ${formatInteger(Math.ceil(status.retryInMs / 1000), format)} s`)
          : '';
    return html`<div class="live" part="live-status">
      <p class="live-status" role="status" title=${ifDefined(status.state === 'failed' ? status.error.sentence : undefined)}>${line}</p>
      ${
        this.#gap
          ? html`<p class="gap" part="gap" role="alert">
            ${msg('Some entries were skipped.')}
            <button class="button" type="button" @click=${() => this.reload()}>${msg('Reload')}</button>
          </p>`
          : nothing
      }
      ${
        this.#pending.length
          ? html`<button part="new-entries" type="button" class="button new-entries" @click=${() => this.showPending()}>${msg(str`${formatInteger(this.#pending.length, format)} new`)}</button>`
          : nothing
      }
    </div>`;
  }

  /**
   * "Load more", its busy state, the error with Retry, or the note that older items were
   * dropped. A list that pages as the reader scrolls passes `button: false`.
   */
  renderMore(format = this.#host.formatOptions, { button = true } = {}) {
    if (this.#moreError) {
      return html`<p class="more-error" role="alert">
        ${this.#moreError.sentence}
        ${this.#moreError.retryable ? html`<button class="button" type="button" @click=${() => this.loadMore()}>${msg('Retry')}</button>` : nothing}
      </p>`;
    }
    if (this.#trimmed) return html`<p class="muted capped" part="capped">${msg(str`Showing the newest ${formatInteger(this.#config.cap, format)}.`)}</p>`;
    if (!this.#nextCursor() || !button) return nothing;
    const loading = this.loadingMore;
    return html`<button part="load-more" class="button load-more" type="button" ?disabled=${loading} @click=${() => this.loadMore()}>
      ${loading ? msg('Loading…') : msg('Load more')}
    </button>`;
  }

  #nextCursor(): string | null {
    const base = this.first.value;
    if (base !== this.#base) this.#forgetExtras(base);
    return this.#cursor === undefined ? (base?.nextCursor ?? null) : this.#cursor;
  }

  #now(): Date {
    return this.#config.now?.() ?? new Date();
  }

  #applyCap(): void {
    const cap = this.#config.cap;
    let total = this.#arrived.length + this.#pending.length + (this.first.value?.items.length ?? 0) + this.#morePages.reduce((n, p) => n + p.length, 0);
    while (total > cap && this.#morePages.length) {
      total -= this.#morePages.pop()!.length;
      this.#trimmed = true;
    }
    if (total > cap) {
      // Arrivals pass the cap: keep the newest; `items` shows at most `cap` of them and the first page.
      const room = Math.max(0, cap - this.#pending.length);
      if (this.#arrived.length > room) this.#arrived = this.#arrived.slice(0, room);
      this.#pending = this.#pending.slice(0, cap);
      this.#trimmed = true;
    }
  }

  #backoff(error: ConsoleApiError): number {
    if (error.retryAfterMs !== undefined) return Math.max(error.retryAfterMs, this.#periodMs());
    const exponential = Math.min(MAX_BACKOFF_MS, this.#periodMs() * 2 ** this.#failures);
    // Jitter spreads the retries of many open pages so a recovering server is not hit at once.
    return Math.round(exponential * (0.75 + Math.random() * 0.25));
  }

  #periodMs(): number {
    const seconds = this.#config.pollSeconds?.() ?? 0;
    return seconds > 0 ? Math.max(MIN_POLL_SECONDS, seconds) * 1000 : 0;
  }

  #pollingWanted(): boolean {
    return this.#host.isConnected && this.#periodMs() > 0 && (this.#config.enabled?.() ?? true);
  }

  #schedulePoll(): void {
    if (!this.#pollingWanted()) {
      this.#stopPolling();
      return;
    }
    this.#schedule(this.#status.state === 'failed' ? this.#status.retryInMs : this.#periodMs());
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // A hidden tab is not polled; the visibility listener catches up when it shows again.
      if (document.visibilityState === 'hidden') return;
      void this.poll();
    }, delayMs);
  }

  #stopPolling(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pollAbort?.abort();
    this.#pollAbort = undefined;
  }

  #forgetExtras(base: Page<T> | undefined): void {
    this.#base = base;
    this.#morePages = [];
    this.#cursor = undefined;
    this.#trimmed = false;
    this.#moreError = undefined;
    this.#moreAbort?.abort();
    this.#moreAbort = undefined;
    this.#version++;
  }

  #reset(): void {
    this.#forgetExtras(this.first.value);
    this.#arrived = [];
    this.#pending = [];
    this.#gap = false;
    this.#failures = 0;
    this.#status = { state: 'idle' };
    this.#pollAbort?.abort();
  }

  #changed(): void {
    this.#version++;
    this.#host.requestUpdate();
  }
}
