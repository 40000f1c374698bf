/** The ingest API as the collector sees it: where a sink's URL points, and what each answer means for a batch. */
import type { CollectorProblem } from './types.ts';

/** The longest wait between attempts, whatever a Retry-After asks. */
export const MAX_BACKOFF_MS = 30_000;
/** Server errors (or failures of a store in this process) after which a batch is dropped. */
export const MAX_FAILURES = 5;

/** The ingest URL of a sink: the console server's base URL, or the ingest URL itself. */
export function ingestUrlOf(base: string): URL {
  const url = new URL(base);
  // A mistyped sink is the developer's to see when the collector is made, not a request's to carry.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`The collector's sink must be an http(s) URL, not ${url.protocol}`);
  if (!/\/ingest\/v1\/requests\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/ingest/v1/requests`;
  return url;
}

export function problemOf(status: number, url: URL, events: number): CollectorProblem {
  if (status === 401 || status === 403)
    return {
      kind: 'unauthorized',
      status,
      events,
      message: `The console server refused the ingest key (${status}): ${events} event(s) dropped. Check ingestKey.`,
    };
  if (status === 404)
    return {
      kind: 'not-found',
      status,
      events,
      message: `Nothing answers at ${url.href} (404): ${events} event(s) dropped. The sink URL is the console server's base URL.`,
    };
  if (status >= 500)
    return {
      kind: 'server-error',
      status,
      events,
      message: `The console server failed (${status}); a batch is tried ${MAX_FAILURES} times before it is dropped.`,
    };
  return { kind: 'refused', status, events, message: `The console server refused a batch (${status}): ${events} event(s) dropped.` };
}

/** How many events a 202 lists as rejected, and the first reason. */
export function rejectedOf(body: string): { count: number; first: string } {
  try {
    // The answer lists the first rejections; `rejectedCount` counts them all.
    const { rejected: list, rejectedCount } = JSON.parse(body) as { rejected?: { reason?: string }[]; rejectedCount?: unknown };
    if (!Array.isArray(list)) return { count: 0, first: '' };
    return { count: typeof rejectedCount === 'number' ? rejectedCount : list.length, first: list[0]?.reason ?? '' };
  } catch {
    return { count: 0, first: '' };
  }
}

/** A Retry-After value (seconds or an HTTP date) in milliseconds from now, at most the longest backoff. */
export function retryAfterMs(value: string | null, now: number): number {
  if (!value) return 0;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_BACKOFF_MS, Math.max(0, ms)) : 0;
}

/** Tells `onError` of each problem, or by default writes each kind once to console.warn; a hook that throws does not break the collector. */
export function problemTeller(onError: ((problem: CollectorProblem) => void) | undefined): (problem: CollectorProblem) => void {
  const warned = new Set<CollectorProblem['kind']>();
  const report =
    onError ??
    ((problem: CollectorProblem) => {
      if (warned.has(problem.kind)) return;
      warned.add(problem.kind);
      console.warn(`[ops-console collector] ${problem.message} (said once; pass onError to hear each time)`);
    });
  return (problem) => {
    try {
      report(problem);
    } catch {
      // the host's hook must not break the collector
    }
  };
}
