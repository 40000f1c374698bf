/**
 * Collects from a plain `node:http` request listener: wrap it, and every request is measured
 * (route, status, duration to the response's finish on a monotonic clock, response bytes) and
 * handed to the collector. The wrapper changes nothing the host sees. Express and Fastify run
 * on node:http too, and measure their responses with the same `watchResponse`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Collector } from './collector.ts';
import { CLIENT_CLOSED, NO_HEADERS, elapsedMs, firstHeader, pathOf, readsHeaders, record, wallClockAt, type CollectOptions, type Payload } from './measure.ts';
import { BodyTap, maxBodyBytesOf, tapOf, tapRequest, type CaptureOptions } from './capture.ts';
import { MASK_OVERLAP } from '@ops-console/contract/captured-body';

export interface HttpCollectOptions extends CollectOptions<IncomingMessage> {
  /** The route template of a request (`/contacts/{id}`), so rows group by route; default: its path. */
  route?: (request: IncomingMessage) => string;
}

export interface WatchedResponse {
  ts: number;
  status: number;
  bytes: number;
  durationMs: number;
  /** The response body as it was written, when a collector captures bodies. */
  tap?: BodyTap | undefined;
  /** The headers handed to `writeHead`, when a collector captures: `getHeaders()` lists only those set before. */
  head?: unknown;
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
  tap?: BodyTap;
  head?: unknown;
  writeHead?: ServerResponse['writeHead'];
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
  const bytes = byteLength(chunk, encoding);
  watch.bytes += bytes;
  watch.tap?.add(chunk, encoding, bytes);
  // eslint-disable-next-line prefer-rest-params
  return watch.write.apply(this, arguments as unknown as Parameters<ServerResponse['write']>);
}
function countingEnd(this: WatchedServerResponse, chunk?: unknown, encoding?: unknown) {
  const watch = this[WATCH]!;
  if (typeof chunk !== 'function') {
    const bytes = byteLength(chunk, encoding);
    watch.bytes += bytes;
    watch.tap?.add(chunk, encoding, bytes);
  }
  // eslint-disable-next-line prefer-rest-params
  return watch.end.apply(this, arguments as unknown as Parameters<ServerResponse['end']>);
}
function headWritten(this: WatchedServerResponse, _status: number, reason?: unknown, headers?: unknown) {
  const watch = this[WATCH]!;
  // eslint-disable-next-line prefer-rest-params
  const written = watch.writeHead!.apply(this, arguments as unknown as Parameters<ServerResponse['writeHead']>);
  // As Node reads the arguments: the headers come after a reason phrase, or in its place.
  watch.head = typeof reason === 'string' ? headers : (headers ?? reason);
  return written;
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
 * counted once, for both. With `capture` (captureBodies), the headers handed to `writeHead` are
 * kept too, and the body up to `capture.bodyBytes`.
 */
export function watchResponse(response: ServerResponse, done: Done, capture?: { bodyBytes: number }): void {
  const watched = response as WatchedServerResponse;
  let watch = watched[WATCH];
  if (watch) (watch.more ??= []).push(done);
  else {
    watch = watched[WATCH] = new Watch(response, done);
    response.write = countingWrite as ServerResponse['write'];
    response.end = countingEnd as ServerResponse['end'];
    response.on('close', closed);
  }
  if (!capture) return;
  if (capture.bodyBytes && !watch.tap) watch.tap = new BodyTap(capture.bodyBytes);
  if (!watch.writeHead) {
    // eslint-disable-next-line @typescript-eslint/unbound-method
    watch.writeHead = response.writeHead;
    response.writeHead = headWritten;
  }
}

/** Headers as `writeHead` takes them (an object, a flat list or pairs), by lower-case name. */
function headersHandedTo(head: unknown): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (Array.isArray(head)) {
    const list = head as unknown[];
    const pairs: unknown[][] = list.every((item) => Array.isArray(item))
      ? (list as unknown[][])
      : Array.from({ length: list.length >> 1 }, (_, i) => [list[2 * i], list[2 * i + 1]]);
    // A name given twice is sent twice: both values are kept, as Node lists them.
    for (const [name, value] of pairs) {
      if (typeof name !== 'string') continue;
      const lower = name.toLowerCase();
      headers[lower] = lower in headers ? [headers[lower], value].flat() : value;
    }
  } else if (head && typeof head === 'object') for (const [name, value] of Object.entries(head)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Reads both sides' headers and the bodies tapped as they passed; a compressed body keeps only its size. */
export const nodePayload =
  (
    request: IncomingMessage,
    response: ServerResponse,
    watched: WatchedResponse,
    responseHeaders: () => Record<string, unknown> = () => response.getHeaders(),
  ) =>
  (bodies: boolean): Payload => {
    const sent = watched.head === undefined ? responseHeaders() : { ...headersHandedTo(watched.head), ...responseHeaders() };
    const body = (tap: BodyTap | undefined, type: unknown, encoding: unknown) => {
      if (!tap?.size) return undefined;
      const contentType = typeof type === 'string' ? type : '';
      return encoding && encoding !== 'identity' ? { contentType, size: tap.size } : tap.body(contentType);
    };
    return {
      requestHeaders: request.headers,
      responseHeaders: sent,
      requestBody: bodies ? body(tapOf(request), request.headers['content-type'], request.headers['content-encoding']) : undefined,
      responseBody: bodies ? body(watched.tap, sent['content-type'], sent['content-encoding']) : undefined,
    };
  };

/** Starts capturing a node:http request's body, when the options capture bodies; answers what `watchResponse` captures of the response (nothing without `capture`). */
export function captureBodies(request: IncomingMessage, options: { capture?: CaptureOptions | undefined }): { bodyBytes: number } | undefined {
  if (!options.capture) return undefined;
  if (!options.capture.bodies) return { bodyBytes: 0 };
  // A little past the limit, so masking sees a secret the cut splits whole before the text is cut (capture/bodies.ts).
  const bodyBytes = maxBodyBytesOf(options.capture) + MASK_OVERLAP;
  tapRequest(request, bodyBytes);
  return { bodyBytes };
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
      const payload = options.capture ? nodePayload(request, response, watched) : undefined;
      record(collector, options, request, { ts, method: request.method ?? 'GET', route, path, status, durationMs, bytes, header, payload });
    } catch {
      // A request the host's hooks cannot read is left out; the host's response never sees it.
    }
  };
  return (request: IncomingMessage, response: ServerResponse) => {
    watchResponse(response, done, captureBodies(request, options));
    listener(request, response);
  };
}
