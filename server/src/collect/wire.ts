/**
 * The collector's events as the ingest API takes them: fitted within its limits, written as JSON
 * field by field, and gathered into one buffer per batch.
 */
import { HEADER_NAME, INGEST_LIMITS as LIMIT, INGEST_METHODS, OTHER_METHOD, TRUNCATED } from '../limits.ts';
import type { MeasuredRequest } from '../store/request-event.ts';
import { cleanText } from '../text.ts';

/**
 * A batch for the ingest API, written event by event into a buffer outside the JS heap: the
 * events waiting for their batch are then no work for the garbage collector, whose pauses would
 * otherwise land on the host's requests.
 */
export class JsonBatch {
  #buffer: Buffer;
  #length: number;
  #count = 0;

  constructor(expectedBytes: number) {
    this.#buffer = Buffer.allocUnsafe(Math.max(4096, expectedBytes));
    this.#length = this.#buffer.write('{"events":[');
  }

  add(json: string, bytes: number): void {
    const needed = this.#length + bytes + 3; // a comma before it, "]}" after the last
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    if (this.#count++) this.#buffer[this.#length++] = 0x2c; // ,
    this.#length += this.#buffer.write(json, this.#length);
  }

  /** The request body; the same bytes each time it is sent (no event is added once it is). */
  body(): Buffer {
    const end = this.#length + this.#buffer.write(']}', this.#length);
    return this.#buffer.subarray(0, end);
  }
}

/** What a batch costs beyond its events: `{"events":[` and `]}`. */
export const BATCH_FRAME_BYTES = 13;

const METHODS = new Set<string>(INGEST_METHODS);

/** `value` cut to `max` UTF-16 units, ending in `…` when cut (a surrogate pair split by the cut becomes U+FFFD). */
const fit = (value: string, max: number) => (value.length <= max ? value : value.slice(0, max - 1).toWellFormed() + TRUNCATED);
const fitOptional = (value: string | null | undefined, max: number) => (value ? fit(value, max) : undefined);

/** Text as the console server stores it (server/src/text.ts): for a store in this process, which no ingest API cleans. */
export function cleaned(e: MeasuredRequest): MeasuredRequest {
  const clean = (value: string | null | undefined) => (value ? cleanText(value) : value);
  return {
    ...e,
    route: cleanText(e.route),
    path: cleanText(e.path),
    apiVersion: clean(e.apiVersion),
    keyId: clean(e.keyId),
    customerId: clean(e.customerId),
    actor: e.actor && { id: cleanText(e.actor.id), name: cleanText(e.actor.name) },
    headers: e.headers && Object.fromEntries(Object.entries(e.headers).map(([name, value]) => [name, cleanText(value)])),
  };
}

/** The request as the ingest API accepts it: every value within its limits, nothing a server would refuse. */
export function fitted(e: MeasuredRequest): MeasuredRequest {
  // Nearly every request already fits: it is then taken as it is, with no copy made on the host's time.
  if (fits(e)) return e;
  const method = e.method.toUpperCase();
  let headers: Record<string, string> | undefined;
  if (e.headers) {
    for (const [name, value] of Object.entries(e.headers)) {
      if (!value || name.length > LIMIT.headerName || !HEADER_NAME.test(name)) continue;
      headers ??= {};
      headers[name] = fit(value, LIMIT.headerValue);
      if (Object.keys(headers).length === LIMIT.headers) break;
    }
  }
  return {
    ts: Math.round(e.ts),
    method: METHODS.has(method) ? method : OTHER_METHOD,
    route: fit(e.route.startsWith('/') ? e.route.replace(/\s/g, '_') : `/${e.route.replace(/\s/g, '_')}`, LIMIT.route),
    path: fit(e.path.startsWith('/') ? e.path : `/${e.path}`, LIMIT.path),
    status: e.status,
    durationMs: Number.isFinite(e.durationMs) ? Math.min(Math.max(e.durationMs, 0), 86_400_000) : 0,
    apiVersion: fitOptional(e.apiVersion, LIMIT.apiVersion),
    keyId: fitOptional(e.keyId, LIMIT.id),
    customerId: fitOptional(e.customerId, LIMIT.id),
    actor: e.actor?.id ? { id: fit(e.actor.id, LIMIT.id), name: fit(e.actor.name || e.actor.id, LIMIT.name) } : undefined,
    bytes: Number.isInteger(e.bytes) && e.bytes! >= 0 && e.bytes! <= 2 ** 40 ? e.bytes : undefined,
    headers,
  };
}

const within = (value: string | null | undefined, max: number) => value === undefined || value === null || (value !== '' && value.length <= max);

/** The route of the last request that fitted: most requests have the same route as the one before. */
let lastFittingRoute = '';

/** Whether a request is within every limit as it is (the common case, checked without copying). */
function fits(e: MeasuredRequest): boolean {
  if (!METHODS.has(e.method) || !Number.isInteger(e.ts) || !(e.durationMs >= 0 && e.durationMs <= 86_400_000)) return false;
  if (e.route !== lastFittingRoute) {
    if (e.route.length > LIMIT.route || e.route[0] !== '/' || /\s/.test(e.route)) return false;
    lastFittingRoute = e.route;
  }
  if (e.path.length > LIMIT.path || e.path[0] !== '/') return false;
  if (!within(e.apiVersion, LIMIT.apiVersion) || !within(e.keyId, LIMIT.id) || !within(e.customerId, LIMIT.id)) return false;
  if (e.actor && !(within(e.actor.id, LIMIT.id) && e.actor.id && within(e.actor.name, LIMIT.name) && e.actor.name)) return false;
  if (e.bytes !== undefined && e.bytes !== null && !(Number.isInteger(e.bytes) && e.bytes >= 0 && e.bytes <= 2 ** 40)) return false;
  if (e.headers) {
    let count = 0;
    for (const name in e.headers) {
      const value = e.headers[name]!;
      if (++count > LIMIT.headers || !value || value.length > LIMIT.headerValue || name.length > LIMIT.headerName || !HEADER_NAME.test(name)) return false;
    }
  }
  return true;
}

/**
 * The JSON text of a string. Methods, routes, versions, keys and customers repeat from request to
 * request: their text is kept (a bounded number of them) rather than made again each time.
 */
const quotedText = new Map<string, string>();
function quoted(value: string): string {
  let json = quotedText.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (quotedText.size >= 4096) quotedText.clear();
    quotedText.set(value, json);
  }
  return json;
}

