import type { Routes } from '../../shared/config.ts';

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

/** The URL templates a routed console gives its elements: `#/endpoints/{id}`, or `/ops/endpoints/{id}` under a base path. */
export function consoleRoutes(mode: RoutingMode, basePath: string): Routes {
  const prefix = mode === 'hash' ? '#' : basePath.replace(/\/+$/, '');
  return Object.fromEntries(Object.entries(VIEW_PATHS).map(([kind, path]) => [kind, prefix + path]));
}

/**
 * Loads the console's views, once. Kept out of the decorated wrapper's module: TypeScript's
 * decorator transform leaves a dynamic import there as `./app.ts` in the published files.
 */
export const loadConsoleApp = (): Promise<unknown> => import('./app.ts');
