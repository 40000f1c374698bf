import { initialState, Task, TaskStatus } from '@lit/task';
import type { ConsoleClient } from '../api/client.ts';
import { configError, toConsoleError } from '../api/errors.ts';
import type { OpsElement } from './ops-element.ts';
import { msg } from '../localize/localize.ts';

export interface DataTaskConfig<A extends readonly unknown[], T> {
  /** The element's own inputs (attributes, state): a change re-runs the task. */
  args: () => A;
  /** Loads the data; pass `signal` on so a superseded or unmounted run is cancelled. */
  load: (client: ConsoleClient, args: A, signal: AbortSignal) => Promise<T>;
  /** Whether a loaded value should show the empty state. */
  isEmpty?: (value: T) => boolean;
  /** When false, nothing is loaded (e.g. a view not shown yet); include what it reads in `args`. */
  enabled?: (args: A) => boolean;
}

const missingConfig = () =>
  configError(() => msg('No console API is configured. Set the api-base attribute, or wrap the element in <ops-console api-base="…">.'));

/**
 * The one way elements load data: a @lit/task whose args are the resolved API client plus
 * the element's inputs. @lit/task drops results of superseded runs, so a slow old response
 * never paints over a newer one; this adds cancelling on disconnect, the load-error event, and
 * remembers which client loaded the value so one tenant's data never shows under another's.
 */
export class DataTask<A extends readonly unknown[], T> extends Task<[ConsoleClient | undefined, ...A], T> {
  readonly isEmpty: (value: T) => boolean;
  #interrupted = false;
  #loadedWith: ConsoleClient | undefined;
  readonly #host: OpsElement;

  constructor(host: OpsElement, config: DataTaskConfig<A, T>) {
    super(host, {
      args: () => [host.client, ...config.args()] as [ConsoleClient | undefined, ...A],
      task: ([client, ...args], { signal }) => {
        if (config.enabled && !config.enabled(args)) return initialState;
        if (!client) throw missingConfig();
        return config.load(client, args, signal);
      },
      onComplete: () => {
        this.#loadedWith = host.client;
      },
      onError: (error) => {
        const consoleError = toConsoleError(error);
        if (consoleError.kind === 'aborted') return;
        host.emit('ops-load-error', { error: consoleError });
        // The panel says it in plain words; what was wrong with the answer is for the developer.
        if (consoleError.issues.length) console.warn(`<${host.localName}> ${consoleError.message} ${consoleError.url}\n${consoleError.issues.join('\n')}`);
      },
    });
    this.#host = host;
    this.isEmpty = config.isEmpty ?? (() => false);
    host.addController(this);
  }

  /** The loaded value while a newer run is on its way, if it came from the same client (tenant); else nothing. */
  get previousValue(): T | undefined {
    return this.#loadedWith === this.#host.client ? this.value : undefined;
  }

  hostConnected(): void {
    if (this.#interrupted) {
      this.#interrupted = false;
      void this.run();
    }
  }

  hostDisconnected(): void {
    if (this.status === TaskStatus.PENDING) {
      this.#interrupted = true;
      this.abort();
    }
  }

  /** Runs again with the current args (the Retry button). */
  retry(): void {
    void this.run();
  }
}
