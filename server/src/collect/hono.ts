/**
 * Collects from a Hono app: `app.use(collectHono(collector))` records every request with the
 * matched route template (`/contacts/:id`), measured until its body has been sent.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED, apiVersionOf, elapsedMs, recordSafely, type Identify, type VersionOption } from './measure.ts';

export interface HonoCollectOptions {
  /** The API version: from a header, the path's first segment (`/v2/…`), a fixed value, or your own function. */
  apiVersion?: VersionOption<Context>;
  /** Who called: key id, customer and actor; its errors are ignored. */
  identify?: Identify<Context>;
  /** Rewrites the recorded path (e.g. to hide ids); query strings are never recorded. */
  redactPath?: (path: string) => string;
}

export function collectHono(collector: Collector, options: HonoCollectOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const ts = Date.now();
    await next();
    const record = (status: number, bytes: number | null) =>
      recordSafely(collector, () => {
        const path = new URL(c.req.url).pathname;
        // The last route that matched is the handler's; when only middleware matched (a 404), the path.
        const template = routePath(c, -1);
        const who = options.identify?.(c);
        return {
          ts,
          method: c.req.method,
          route: template && template !== '*' && template !== '/*' ? template : path,
          path: options.redactPath ? options.redactPath(path) : path,
          status,
          durationMs: elapsedMs(started, performance.now()),
          bytes,
          apiVersion: apiVersionOf(options.apiVersion, c, path, (name) => c.req.header(name)),
          keyId: who?.keyId,
          customerId: who?.customerId,
          actor: who?.actor,
        };
      });
    const response = c.res;
    if (!response.body) {
      record(response.status, 0);
      return;
    }
    // Measured until the body has gone out (or the client went away), counting its bytes on the way.
    let bytes = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
        flush: () => record(response.status, bytes),
        cancel: () => record(CLIENT_CLOSED, bytes),
      }),
    );
    c.res = new Response(counted, response);
  };
}
