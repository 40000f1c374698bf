/** GET /endpoints: one row per (API version, method, route) over the recent window; GET /endpoints/{id}: one of them in detail. */
import { ENDPOINT_SORTS } from '@ops-console/contract/enums';
import { lastDays, type Period } from '../calendar.ts';
import { RECENT_DAYS, endpointId, endpointLabel, type ViewContext } from '../context.ts';
import { endpointStatus, errorPct, roundMs } from '../figures.ts';
import { badRequest, notFound } from '../problem.ts';
import { offsetCursor, pageOf } from '../paging.ts';
import { recentCounts, recentRoutes, recentWindow } from './related.ts';
import { windowed } from './window-series.ts';
import { reads } from '../domain/reads.ts';
import { deprecationOf, noticeOf } from './deprecations.ts';

const SORTS = ENDPOINT_SORTS;
const STATUSES = ['Healthy', 'Failing', 'Slow'];

export interface EndpointQuery {
  status?: string;
  q?: string;
  sort?: string;
  limit: number;
  cursor?: string;
}

/** How many rows (API versions) each method and route has among `routes`: a row's `versions`, counted before any filter or page. */
function versionsPerRoute(routes: readonly { method: string; route: string }[]): Map<string, number> {
  const versions = new Map<string, number>();
  for (const r of routes) {
    const label = endpointLabel(r.method, r.route);
    versions.set(label, (versions.get(label) ?? 0) + 1);
  }
  return versions;
}

export async function endpoints(ctx: ViewContext, query: EndpointQuery) {
  if (query.status && !STATUSES.includes(query.status)) throw badRequest(`status must be one of ${STATUSES.join(', ')}.`);
  const sort = query.sort || '-requests';
  if (!(SORTS as readonly string[]).includes(sort)) throw badRequest(`sort must be one of ${SORTS.join(', ')}.`);
  const offset = offsetCursor.decode(query.cursor);
  const needle = query.q?.toLowerCase();
  const [routes, deprecations] = await Promise.all([recentRoutes(ctx), ctx.stores.records.deprecations(ctx.accountId)]);
  const versions = versionsPerRoute(routes);
  const rows = routes
    .map((r) => {
      const pct = errorPct(r.errors, r.requests);
      const p95Ms = roundMs(r.p95Ms);
      const deprecation = deprecationOf(deprecations, r);
      return {
        id: endpointId(r.apiVersion, r.method, r.route),
        method: r.method,
        path: r.route,
        requests: r.requests,
        p50Ms: roundMs(r.p50Ms),
        p95Ms,
        p99Ms: roundMs(r.p99Ms),
        errorPct: pct,
        status: endpointStatus(pct, p95Ms, ctx.thresholds),
        ...(r.apiVersion ? { apiVersion: r.apiVersion } : {}),
        versions: versions.get(endpointLabel(r.method, r.route))!,
        ...(deprecation && { deprecation: noticeOf(deprecation, ctx.now) }),
        lastTs: r.lastTs,
      };
    })
    .filter((e) => (!query.status || e.status === query.status) && (!needle || `${e.method} ${e.path}`.toLowerCase().includes(needle)));
  const key = sort.replace('-', '') as 'requests' | 'p50Ms' | 'p95Ms' | 'p99Ms' | 'errorPct' | 'recent';
  const direction = sort.startsWith('-') || key === 'recent' ? -1 : 1;
  const value = (e: (typeof rows)[number]) => (key === 'recent' ? e.lastTs : e[key]);
  rows.sort((a, b) => direction * (value(a) - value(b)) || a.id.localeCompare(b.id));
  const page = rows.slice(offset, offset + query.limit + 1);
  return pageOf(
    page,
    query.limit,
    ({ lastTs, ...e }) => e,
    () => offsetCursor.encode(offset + query.limit),
  );
}

/** How many customers the endpoint page names. */
const TOP_CUSTOMERS = 5;
/** Days in the endpoint page's series. */
const SERIES_DAYS = 30;

