/**
 * Collects from a Hono app: `app.use(collectHono(collector))` records every request with the
 * matched route template (`/contacts/:id`), measured until its body has been sent.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED, NO_HEADERS, elapsedMs, readsHeaders, recordSafely, wallClockAt, type CollectOptions, type Payload } from './measure.ts';
import { BodyTap, isCaptured, maxBodyBytesOf, type CaptureOptions } from './capture.ts';
import { MASK_OVERLAP } from '@ops-console/contract/captured-body';

export type HonoCollectOptions = CollectOptions<Context>;

export function collectHono(collector: Collector, options: HonoCollectOptions = {}): MiddlewareHandler {
  const headers = readsHeaders(options);
  return async (c, next) => {
    const started = performance.now();
    const ts = wallClockAt(started);
    await next();
    const bodyBytes = options.capture?.bodies ? maxBodyBytesOf(options.capture) : 0;
    const requestText = bodyBytes ? await readBody(c, options.capture!, bodyBytes + MASK_OVERLAP) : undefined;
    const tap = bodyBytes ? new BodyTap(bodyBytes + MASK_OVERLAP) : undefined;
    const record = (status: number, bytes: number | null) =>
      recordSafely<Context>(collector, options, c, () => {
        const path = new URL(c.req.url).pathname;
        return {
          ts,
          method: c.req.method,
          route: templateOf(c) ?? path,
          path,
          status,
          durationMs: elapsedMs(started, performance.now()),
          bytes,
          header: headers ? (name) => c.req.header(name) : NO_HEADERS,
          payload: options.capture ? (bodies: boolean) => honoPayload(c, bodies ? requestText : undefined, bodies ? tap : undefined) : undefined,
        };
      });
    const response = c.res;
    // Servers that tell the app about a client going away (@hono/node-server, Bun, Deno) abort the request's signal.
    const gone = () => c.req.raw.signal.aborted;
    if (!response.body || gone()) {
      record(gone() ? CLIENT_CLOSED : response.status, 0);
      return;
    }
    // Measured until the body has gone out (or the client went away), counting its bytes on the way.
    let bytes = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          tap?.add(chunk);
          controller.enqueue(chunk);
        },
        flush: () => record(gone() ? CLIENT_CLOSED : response.status, bytes),
        cancel: () => record(CLIENT_CLOSED, bytes),
      }),
    );
    c.res = new Response(counted, response);
  };
}

/**
 * The route a request was for: the last matched handler registered for a method (`app.get`, `app.on`),
 * even when middleware answered first (a 401 from an auth check is still `POST /messages`); else the
 * last matched pattern that is not a catch-all; none for a 404.
 */
function templateOf(c: Context): string | undefined {
  const routes = matchedRoutes(c);
  const byMethod = routes.findLast((r) => r.method !== 'ALL');
  return (byMethod ?? routes.findLast((r) => !r.path.endsWith('*')))?.path;
}

/**
 * The request body the app read, from Hono's own cache of it: a body the app did not read is not
 * read here either (that would buffer all of it), and one it read is not read from the wire twice.
 */
async function readBody(c: Context, capture: CaptureOptions, max: number): Promise<{ text: string; size: number } | undefined> {
  // What the app read as text, JSON or bytes; a form read as FormData would come back as multipart text, which is not kept.
  const cached = Object.keys(c.req.bodyCache);
  if (!cached.some((key) => key === 'text' || key === 'json' || key === 'arrayBuffer') || !isCaptured(c.req.header('content-type'), capture)) return undefined;
  try {
    const text = await c.req.text();
    // The app holds the whole body already; what is kept of it is cut here, before anything else is made of it.
    return { text: text.length > max ? text.slice(0, max) : text, size: Buffer.byteLength(text) };
  } catch {
    return undefined;
  }
}

const headersOf = (headers: Headers) => Object.fromEntries(headers);

function honoPayload(c: Context, requestBody: { text: string; size: number } | undefined, tap: BodyTap | undefined): Payload {
  const encoded = (headers: Headers) => (headers.get('content-encoding') ?? 'identity') !== 'identity';
  const requestType = c.req.header('content-type') ?? '';
  const responseType = c.res.headers.get('content-type') ?? '';
  return {
    requestHeaders: headersOf(c.req.raw.headers),
    responseHeaders: headersOf(c.res.headers),
    requestBody: requestBody && {
      contentType: requestType,
      size: requestBody.size,
      text: requestBody.text,
      truncated: requestBody.size > Buffer.byteLength(requestBody.text),
    },
    responseBody: !tap?.size ? undefined : encoded(c.res.headers) ? { contentType: responseType, size: tap.size } : tap.body(responseType),
  };
}
