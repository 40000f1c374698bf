import type { ConsoleClient } from '../../api/client.ts';
import type { Page, RequestEntry } from '../../api/schemas.ts';
import { IntervalController } from '../../shared/interval.ts';
import type { OpsElement } from '../../shared/ops-element.ts';

export interface LiveTailOptions {
  /** Seconds between polls while live; 0 stops polling. */
  periodSeconds: () => number;
  /** Fetches entries newer than `since` under the current filters. */
  poll: (client: ConsoleClient, since: string | undefined, signal: AbortSignal) => Promise<Page<RequestEntry>>;
  /** Every entry id on screen or waiting, so nothing shows twice. */
  knownIds: () => Set<string>;
  /** The newest time on screen, for `since`. */
  newestTime: () => string | undefined;
  /** Whether the reader is at the top of the list, where new rows can appear without moving anything. */
  readerAtTop: () => boolean;
}

/**
 * Live tail for the request log: new entries go on top when the reader is at the top, and
 * wait behind an "N new" button when the reader has scrolled down, so the list never jumps.
 */
export class LiveTail {
  /** Arrived entries shown on top, newest first. */
  shown: RequestEntry[] = [];
  /** Arrived entries waiting for the reader, newest first. */
  pending: RequestEntry[] = [];
  readonly #host: OpsElement;
  readonly #options: LiveTailOptions;
  readonly #interval: IntervalController;
  #abort?: AbortController;

  constructor(host: OpsElement, options: LiveTailOptions) {
    this.#host = host;
    this.#options = options;
    this.#interval = new IntervalController(host, () => options.periodSeconds() * 1000, () => void this.check());
    host.addController({ hostDisconnected: () => this.#abort?.abort() });
  }

  /** Forget arrivals (filters changed) and cancel a poll on its way. */
  reset(): void {
    this.#abort?.abort();
    this.shown = [];
    this.pending = [];
    this.#host.requestUpdate();
  }

  restart(): void {
    this.#interval.restart();
  }

  /** Moves the waiting entries on top (the "N new" button). */
  showPending(): void {
    this.shown = [...this.pending, ...this.shown];
    this.pending = [];
    this.#host.requestUpdate();
  }

  async check(): Promise<void> {
    const client = this.#host.client;
    if (!client) return;
    this.#abort?.abort();
    const controller = (this.#abort = new AbortController());
    try {
      const page = await this.#options.poll(client, this.#options.newestTime(), controller.signal);
      if (controller.signal.aborted) return;
      const known = this.#options.knownIds();
      const arrivals = page.items.filter((entry) => !known.has(entry.id));
      if (!arrivals.length) return;
      if (this.#options.readerAtTop() && !this.pending.length) this.shown = [...arrivals, ...this.shown];
      else this.pending = [...arrivals, ...this.pending];
      this.#host.requestUpdate();
    } catch {
      // A failed poll changes nothing on screen; the next one tries again.
    }
  }
}