/**
 * The (API version, method, route) behind an endpoint id: among the rows of GET /endpoints over
 * the asked range (or the request log's own bounds, `period`), else over the last 30 days (so an
 * endpoint quiet in the last hour still has its page).
 */
export async function endpointFilter(
  ctx: ViewContext,
  id: string,
  period?: Period,
): Promise<{ apiVersion: string; method: string; route: string } | undefined> {
  const lookups = [
    ...(ctx.window ? [() => recentCounts(ctx)] : []),
    ...(period ? [() => reads(ctx).countsByRoute(period)] : []),
    () => recentCounts({ ...ctx, window: undefined }),
  ];
  for (const read of lookups) {
    const found = (await read()).find((r) => endpointId(r.apiVersion, r.method, r.route) === id);
    if (found) return { apiVersion: found.apiVersion, method: found.method, route: found.route };
  }
  return undefined;
}

/** GET /endpoints/{id}: the row of GET /endpoints with its days, status codes and busiest customers (over the asked range, if any). */
export async function endpointDetail(ctx: ViewContext, id: string) {
  const routes = await recentRoutes(ctx);
  const inWindow = routes.find((r) => endpointId(r.apiVersion, r.method, r.route) === id);
  // Known from the last 30 days but without requests in the asked range: its page shows zeros, not "not found".
  const known = inWindow ?? (ctx.window ? await endpointFilter(ctx, id) : undefined);
  if (!known) throw notFound(`No endpoint ${id} with requests in the last ${RECENT_DAYS} days in this account.`);
  const row = inWindow ?? { ...known, requests: 0, errors: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0 };
  const filter = { apiVersion: row.apiVersion, method: row.method, route: row.route };
  const recent = { ...filter, ...recentWindow(ctx) };
  const days = lastDays(ctx.now, ctx.timeZone, SERIES_DAYS);
  const [perDay, statusCodes, customers, records, ranged, deprecations] = await Promise.all([
    reads(ctx).latencyPerPeriod(days, filter),
    reads(ctx).countsByStatus(recent),
    reads(ctx).countsByCustomer(recent),
    ctx.stores.records.customers(ctx.accountId),
    windowed(ctx, filter),
    ctx.stores.records.deprecations(ctx.accountId),
  ]);
  const deprecation = deprecationOf(deprecations, row);
  const names = new Map(records.map((c) => [c.id, c.name]));
  const pct = errorPct(row.errors, row.requests);
  const p95Ms = roundMs(row.p95Ms);
  return {
    id,
    method: row.method,
    path: row.route,
    requests: row.requests,
    p50Ms: roundMs(row.p50Ms),
    p95Ms,
    p99Ms: roundMs(row.p99Ms),
    errorPct: pct,
    status: endpointStatus(pct, p95Ms, ctx.thresholds),
    ...(row.apiVersion ? { apiVersion: row.apiVersion } : {}),
    // As its row in GET /endpoints; a row without requests in the range counts itself too.
    versions: (versionsPerRoute(routes).get(endpointLabel(row.method, row.route)) ?? 0) + (inWindow ? 0 : 1),
    ...(deprecation && { deprecation: noticeOf(deprecation, ctx.now) }),
    daily: {
      days: days.map((d) => d.day),
      requests: perDay.map((t) => t.requests),
      errors: perDay.map((t) => t.errors),
      // A day without requests has no latency: null, not an instant 0 ms.
      p95Ms: perDay.map((t) => (t.requests ? roundMs(t.p95Ms) : null)),
    },
    statusCodes,
    topCustomers: customers
      .sort((a, b) => b.requests - a.requests || a.customerId.localeCompare(b.customerId))
      .slice(0, TOP_CUSTOMERS)
      .map((c) => ({ id: c.customerId, name: names.get(c.customerId) ?? c.customerId, requests: c.requests })),
    ...ranged,
  };
}
