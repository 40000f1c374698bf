/** What the framework adapters share: the options every one takes, and recording without ever throwing. */
import { performance } from 'node:perf_hooks';
import { createMasker, type Masker, type MaskOptions } from '@ops-console/contract/masking';
import type { Collector, MeasuredRequest } from './collector.ts';
import { keptBody, type BodyInput } from '@ops-console/contract/captured-body';
import { isCaptured, keepsBodies, maxBodyBytesOf, type CaptureOptions, type SampleOptions } from './capture.ts';
import type { Person } from '@ops-console/contract/request-event';

/** Where the API version comes from: a header, the path's first segment (`/v2/…`), a fixed value, or your own function. */
export type VersionOption<R> = { header: string } | { pathPrefix: true } | { fixed: string } | ((request: R) => string | undefined);

/** Who called: key id, customer and actor. Errors it throws are ignored. */
export type Identify<R> = (request: R) => { keyId?: string; customerId?: string; actor?: Person } | undefined;

/** The options every adapter takes; `R` is the framework's request (or context). */
export interface CollectOptions<R> {
  /** The API version: from a header, the path's first segment (`/v2/…`, then left out of the route), a fixed value, or your own function. */
  apiVersion?: VersionOption<R>;
  /** Who called: key id, customer and actor. Runs after the response; its errors are ignored. */
  identify?: Identify<R>;
  /**
   * Request headers to keep, by name (`['user-agent', 'x-request-id']`); none unless named. Bodies
   * and query strings are never recorded. Credential headers (`authorization`, `cookie`,
   * `x-api-key` …) are kept as `[masked]`, and card numbers in a value masked, before anything is sent.
   */
  headers?: readonly string[];
  /** More header names, and patterns (regular expressions), masked before sending, as the server's `capture.mask`. */
  mask?: MaskOptions;
  /**
   * Headers of both sides and bodies, captured on request (off by default) and masked before
   * they are sent: `{ headers: ['x-request-id'] | true, bodies: true, maxBodyBytes, contentTypes }`.
   */
  capture?: CaptureOptions;
  /** Which requests keep their bodies: `{ rate: 0.1, always: { status: '5xx', slowerThanMs: 1000 } }`; every request is still counted. */
  sample?: SampleOptions;
  /** Sees each measured request before it is queued: return it changed (hide ids in the path, mask a header) or `null` to leave it out. */
  redact?: (request: MeasuredRequest) => MeasuredRequest | null;
}

/** Status recorded when the client went away before the response finished (as nginx logs it). */
export const CLIENT_CLOSED = 499;

/** What an adapter reads from its framework's request. */
export interface Measured {
  ts: number;
  method: string;
  route: string;
  /** The path without its query string. */
  path: string;
  status: number;
  durationMs: number;
  bytes: number | null;
  /** Reads one request header by (lower-case) name. */
  header: (name: string) => string | undefined;
  /** What `capture` keeps, read once the request is answered (the bodies only when kept); adapters give it only when capture is on. */
  payload?: ((bodies: boolean) => Payload) | undefined;
}

/** A request's headers (as its framework holds them) and the bodies read as they passed. */
export interface Payload {
  requestHeaders: Readonly<Record<string, unknown>>;
  responseHeaders: Readonly<Record<string, unknown>>;
  requestBody?: BodyInput | undefined;
  responseBody?: BodyInput | undefined;
}

/**
 * Completes a measurement with the version, the caller and the allowed headers, passes it
 * through `redact`, and queues it. A host hook that throws leaves this request unrecorded,
 * never the host's response broken.
 */
export function recordSafely<R>(collector: Collector, options: CollectOptions<R>, request: R, measure: () => Measured): void {
  try {
    record(collector, options, request, measure());
  } catch {
    // nothing reaches the host
  }
}

/** What `recordSafely` does once the request is measured; throws what the host's hooks throw. */
export function record<R>(collector: Collector, options: CollectOptions<R>, request: R, m: Measured): void {
  // Built field by field, without spreads: this runs once per request of the host's API.
  const who = options.identify?.(request);
  const apiVersion = apiVersionOf(options.apiVersion, request, m.path, m.header);
  const event: MeasuredRequest = {
    ts: m.ts,
    method: m.method,
    route: withoutVersion(m.route, options.apiVersion, apiVersion),
    path: m.path,
    status: m.status,
    durationMs: m.durationMs,
    bytes: m.bytes,
    apiVersion,
    keyId: who?.keyId,
    customerId: who?.customerId,
    actor: who?.actor,
    headers: options.headers ? keptHeaders(options.headers, m.header, maskerOf(options)) : undefined,
  };
  if (options.capture && m.payload) captureInto(event, options.capture, options.sample, m, maskerOf(options));
  const redacted = options.redact ? options.redact(event) : event;
  if (redacted) collector.record(redacted);
}

