import type { Audience, Routes } from '../../shared/config.ts';
import type { RangeDetail } from '../../shared/events.ts';
import { CUSTOMER_KINDS, VIEW_PATHS, type NavigateKind } from '../../shared/view-paths.ts';

/** How a routed console keeps its place in the address: after `#` (any static host) or in the path (the host serves every path). */
export type RoutingMode = 'hash' | 'history';

/**
 * The URL templates a routed console gives its elements: `#/endpoints/{id}`, or `/ops/endpoints/{id}`
 * under a base path; with the time range in force in their query, so a drill-down keeps it.
 */
export function consoleRoutes(mode: RoutingMode, basePath: string, range: RangeDetail = {}, audience?: Audience): Routes {
  const prefix = mode === 'hash' ? '#' : basePath.replace(/\/+$/, '');
  const query = rangeQuery(range);
  // A customer's console has only its own pages: no template leads elsewhere.
  const kinds = Object.entries(VIEW_PATHS).filter(([kind]) => audience !== 'customer' || CUSTOMER_KINDS.includes(kind as NavigateKind));
  return Object.fromEntries(kinds.map(([kind, path]) => [kind, prefix + path + (query ? `?${query}` : '')]));
}

/** A time range as an address's query: `range=24h`, or `from=…&to=…`; empty for the default periods. */
export function rangeQuery({ range, from, to }: RangeDetail): string {
  return new URLSearchParams(from && to ? { from, to } : range ? { range } : {}).toString();
}

/** A path segment as the id it encodes (`routes` encode ids); a malformed one is kept as it is. */
export function idOf(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
}

/**
 * Loads the console's views, once. Kept out of the decorated wrapper's module: TypeScript's
 * decorator transform leaves a dynamic import there as `./app.ts` in the published files.
 */
export const loadConsoleApp = (): Promise<unknown> => import('./app.ts');
