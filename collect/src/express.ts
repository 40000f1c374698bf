/**
 * Collects from an Express (or Connect) app: `app.use(collectExpress(collector))` before the
 * routes records every request with its route template (`/v2/contacts/:id`, mount path included).
 * Only types come from Express: the app brings its own copy.
 */
import type { Request, RequestHandler } from 'express';
import type { Collector } from './collector.ts';
import { NO_HEADERS, pathOf, readsHeaders, recordSafely, type CollectOptions } from './measure.ts';
import { captureBodies, nodeHeader, nodePayload, watchResponse } from './node-http.ts';

export type ExpressCollectOptions = CollectOptions<Request>;

export function collectExpress(collector: Collector, options: ExpressCollectOptions = {}): RequestHandler {
  const headers = readsHeaders(options);
  return (request, response, next) => {
    // A router that hands an error on resets `baseUrl` before the error page answers, so the
    // template is taken when the matching route is assigned to the request.
    let template: string | undefined;
    let route: unknown;
    Object.defineProperty(request, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: unknown) {
        route = value;
        const path = (value as { path?: unknown } | undefined)?.path;
        if (typeof path === 'string') template = `${request.baseUrl}${path}`;
      },
    });
    watchResponse(
      response,
      (watched) =>
        recordSafely(collector, options, request, () => {
          const path = pathOf(request.originalUrl);
          const { ts, status, bytes, durationMs } = watched;
          const payload = options.capture ? nodePayload(request, response, watched) : undefined;
          return {
            ts,
            method: request.method,
            route: template ?? path,
            path,
            status,
            durationMs,
            bytes,
            header: headers ? nodeHeader(request) : NO_HEADERS,
            payload,
          };
        }),
      captureBodies(request, options),
    );
    next();
  };
}
