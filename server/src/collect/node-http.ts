/**
 * Collects from a plain `node:http` request listener: wrap it, and every request is measured
 * (route, status, duration to the response's finish on a monotonic clock, response bytes) and
 * handed to the collector. The wrapper changes nothing the host sees.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED, apiVersionOf, elapsedMs, recordSafely, type Identify, type VersionOption } from './measure.ts';

export interface HttpCollectOptions {
  /** The route template of a request (`/contacts/{id}`), so rows group by route; default: its path. */
  route?: (request: IncomingMessage) => string;
  /** The API version: from a header, the path's first segment (`/v2/…`), a fixed value, or your own function. */
  apiVersion?: VersionOption<IncomingMessage>;
  /** Who called: key id, customer and actor. Runs after the response; its errors are ignored. */
  identify?: Identify<IncomingMessage>;
  /** Rewrites the recorded path (e.g. to hide ids); query strings are never recorded. */
  redactPath?: (path: string) => string;
}

const byteLength = (chunk: unknown, encoding?: unknown) =>
  typeof chunk === 'string'
    ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
    : chunk instanceof Uint8Array
      ? chunk.byteLength
      : 0;

export function collectHttp(collector: Collector, listener: RequestListener, options: HttpCollectOptions = {}): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const ts = Date.now();
    let bytes = 0;
    // The response's own methods, called on it below with its own `this`.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { write, end } = response;
    response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      bytes += byteLength(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof response.write;
    response.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== 'function') bytes += byteLength(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as typeof response.end;

    let recorded = false;
    const done = () => {
      if (recorded) return;
      recorded = true;
      recordSafely(collector, () => {
        const rawPath = (request.url ?? '/').split('?')[0] || '/';
        const header = request.headers;
        const who = options.identify?.(request);
        return {
          ts,
          method: request.method ?? 'GET',
          route: options.route?.(request) ?? rawPath,
          path: options.redactPath ? options.redactPath(rawPath) : rawPath,
          status: response.writableFinished ? response.statusCode : CLIENT_CLOSED,
          durationMs: elapsedMs(started, performance.now()),
          bytes,
          apiVersion: apiVersionOf(options.apiVersion, request, rawPath, (name) => [header[name.toLowerCase()]].flat()[0]),
          keyId: who?.keyId,
          customerId: who?.customerId,
          actor: who?.actor,
        };
      });
    };
    response.once('finish', done);
    response.once('close', done);
    listener(request, response);
  };
}