/** A number as JSON writes it (`null` for NaN and the infinities). */
const number = (value: number) => (Number.isFinite(value) ? String(value) : 'null');

/**
 * A duration in JSON. The adapters measure to the microsecond; such a value is written from its
 * whole milliseconds and microseconds (`1.250`), which costs far less than writing a double.
 */
function milliseconds(value: number): string {
  const micros = Math.round(value * 1000);
  if (micros / 1000 !== value || micros < 0 || !Number.isSafeInteger(micros)) return number(value);
  const fraction = micros % 1000;
  return fraction === 0 ? String(micros / 1000) : `${(micros - fraction) / 1000}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

/**
 * The ingest API's shape, as JSON: optional fields left out rather than null. Written field by
 * field: the same values `JSON.stringify` gives for the event (the collector's tests compare the
 * two), at a fraction of its cost on the host's time.
 */
export function toWire(e: MeasuredRequest): string {
  let json = `{"ts":${number(e.ts)},"method":${quoted(e.method)},"route":${quoted(e.route)},"path":${JSON.stringify(e.path)},"status":${number(e.status)},"durationMs":${milliseconds(e.durationMs)}`;
  if (e.apiVersion !== undefined && e.apiVersion !== null) json += `,"apiVersion":${quoted(e.apiVersion)}`;
  if (e.keyId !== undefined && e.keyId !== null) json += `,"keyId":${quoted(e.keyId)}`;
  if (e.customerId !== undefined && e.customerId !== null) json += `,"customerId":${quoted(e.customerId)}`;
  if (e.actor) json += `,"actor":${JSON.stringify({ id: e.actor.id, name: e.actor.name })}`;
  if (e.bytes !== undefined && e.bytes !== null) json += `,"bytes":${number(e.bytes)}`;
  if (e.headers) json += `,"headers":${JSON.stringify(e.headers)}`;
  return `${json}}`;
}
