/**
 * Collects from a Hono app: `app.use(collectHono(collector))` records every request with the
 * matched route template (`/contacts/:id`), measured until its body has been sent.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED } from './node-http.ts';
import type { Person } from '../store/types.ts';

export interface HonoCollectOptions {
  /** The API version: from a header, the path's first segment (`/v2/…`), a fixed value, or your own function. */
  apiVersion?: { header: string } | { pathPrefix: true } | { fixed: string } | ((c: Context) => string | undefined);
  /** Who called: key id, customer and actor; its errors are ignored. */
  identify?: (c: Context) => { keyId?: string; customerId?: string; actor?: Person } | undefined;
  /** Rewrites the recorded path (e.g. to hide ids); query strings are never recorded. */
  redactPath?: (path: string) => string;
}

function versionOf(c: Context, path: string, option: HonoCollectOptions['apiVersion']): string | undefined {
  if (!option) return undefined;
  if (typeof option === 'function') return option(c);
  if ('fixed' in option) return option.fixed;
  if ('header' in option) return c.req.header(option.header);
  return /^\/(v\d+)(?:\/|$)/.exec(path)?.[1];
}

export function collectHono(collector: Collector, options: HonoCollectOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const ts = Date.now();
    await next();
    const record = (status: number, bytes: number | null) => {
      try {
        const path = new URL(c.req.url).pathname;
        // The last route that matched is the handler's; when only middleware matched (a 404), the path.
        const template = routePath(c, -1);
        const who = options.identify?.(c);
        collector.record({
          ts,
          method: c.req.method,
          route: template && template !== '*' && template !== '/*' ? template : path,
          path: options.redactPath ? options.redactPath(path) : path,
          status,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          bytes,
          apiVersion: versionOf(c, path, options.apiVersion) ?? null,
          keyId: who?.keyId ?? null,
          customerId: who?.customerId ?? null,
          actor: who?.actor ?? null,
        });
      } catch {
        // A host hook that throws must not reach the host's response; this request goes unrecorded.
      }
    };
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
