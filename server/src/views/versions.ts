/**
 * GET /versions: requests per API version over the asked range (the last 30 days unless asked),
 * with shares and each bucket, and when each version was published; then the deprecations and
 * who still calls them.
 */
import { isoSeconds, resolveWindow, windowOf } from '@ops-console/contract/time-window';
import type { ViewContext } from '../context.ts';
import { sharesPct } from '../figures.ts';
import { deprecationFigures } from './deprecations.ts';

const byVersion = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

export async function versions(ctx: ViewContext) {
  const window = ctx.window ?? resolveWindow({ range: '30d' }, ctx.now, ctx.timeZone);
  const [counted, published, deprecations] = await Promise.all([
    ctx.stores.telemetry.counts(ctx.accountId, { periods: window.buckets, by: ['apiVersion'] }),
    ctx.stores.records.publishedVersions(ctx.accountId),
    deprecationFigures(ctx, window),
  ]);
  // A published version nobody has called yet is a row too: its zeros are the news.
  const seen = new Set(counted.map((r) => r.group.apiVersion));
  const rows = [
    ...counted,
    ...published.filter((p) => !seen.has(p.version)).map((p) => ({ group: { apiVersion: p.version }, requests: window.buckets.map(() => 0) })),
  ];
  const publishedBy = new Map(published.map((p) => [p.version, p]));
  const totals = rows.map((r) => r.requests.reduce((sum, n) => sum + n, 0));
  const shares = sharesPct(totals);
  return {
    window: windowOf(window),
    starts: window.buckets.map((b) => isoSeconds(b.from)),
    versions: rows
      .map((r, i) => {
        const release = publishedBy.get(r.group.apiVersion ?? '');
        return {
          version: r.group.apiVersion || null,
          requests: totals[i]!,
          sharePct: shares[i]!,
          perBucket: r.requests,
          ...(release && { publishedAt: isoSeconds(release.publishedAt), docsUrl: release.docsUrl }),
        };
      })
      // Busiest first; among equals by version, requests without one last.
      .sort((a, b) => b.requests - a.requests || byVersion(a.version, b.version)),
    deprecations,
  };
}
