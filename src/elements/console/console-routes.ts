import type { Routes } from '../../shared/config.ts';
import type { RangeDetail } from '../../shared/events.ts';

/** How a routed console keeps its place in the address: after `#` (any static host) or in the path (the host serves every path). */
export type RoutingMode = 'hash' | 'history';

/** Where each drill-down leads in a routed console, below its base. */
const VIEW_PATHS: Required<Routes> = {
  endpoint: '/endpoints/{id}',
  endpoints: '/endpoints',
  request: '/requests/{id}',
  requests: '/requests',
  customer: '/customers/{id}',
  customers: '/customers',
  webhook: '/webhooks/{id}',
  webhooks: '/webhooks',
  error: '/errors/{id}',
  errors: '/errors',
  'new-error': '/errors/new',
};

/**
 * The URL templates a routed console gives its elements: `#/endpoints/{id}`, or `/ops/endpoints/{id}`
 * under a base path; with the time range in force in their query, so a drill-down keeps it.
 */
export function consoleRoutes(mode: RoutingMode, basePath: string, range: RangeDetail = {}): Routes {
  const prefix = mode === 'hash' ? '#' : basePath.replace(/\/+$/, '');
  const query = rangeQuery(range);
  return Object.fromEntries(Object.entries(VIEW_PATHS).map(([kind, path]) => [kind, prefix + path + (query ? `?${query}` : '')]));
}

/** A time range as an address's query: `range=24h`, or `from=…&to=…`; empty for the default periods. */
export function rangeQuery({ range, from, to }: RangeDetail): string {
  return new URLSearchParams(from && to ? { from, to } : range ? { range } : {}).toString();
}

/**
 * Loads the console's views, once. Kept out of the decorated wrapper's module: TypeScript's
 * decorator transform leaves a dynamic import there as `./app.ts` in the published files.
 */
export const loadConsoleApp = (): Promise<unknown> => import('./app.ts');
