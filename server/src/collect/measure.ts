/** What the framework adapters share: reading the API version, the caller, and recording without ever throwing. */
import type { Collector, MeasuredRequest } from './collector.ts';
import type { Person } from '../store/types.ts';

/** Where the API version comes from: a header, the path's first segment (`/v2/…`), a fixed value, or your own function. */
export type VersionOption<R> = { header: string } | { pathPrefix: true } | { fixed: string } | ((request: R) => string | undefined);

/** Who called: key id, customer and actor. Errors it throws are ignored. */
export type Identify<R> = (request: R) => { keyId?: string; customerId?: string; actor?: Person } | undefined;

/** Status recorded when the client went away before the response finished (as nginx logs it). */
export const CLIENT_CLOSED = 499;

export function apiVersionOf<R>(option: VersionOption<R> | undefined, request: R, path: string, header: (name: string) => string | undefined): string | null {
  if (!option) return null;
  if (typeof option === 'function') return option(request) ?? null;
  if ('fixed' in option) return option.fixed;
  if ('header' in option) return header(option.header) ?? null;
  return /^\/(v\d+)(?:\/|$)/.exec(path)?.[1] ?? null;
}

/** Hands a measurement to the collector; a host hook that throws while it is made leaves this request unrecorded, never the host's response broken. */
export function recordSafely(collector: Collector, measure: () => MeasuredRequest): void {
  try {
    collector.record(measure());
  } catch {
    // nothing reaches the host
  }
}

/** Milliseconds since `started` (a performance.now() reading), to the microsecond. */
export const elapsedMs = (started: number, now: number) => Math.round((now - started) * 1000) / 1000;