/** Whether the options read request headers at all: when not, an adapter need not make a reader for each request. */
export const readsHeaders = <R>(options: CollectOptions<R>) => Boolean(options.headers?.length || (options.apiVersion && 'header' in options.apiVersion));

/** The header reader of a request whose headers nobody reads. */
export const NO_HEADERS = (): undefined => undefined;

/** Each adapter's masker, made once from its options. */
const maskers = new WeakMap<object, Masker>();
const maskerOf = (options: { mask?: MaskOptions | undefined }): Masker => {
  let masker = maskers.get(options);
  if (!masker) maskers.set(options, (masker = createMasker(options.mask)));
  return masker;
};

/** Adds what `capture` keeps to the event: headers of both sides, and the bodies when the sample keeps them, all masked. */
function captureInto(event: MeasuredRequest, capture: CaptureOptions, sample: SampleOptions | undefined, m: Measured, masker: Masker): void {
  // Decided before the bodies are read: one the sample leaves out is never decoded.
  const bodies = Boolean(capture.bodies) && keepsBodies(sample, m.status, m.durationMs);
  const payload = m.payload!(bodies);
  if (capture.headers) {
    const request = pickedHeaders(payload.requestHeaders, capture.headers, masker);
    if (request) event.headers = event.headers ? { ...event.headers, ...request } : request;
    event.responseHeaders = pickedHeaders(payload.responseHeaders, capture.headers, masker);
  }
  if (!bodies) return;
  const max = maxBodyBytesOf(capture);
  if (payload.requestBody && isCaptured(payload.requestBody.contentType, capture)) event.requestBody = keptBody(payload.requestBody, masker, max);
  if (payload.responseBody && isCaptured(payload.responseBody.contentType, capture)) event.responseBody = keptBody(payload.responseBody, masker, max);
}

/** The named headers (or all of them), lower-case, repeated values joined, masked. */
function pickedHeaders(headers: Readonly<Record<string, unknown>>, names: readonly string[] | true, masker: Masker): Record<string, string> | undefined {
  let kept: Record<string, string> | undefined;
  const wanted = names === true ? undefined : new Set(names.map((n) => n.toLowerCase()));
  for (const name in headers) {
    const raw = headers[name];
    const lower = name.toLowerCase();
    if (wanted && !wanted.has(lower)) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined;
    if (value !== undefined) (kept ??= {})[lower] = masker.header(lower, value);
  }
  return kept;
}

/** The named headers the request has, masked as the server would mask them: no credential crosses the wire. */
function keptHeaders(names: readonly string[], header: (name: string) => string | undefined, masker: Masker): Record<string, string> | undefined {
  let kept: Record<string, string> | undefined;
  for (const name of names) {
    const lower = name.toLowerCase();
    const value = header(lower);
    if (value !== undefined) (kept ??= {})[lower] = masker.header(lower, value);
  }
  return kept;
}

function apiVersionOf<R>(option: VersionOption<R> | undefined, request: R, path: string, header: (name: string) => string | undefined): string | null {
  if (!option) return null;
  if (typeof option === 'function') return option(request) ?? null;
  if ('fixed' in option) return option.fixed;
  if ('header' in option) return header(option.header.toLowerCase()) ?? null;
  return /^\/(v\d+)(?:\/|$)/.exec(path)?.[1] ?? null;
}

/** A version read from the path prefix is shown in its own column: rows group as `/contacts/:id` under v2 and v3. */
function withoutVersion<R>(route: string, option: VersionOption<R> | undefined, version: string | null): string {
  if (!version || !option || typeof option === 'function' || !('pathPrefix' in option)) return route;
  const prefix = `/${version}`;
  return route === prefix ? '/' : route.startsWith(`${prefix}/`) ? route.slice(prefix.length) : route;
}

/** Wall-clock milliseconds at a performance.now() reading, from an offset read again each second (the wall clock may be set meanwhile). */
let offset = Date.now() - performance.now();
let offsetAt = performance.now();
export function wallClockAt(monotonic: number): number {
  if (monotonic - offsetAt > 1_000) {
    offset = Date.now() - performance.now();
    offsetAt = monotonic;
  }
  return Math.round(monotonic + offset);
}

/** Milliseconds since `started` (a performance.now() reading), to the microsecond. */
export const elapsedMs = (started: number, now: number) => Math.round((now - started) * 1000) / 1000;

/** The path of a request target, without its query string. */
export function pathOf(target: string | undefined): string {
  if (!target) return '/';
  const query = target.indexOf('?');
  return query === -1 ? target : query === 0 ? '/' : target.slice(0, query);
}

/** A node:http style header (string, array or absent) as one string. */
export const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
