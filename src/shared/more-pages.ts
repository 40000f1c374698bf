import { html, nothing } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { ConsoleClient } from '../api/client.ts';
import type { Page } from '../api/schemas.ts';
import { toConsoleError } from './data-task.ts';
import type { OpsElement } from './ops-element.ts';

/** A page size the contract accepts (1–500), or `fallback` when the attribute is not a number. */
export function pageLimit(limit: number, fallback: number): number {
  return Number.isFinite(limit) ? Math.min(500, Math.max(1, Math.round(limit))) : fallback;
}

/**
 * "Load more" for a cursor-paged list whose first page comes from a DataTask: the pages
 * after the first, their loading and error states, and the button. Reset it whenever the
 * first page's inputs change so pages of an old filter never mix with a new one.
 */
export class MorePages<T> {
  #pages: Page<T>[] = [];
  readonly #host: OpsElement;
  readonly #task: Task<[string], Page<T>>;

  constructor(host: OpsElement, fetchPage: (client: ConsoleClient, cursor: string, signal: AbortSignal) => Promise<Page<T>>) {
    this.#host = host;
    this.#task = new Task(host, {
      autoRun: false,
      task: async ([cursor], { signal }) => {
        const client = host.client;
        if (!client) throw new Error('No console API is configured.');
        const page = await fetchPage(client, cursor, signal);
        signal.throwIfAborted();
        this.#pages = [...this.#pages, page];
        return page;
      },
    });
  }

  /** Drops the extra pages and cancels one on its way. */
  reset(): void {
    this.#task.abort();
    this.#pages = [];
    this.#host.requestUpdate();
  }

  /** How many pages after the first are loaded (changes whenever items do). */
  get pageCount(): number {
    return this.#pages.length;
  }

  /** All items loaded so far, first page first. */
  items(first: Page<T>): T[] {
    return [first, ...this.#pages].flatMap((page) => page.items);
  }

  nextCursor(first: Page<T>): string | null {
    return (this.#pages.at(-1) ?? first).nextCursor;
  }

  /** Loads the page after the last one loaded. */
  loadNext(first: Page<T>): void {
    const cursor = this.nextCursor(first);
    if (cursor && this.#task.status !== TaskStatus.PENDING) void this.#task.run([cursor]);
  }

  /** The "Load more" button, its busy state, or the error with Retry. */
  render(first: Page<T>) {
    const cursor = this.nextCursor(first);
    const { status, error } = this.#task;
    if (status === TaskStatus.ERROR && toConsoleError(error).kind !== 'aborted') {
      return html`<p class="more-error" role="alert">
        ${toConsoleError(error).message}
        <button class="button" type="button" @click=${() => this.loadNext(first)}>Retry</button>
      </p>`;
    }
    if (!cursor) return nothing;
    const loading = status === TaskStatus.PENDING;
    return html`<button part="load-more" class="button load-more" type="button" ?disabled=${loading} @click=${() => this.loadNext(first)}>
      ${loading ? 'Loading…' : 'Load more'}
    </button>`;
  }
}
