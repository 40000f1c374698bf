/**
 * Collects from a plain `node:http` request listener: wrap it, and every request is measured
 * (route, status, duration to the response's finish on a monotonic clock, response bytes) and
 * handed to the collector. The wrapper changes nothing the host sees. Express and Fastify run
 * on node:http too, and measure their responses with the same `watchResponse`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED, elapsedMs, firstHeader, pathOf, recordSafely, type CollectOptions } from './measure.ts';

export interface HttpCollectOptions extends CollectOptions<IncomingMessage> {
  /** The route template of a request (`/contacts/{id}`), so rows group by route; default: its path. */
  route?: (request: IncomingMessage) => string;
}

export interface WatchedResponse {
  ts: number;
  status: number;
  bytes: number;
  durationMs: number;
}

const byteLength = (chunk: unknown, encoding?: unknown) =>
  typeof chunk === 'string'
    ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
    : chunk instanceof Uint8Array
      ? chunk.byteLength
      : 0;

/** What a watched response has written, and its own methods, kept on it under a symbol of this module. */
interface Counted {
  bytes: number;
  write: ServerResponse['write'];
  end: ServerResponse['end'];
}
const COUNTED = Symbol('ops-console.counted');
type CountedResponse = ServerResponse & { [COUNTED]?: Counted };

// One pair of functions for every response rather than two closures per response: what the
// collector adds to each of the host's requests is then a property and a listener.
function countingWrite(this: CountedResponse, chunk: unknown, encoding?: unknown) {
  const counted = this[COUNTED]!;
  counted.bytes += byteLength(chunk, encoding);
  // eslint-disable-next-line prefer-rest-params
  return counted.write.apply(this, arguments as unknown as Parameters<ServerResponse['write']>);
}
function countingEnd(this: CountedResponse, chunk?: unknown, encoding?: unknown) {
  const counted = this[COUNTED]!;
  if (typeof chunk !== 'function') counted.bytes += byteLength(chunk, encoding);
  // eslint-disable-next-line prefer-rest-params
  return counted.end.apply(this, arguments as unknown as Parameters<ServerResponse['end']>);
}

/** Starts counting what `response` writes, through the shared functions above. */
function countBytes(response: CountedResponse): Counted {
  // The response's own methods, called on it with its own `this` and arguments, as they came.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const counted: Counted = { bytes: 0, write: response.write, end: response.end };
  response[COUNTED] = counted;
  response.write = countingWrite as ServerResponse['write'];
  response.end = countingEnd as ServerResponse['end'];
  return counted;
}

/**
 * Counts the bytes a response writes and calls `done` once, when it has finished (or with 499
 * when the client went away first), with the time from now to then on a monotonic clock.
 * Node emits a response's 'close' exactly once. A response watched twice (two collectors) is
 * counted once, for both.
 */
export function watchResponse(response: ServerResponse, done: (watched: WatchedResponse) => void): void {
  const started = performance.now();
  const ts = Date.now();
  const counted = (response as CountedResponse)[COUNTED] ?? countBytes(response);
  // 'close' comes after 'finish' when the response went out, and alone when the client went
  // away first: one listener for both costs the host less than two.
  response.on('close', function (this: ServerResponse) {
    done({ ts, status: this.writableFinished ? this.statusCode : CLIENT_CLOSED, bytes: counted.bytes, durationMs: elapsedMs(started, performance.now()) });
  });
}

/** Reads a header of a node:http request by lower-case name. */
export const nodeHeader = (request: IncomingMessage) => (name: string) => firstHeader(request.headers[name]);

export function collectHttp(collector: Collector, listener: RequestListener, options: HttpCollectOptions = {}): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    watchResponse(response, (watched) =>
      recordSafely(collector, options, request, () => {
        const path = pathOf(request.url);
        const { ts, status, bytes, durationMs } = watched;
        return { ts, method: request.method ?? 'GET', route: options.route?.(request) ?? path, path, status, durationMs, bytes, header: nodeHeader(request) };
      }),
    );
    listener(request, response);
  };
}
