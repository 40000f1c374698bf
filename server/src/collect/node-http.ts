/**
 * Collects from a plain `node:http` request listener: wrap it, and every request is measured
 * (route, status, duration to the response's finish on a monotonic clock, response bytes) and
 * handed to the collector. The wrapper changes nothing the host sees. Express and Fastify run
 * on node:http too, and measure their responses with the same `watchResponse`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED, NO_HEADERS, elapsedMs, firstHeader, pathOf, readsHeaders, record, wallClockAt, type CollectOptions } from './measure.ts';

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

/**
 * A watched response: when it started, what it has written, its own write and end, and who hears
 * when it ends. Kept on the response under a symbol of this module: one object per request, and
 * the shared functions below instead of closures.
 */
class Watch implements WatchedResponse {
  readonly started = performance.now();
  readonly ts = wallClockAt(this.started);
  bytes = 0;
  status = 0;
  durationMs = 0;
  readonly write: ServerResponse['write'];
  readonly end: ServerResponse['end'];
  readonly done: Done;
  /** Collectors after the first that watch this response. */
  more?: Done[];

  constructor(response: ServerResponse, done: Done) {
    // The response's own methods, called on it with its own `this` and arguments, as they came.
    /* eslint-disable @typescript-eslint/unbound-method */
    this.write = response.write;
    this.end = response.end;
    /* eslint-enable @typescript-eslint/unbound-method */
    this.done = done;
  }
}
const WATCH = Symbol('ops-console.watch');
type Done = (watched: WatchedResponse, response: ServerResponse) => void;
type WatchedServerResponse = ServerResponse & { [WATCH]?: Watch };

function countingWrite(this: WatchedServerResponse, chunk: unknown, encoding?: unknown) {
  const watch = this[WATCH]!;
  watch.bytes += byteLength(chunk, encoding);
  // eslint-disable-next-line prefer-rest-params
  return watch.write.apply(this, arguments as unknown as Parameters<ServerResponse['write']>);
}
function countingEnd(this: WatchedServerResponse, chunk?: unknown, encoding?: unknown) {
  const watch = this[WATCH]!;
  if (typeof chunk !== 'function') watch.bytes += byteLength(chunk, encoding);
  // eslint-disable-next-line prefer-rest-params
  return watch.end.apply(this, arguments as unknown as Parameters<ServerResponse['end']>);
}
// 'close' comes after 'finish' when the response went out, and alone when the client went away
// first: one listener for both costs the host less than two.
function closed(this: WatchedServerResponse) {
  const watch = this[WATCH]!;
  watch.status = this.writableFinished ? this.statusCode : CLIENT_CLOSED;
  watch.durationMs = elapsedMs(watch.started, performance.now());
  watch.done(watch, this);
  if (watch.more) for (const done of watch.more) done(watch, this);
}

/**
 * Counts the bytes a response writes and calls `done` once, when it has finished (or with 499
 * when the client went away first), with the time from now to then on a monotonic clock.
 * Node emits a response's 'close' exactly once. A response watched twice (two collectors) is
 * counted once, for both.
 */
export function watchResponse(response: ServerResponse, done: Done): void {
  const watched = response as WatchedServerResponse;
  const watch = watched[WATCH];
  if (watch) {
    (watch.more ??= []).push(done);
    return;
  }
  watched[WATCH] = new Watch(response, done);
  response.write = countingWrite as ServerResponse['write'];
  response.end = countingEnd as ServerResponse['end'];
  response.on('close', closed);
}

/** Reads a header of a node:http request by lower-case name. */
export const nodeHeader = (request: IncomingMessage) => (name: string) => firstHeader(request.headers[name]);

export function collectHttp(collector: Collector, listener: RequestListener, options: HttpCollectOptions = {}): RequestListener {
  const headers = readsHeaders(options);
  // One function for every request: the request is the response's own `req`.
  const done = (watched: WatchedResponse, response: ServerResponse) => {
    try {
      const request = response.req;
      const path = pathOf(request.url);
      const route = options.route?.(request) ?? path;
      const { ts, status, bytes, durationMs } = watched;
      const header = headers ? nodeHeader(request) : NO_HEADERS;
      record(collector, options, request, { ts, method: request.method ?? 'GET', route, path, status, durationMs, bytes, header });
    } catch {
      // A request the host's hooks cannot read is left out; the host's response never sees it.
    }
  };
  return (request: IncomingMessage, response: ServerResponse) => {
    watchResponse(response, done);
    listener(request, response);
  };
}
