/**
 * Collects from a Koa app: `app.use(collectKoa(collector))` first records every request with the
 * route template @koa/router matched (`/v2/contacts/:id`, its prefix included), else its path.
 * Only types come from Koa: the app brings its own copy.
 */
import type { Context, Middleware } from 'koa';
import type { Collector } from './collector.ts';
import { NO_HEADERS, pathOf, readsHeaders, recordSafely, type CollectOptions } from './measure.ts';
import { captureBodies, nodeHeader, nodePayload, watchResponse } from './node-http.ts';

export type KoaCollectOptions = CollectOptions<Context>;

/** What @koa/router sets on the context once a route matched. */
type Routed = Context & { _matchedRoute?: unknown };

export function collectKoa(collector: Collector, options: KoaCollectOptions = {}): Middleware {
  const headers = readsHeaders(options);
  return async (ctx, next) => {
    const { req: request, res: response } = ctx;
    watchResponse(
      response,
      (watched) =>
        recordSafely(collector, options, ctx, () => {
          const path = pathOf(ctx.originalUrl);
          const matched = (ctx as Routed)._matchedRoute;
          const { ts, status, bytes, durationMs } = watched;
          return {
            ts,
            method: request.method ?? 'GET',
            route: typeof matched === 'string' ? matched : path,
            path,
            status,
            durationMs,
            bytes,
            header: headers ? nodeHeader(request) : NO_HEADERS,
            payload: options.capture ? nodePayload(request, response, watched) : undefined,
          };
        }),
      captureBodies(request, options),
    );
    await next();
  };
}
