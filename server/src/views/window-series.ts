/** What every route asked with a time range adds: the window as resolved, and its series bucket by bucket. */
import { windowOf, type ResolvedWindow } from '@ops-console/contract/time-window';
import { isoSeconds, type ViewContext } from '../context.ts';
import { errorPct, roundMs } from '../figures.ts';
import type { EventFilter } from '../store/types.ts';
import { reads } from '../domain/reads.ts';

/** Requests, server errors, error rate and p95 per bucket, and the requests one window earlier, in two reads. */
export async function seriesOver(ctx: ViewContext, window: ResolvedWindow, filter: EventFilter = {}) {
  const [now, before] = await Promise.all([reads(ctx).latencyPerPeriod(window.buckets, filter), reads(ctx).perPeriod(window.previousBuckets, filter)]);
  return {
    starts: window.buckets.map((b) => isoSeconds(b.from)),
    requests: now.map((b) => b.requests),
    errors: now.map((b) => b.errors),
    errorPct: now.map((b) => errorPct(b.errors, b.requests)),
    // A bucket without requests has no latency: null, not an instant 0 ms.
    p95Ms: now.map((b) => (b.requests ? roundMs(b.p95Ms) : null)),
    previousRequests: before.map((b) => b.requests),
  };
}

/** `window` and `overTime` for a response, when the request asked for a range. */
export async function windowed(ctx: ViewContext, filter: EventFilter = {}) {
  return ctx.window ? { window: windowOf(ctx.window), overTime: await seriesOver(ctx, ctx.window, filter) } : {};
}
