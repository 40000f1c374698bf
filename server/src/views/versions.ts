/** GET /versions: requests per API version over the asked range (the last 30 days unless asked), with shares and each bucket. */
import { isoSeconds, resolveWindow, windowOf } from '@ops-console/contract/time-window';
import type { ViewContext } from '../context.ts';
import { sharesPct } from '../figures.ts';

const byVersion = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

export async function versions(ctx: ViewContext) {
  const window = ctx.window ?? resolveWindow({ range: '30d' }, ctx.now, ctx.timeZone);
  const rows = await ctx.stores.telemetry.counts(ctx.accountId, { periods: window.buckets, by: ['apiVersion'] });
  const totals = rows.map((r) => r.requests.reduce((sum, n) => sum + n, 0));
  const shares = sharesPct(totals);
  return {
    window: windowOf(window),
    starts: window.buckets.map((b) => isoSeconds(b.from)),
    versions: rows
      .map((r, i) => ({ version: r.group.apiVersion || null, requests: totals[i]!, sharePct: shares[i]!, perBucket: r.requests }))
      // Busiest first; among equals by version, requests without one last.
      .sort((a, b) => b.requests - a.requests || byVersion(a.version, b.version)),
  };
}
