import { initialState, Task, TaskStatus } from '@lit/task';
import type { ConsoleClient } from '../api/client.ts';
import { ConsoleApiError, isConsoleApiError } from '../api/errors.ts';
import type { OpsElement } from './ops-element.ts';

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
  new ConsoleApiError('No console API is configured. Set the api-base attribute, or wrap the element in <ops-console api-base="…">.', {
    kind: 'network',
    url: '',
  });

/** Any failure as the one error type, so the error state always has words for a person. */
export function toConsoleError(error: unknown): ConsoleApiError {
  if (isConsoleApiError(error)) return error;
  return new ConsoleApiError('Something went wrong while showing this panel.', { kind: 'invalid-response', url: '', cause: error });
}

/**
 * The one way elements load data: a @lit/task whose args are the resolved API client plus
 * the element's inputs. @lit/task drops results of superseded runs, so a slow old response
 * never paints over a newer one; this adds cancelling on disconnect and the load-error event.
 */
export class DataTask<A extends readonly unknown[], T> extends Task<[ConsoleClient | undefined, ...A], T> {
  readonly isEmpty: (value: T) => boolean;
  #interrupted = false;

  constructor(host: OpsElement, config: DataTaskConfig<A, T>) {
    super(host, {
      args: () => [host.client, ...config.args()] as [ConsoleClient | undefined, ...A],
      task: ([client, ...args], { signal }) => {
        if (config.enabled && !config.enabled(args)) return initialState;
        if (!client) throw missingConfig();
        return config.load(client, args, signal);
      },
      onError: (error) => {
        const consoleError = toConsoleError(error);
        if (consoleError.kind !== 'aborted') host.emit('ops-load-error', { error: consoleError });
      },
    });
    this.isEmpty = config.isEmpty ?? (() => false);
    host.addController(this);
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
