import type { ReactiveControllerHost } from 'lit';
import { newIdempotencyKey } from '../api/client.ts';
import { toConsoleError, type ConsoleApiError } from '../api/errors.ts';

/**
 * One write a person submits (a note, a new error record): never two at once, and one
 * Idempotency-Key per exact payload. Retrying the same payload after a failure or timeout
 * reuses its key, so the server creates one record; an edited payload gets a new key, so the
 * server never answers a correction with the first attempt's record.
 */
export class Submission {
  submitting = false;
  error: ConsoleApiError | undefined;
  #attempt: { key: string; payload: string } | undefined;
  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
  }

  /** The key of the last unfinished attempt (the one a retry of the same payload reuses). */
  get idempotencyKey(): string | undefined {
    return this.#attempt?.key;
  }

  /** Sends once; resolves with the result, or `undefined` when it failed (see `error`) or one is already on its way. */
  async run<P, T>(payload: P, send: (payload: P, idempotencyKey: string) => Promise<T>): Promise<T | undefined> {
    if (this.submitting) return undefined;
    const serialized = JSON.stringify(payload);
    if (this.#attempt?.payload !== serialized) this.#attempt = { key: newIdempotencyKey(), payload: serialized };
    const { key } = this.#attempt;
    this.submitting = true;
    this.error = undefined;
    this.#host.requestUpdate();
    try {
      const result = await send(payload, key);
      this.#attempt = undefined;
      return result;
    } catch (error) {
      this.error = toConsoleError(error);
      return undefined;
    } finally {
      this.submitting = false;
      this.#host.requestUpdate();
    }
  }

  /** Forget the attempt and the error (a new, different submission starts). */
  reset(): void {
    this.#attempt = undefined;
    this.error = undefined;
    this.#host.requestUpdate();
  }
}
