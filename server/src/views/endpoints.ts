/** GET /endpoints: one row per (API version, method, route) over the recent window. */
import { ENDPOINT_SORTS } from '../../../src/api/enums.ts';
import { endpointId, type ViewContext } from '../context.ts';
import { endpointStatus, errorPct } from '../figures.ts';
import { badRequest } from '../problem.ts';
import { offsetCursor, pageOf } from '../paging.ts';
import { recentRoutes } from './related.ts';

const SORTS = ENDPOINT_SORTS;
const STATUSES = ['Healthy', 'Failing', 'Slow'];

export interface EndpointQuery {
  status?: string;
  q?: string;
  sort?: string;
  limit: number;
  cursor?: string;
}

export async function endpoints(ctx: ViewContext, query: EndpointQuery) {
  if (query.status && !STATUSES.includes(query.status)) throw badRequest(`status must be one of ${STATUSES.join(', ')}.`);
  const sort = query.sort || '-requests';
  if (!(SORTS as readonly string[]).includes(sort)) throw badRequest(`sort must be one of ${SORTS.join(', ')}.`);
  const offset = offsetCursor.decode(query.cursor);
  const needle = query.q?.toLowerCase();
  const rows = (await recentRoutes(ctx))
    .map((r) => {
      const pct = errorPct(r.errors, r.requests);
      return {
        id: endpointId(r.apiVersion, r.method, r.route),
        method: r.method,
        path: r.route,
        requests: r.requests,
        p50Ms: Math.round(r.p50Ms),
        p95Ms: Math.round(r.p95Ms),
        p99Ms: Math.round(r.p99Ms),
        errorPct: pct,
        status: endpointStatus(pct, r.p95Ms, ctx.thresholds),
        ...(r.apiVersion ? { apiVersion: r.apiVersion } : {}),
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
