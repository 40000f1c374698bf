/** The arithmetic behind the figures, kept apart from storage so every store computes the same. */

/**
 * Signed change from `previous` to `current` in percent, one decimal; `null` when there is nothing
 * to compare with (the previous period has no data, or its figure is 0: a change from 0 has no percentage).
 */
export function changePct(current: number, previous: number): number | null {
  if (!Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return null;
  return round1(((current - previous) / previous) * 100);
}

/** Errors (status ≥ 500) over all requests, in percent, one decimal. */
export function errorPct(errors: number, requests: number): number {
  return requests ? round1((errors / requests) * 100) : 0;
}

export const round1 = (value: number) => Math.round(value * 10) / 10;

/** A latency in milliseconds to the microsecond (3 decimals): every duration and percentile a route sends is rounded so. */
export const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * Shares of `values` in percent with one decimal that add up to exactly 100.0 (largest
 * remainder: floor every share to tenths, then give the leftover tenths to the largest remainders).
 */
export function sharesPct(values: readonly number[]): number[] {
  const total = values.reduce((sum, v) => sum + v, 0);
  if (!total) return values.map(() => 0);
  const tenths = values.map((v) => (v / total) * 1000);
  const floors = tenths.map(Math.floor);
  let left = 1000 - floors.reduce((sum, v) => sum + v, 0);
  const order = tenths.map((t, i) => ({ i, remainder: t - floors[i]! })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors.map((t) => t / 10);
}

export interface Thresholds {
  /** Errors % at or above which an endpoint is Failing (default 5). */
  failingErrorPct: number;
  /** p95 in ms at or above which an endpoint is Slow (default 1,000). */
  slowP95Ms: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { failingErrorPct: 5, slowP95Ms: 1000 };

export function endpointStatus(errorPercent: number, p95Ms: number, thresholds: Thresholds): 'Healthy' | 'Failing' | 'Slow' {
  if (errorPercent >= thresholds.failingErrorPct) return 'Failing';
  if (p95Ms >= thresholds.slowP95Ms) return 'Slow';
  return 'Healthy';
}

/** The group of a route on the overview: its first path segment (`/auth/token` → `/auth`). */
export function routeGroup(route: string): string {
  const first = route.split('/').find(Boolean);
  return first ? `/${first}` : '/';
}
