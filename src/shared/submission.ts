import type { ReactiveControllerHost } from 'lit';
import { newIdempotencyKey } from '../api/client.ts';
import type { ConsoleApiError } from '../api/errors.ts';
import { toConsoleError } from './data-task.ts';

/**
 * One write a person submits (a note, a new error record): never two at once, and one
 * Idempotency-Key for the submission, reused on every retry until it succeeds, so a retry
 * after a failure or timeout never creates a second record.
 */
export class Submission {
  submitting = false;
  error: ConsoleApiError | undefined;
  #key: string | undefined;
  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
  }

  /** The key of the submission in progress (or the one a retry will reuse). */
  get idempotencyKey(): string | undefined {
    return this.#key;
  }

  /** Sends once; resolves with the result, or `undefined` when it failed (see `error`) or one is already on its way. */
  async run<T>(send: (idempotencyKey: string) => Promise<T>): Promise<T | undefined> {
    if (this.submitting) return undefined;
    this.submitting = true;
    this.error = undefined;
    this.#key ??= newIdempotencyKey();
    this.#host.requestUpdate();
    try {
      const result = await send(this.#key);
      this.#key = undefined;
      return result;
    } catch (error) {
      this.error = toConsoleError(error);
      return undefined;
    } finally {
      this.submitting = false;
      this.#host.requestUpdate();
    }
  }

  /** Forget the key and the error (the person started a new, different submission). */
  reset(): void {
    this.#key = undefined;
    this.error = undefined;
    this.#host.requestUpdate();
  }
}
