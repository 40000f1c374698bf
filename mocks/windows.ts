/**
 * Time ranges in the mocks: the window is resolved by the contract's own code (as the server
 * does, in UTC), and its buckets get steady made-up figures at the rate of the fixtures' month.
 */
import type { CountSeries, TimeWindow, WindowSeries } from '../src/api/schemas.ts';
import { isoSeconds, parseWindow, resolveWindow, windowOf, type ResolvedWindow } from '@ops-console/contract/time-window';
import { hash } from './generate.ts';
import { problem } from './problem.ts';

const MONTH_MS = 30 * 86_400_000;

/** The window a mock request asks for: none, a window, or the 400 a server would answer. */
export function askedWindow(url: URL, now: Date): ResolvedWindow | undefined | Response {
  const asked = parseWindow({ range: url.searchParams.get('range'), from: url.searchParams.get('from'), to: url.searchParams.get('to') });
  if (typeof asked === 'string') return problem(400, 'Bad request', asked, [{ field: url.searchParams.has('from') ? 'from' : 'range', message: asked }]);
  return asked && resolveWindow(asked, now.getTime(), 'UTC');
}

/** A figure that moves a little from bucket to bucket (0.8 to 1.2 of `perMonth`'s rate), the same on every call. */
export function perBucket(perMonth: number, periods: readonly { from: number; to: number }[], seed: number): number[] {
  return periods.map((p) => Math.round(((perMonth * (p.to - p.from)) / MONTH_MS) * (0.8 + (hash(Math.floor(p.from / 60_000), seed) % 41) / 100)));
}

export interface Rates {
  /** Requests in 30 days. */
  perMonth: number;
  errorPct: number;
  p95Ms: number;
}

/** `window` and `overTime` of a ranged mock response, with the series' sums for its figures. */
export function windowedMock(window: ResolvedWindow, rates: Rates, seed = 7) {
  const requests = perBucket(rates.perMonth, window.buckets, seed);
  const previousRequests = perBucket(rates.perMonth * 0.9, window.previousBuckets, seed + 1);
  // Errors come and go a little more than requests do: 0.5 to 1.5 times the rate.
  const errors = requests.map((n, i) => Math.round(((n * rates.errorPct) / 100) * (0.5 + (hash(i, seed + 2) % 101) / 100)));
  const overTime: WindowSeries = {
    starts: window.buckets.map((b) => isoSeconds(b.from)),
    requests,
    errors,
    errorPct: requests.map((n, i) => (n ? Math.round((errors[i]! / n) * 1000) / 10 : 0)),
    p95Ms: requests.map((n, i) => (n ? Math.round(rates.p95Ms * (0.85 + (hash(i, seed) % 31) / 100)) : null)),
    previousRequests,
  };
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
  return { window: windowOf(window), overTime, total: sum(requests), previousTotal: sum(previousRequests) };
}

/** `window` and `countsOverTime` of a ranged record (a webhook, an error record) counting `perMonth` things a month; nothing without a range. */
export function countsInWindow(request: Request, now: Date, perMonth: number): Response | { window?: TimeWindow; countsOverTime?: CountSeries } {
  const window = askedWindow(new URL(request.url), now);
  if (!window || window instanceof Response) return window ?? {};
  return {
    window: windowOf(window),
    countsOverTime: { starts: window.buckets.map((b) => isoSeconds(b.from)), values: perBucket(perMonth, window.buckets, 11) },
  };
}

/** A row's count over the window instead of 30 days, at the same rate. */
export const scaledToWindow = (perMonth: number, window: ResolvedWindow) => Math.round((perMonth * (window.to - window.from)) / MONTH_MS);
