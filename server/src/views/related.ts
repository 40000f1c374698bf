/** Related endpoints with ids and request counts over the recent window. */
import { DAY_MS, RECENT_DAYS, endpointId, endpointLabel, type ViewContext } from '../context.ts';
import type { EventFilter } from '../store/types.ts';
import { reads, type RouteCounts, type RouteStats } from '../domain/reads.ts';

export interface RelatedEndpoint {
  id?: string;
  label: string;
  requests: number;
}

/** The asked time range, else the last 30 days. */
export const recentWindow = (ctx: ViewContext) =>
  ctx.window ? { from: ctx.window.from, to: ctx.window.to } : { from: ctx.now - RECENT_DAYS * DAY_MS, to: ctx.now + 1 };

/** Per-route figures with p95, for the endpoint table. */
export async function recentRoutes(ctx: ViewContext, filter: EventFilter = {}): Promise<RouteStats[]> {
  return reads(ctx).byRoute({ ...filter, ...recentWindow(ctx) });
}

/** Per-route counts only (pre-counted where the store can), for everything that needs no percentile. */
export async function recentCounts(ctx: ViewContext, filter: EventFilter = {}): Promise<RouteCounts[]> {
  return reads(ctx).countsByRoute({ ...filter, ...recentWindow(ctx) });
}

/** One entry per method and route (all API versions together, the busiest version's id), busiest first. */
export function relatedFrom(routes: readonly RouteCounts[], limit = 3): RelatedEndpoint[] {
  const byLabel = new Map<string, RelatedEndpoint>();
  for (const r of [...routes].sort((a, b) => b.requests - a.requests)) {
    const label = endpointLabel(r.method, r.route);
    const seen = byLabel.get(label);
    if (seen) seen.requests += r.requests;
    else byLabel.set(label, { id: endpointId(r.apiVersion, r.method, r.route), label, requests: r.requests });
  }
  return [...byLabel.values()].sort((a, b) => b.requests - a.requests).slice(0, limit);
}

/** Related entries for given labels, in the given order; a label without recent traffic has no id. */
export function relatedForLabels(routes: readonly RouteCounts[], labels: readonly string[]): RelatedEndpoint[] {
  const all = relatedFrom(routes, Infinity);
  return labels.map((label) => all.find((r) => r.label === label) ?? { label, requests: 0 });
}
