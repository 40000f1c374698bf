/**
 * What went wrong, in categories an element can react to (e.g. offer sign-in on 401).
 * `config`: the page's own setup is wrong (no or a non-http(s) api-base, a bad id) — retrying
 * cannot help. `unexpected`: a fault in this console's own code, never the server's.
 */

import { msg, renderInLocale, str } from '../localize/localize.ts';
export type ConsoleApiErrorKind = 'network' | 'timeout' | 'http' | 'invalid-response' | 'aborted' | 'config' | 'unexpected';

export interface FieldError {
  field: string;
  message: string;
}

interface ConsoleApiErrorInit {
  kind: ConsoleApiErrorKind;
  url: string;
  status?: number;
  title?: string;
  detail?: string;
  fieldErrors?: FieldError[];
  issues?: string[];
  /** From a `Retry-After` header of a 429 or 503, in milliseconds. */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

/**
 * The one error type the client throws. `message` is written for the person looking at the
 * panel; the other fields are for code (status, problem+json title/detail, per-field errors
 * of a 422, and the list of what was wrong with an invalid response).
 */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError';
  readonly #words: () => string;
  readonly kind: ConsoleApiErrorKind;
  readonly url: string;
  readonly status: number | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly fieldErrors: readonly FieldError[];
  readonly issues: readonly string[];
  /** How long the server asked callers to wait (`Retry-After` on 429/503), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  /**
   * `message` is the sentence in English, for developers and logs; given as a function of
   * `msg()` calls, the same sentence is also available in the element's language ({@link sentence}).
   */
  constructor(message: string | (() => string), init: ConsoleApiErrorInit) {
    const words = typeof message === 'function' ? message : () => message;
    super(renderInLocale(undefined, words), { cause: init.cause });
    this.#words = words;
    this.kind = init.kind;
    this.url = init.url;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.fieldErrors = init.fieldErrors ?? [];
    this.issues = init.issues ?? [];
    this.retryAfterMs = init.retryAfterMs;
  }

  /** The message in the language of the element rendering it (English elsewhere). */
  get sentence(): string {
    return this.#words();
  }

  /** Whether trying the same call again may succeed (not for a rejected input, nor for a record or address that is not there). */
  get retryable(): boolean {
    if (this.kind === 'aborted' || this.kind === 'config') return false;
    return !(this.kind === 'http' && [400, 404, 410, 412, 422].includes(this.status ?? 0));
  }

  /** The API has nothing at this address: the record does not exist (any more), or api-base points elsewhere. */
  get notFound(): boolean {
    return this.kind === 'http' && (this.status === 404 || this.status === 410);
  }
}

/** Any failure as the one error type, so an error state always has words for a person. */
export function toConsoleError(error: unknown): ConsoleApiError {
  if (isConsoleApiError(error)) return error;
  if (error instanceof DOMException && error.name === 'AbortError') {
    return new ConsoleApiError(() => msg('The request was cancelled.'), { kind: 'aborted', url: '', cause: error });
  }
  return new ConsoleApiError(() => msg('Something went wrong while showing this panel.'), { kind: 'unexpected', url: '', cause: error });
}

/** A configuration problem of the host page, shown as such (no Retry: it cannot help). */
export function configError(message: string | (() => string), url = ''): ConsoleApiError {
  return new ConsoleApiError(message, { kind: 'config', url });
}

export function isConsoleApiError(value: unknown): value is ConsoleApiError {
  return value instanceof ConsoleApiError;
}

function statusSentence(status: number): string {
  switch (status) {
    case 400:
      return msg('The console API rejected the request.');
    case 401:
      return msg('You are not signed in to the console API, or your session has expired.');
    case 403:
      return msg('You do not have access to this part of the console.');
    case 404:
      return msg('The console API found nothing at this address: the record no longer exists, or api-base points elsewhere.');
    case 408:
      return msg('The console API took too long to answer.');
    case 409:
      return msg('This record was changed elsewhere. Reload and try again.');
    case 412:
      return msg('This record changed elsewhere.');
    case 413:
      return msg('The request was too large for the console API.');
    case 422:
      return msg('Some values were not accepted.');
    case 429:
      return msg('Too many requests to the console API. Wait a moment and try again.');
    default:
      return status >= 500 ? msg('The console API had a problem answering.') : msg(str`The console API answered with status ${status}.`);
  }
}

/** A sentence for an HTTP failure, in the language `msg()` answers in: the server's problem title/detail (its own words) when it sent one. */
export function httpWords(status: number, title?: string, detail?: string): () => string {
  const serverWords = [title, detail].filter((part) => part && part.trim()).join(': ');
  return () => {
    const base = statusSentence(status);
    return serverWords ? `${base} (${status} ${serverWords})` : msg(str`${base} (status ${status})`);
  };
}

/** {@link httpWords} in English. */
export function httpMessage(status: number, title?: string, detail?: string): string {
  return renderInLocale(undefined, httpWords(status, title, detail));
}
