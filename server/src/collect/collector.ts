/**
 * The collector's core, shared by every framework adapter: a bounded queue of request events,
 * sent in batches (by count, bytes or time) to a store in the same process or to a remote ingest
 * API. It never throws into the host API and never delays its responses: when the queue is full
 * or the sink fails, events are dropped and counted, `stats()` says so, and `onError` hears it.
 *
 * What it sends always fits the ingest API's limits (`INGEST_LIMITS`): over-long values are cut
 * and end in `…`, other methods are recorded as `OTHER`, so the server never refuses a measured
 * request. Each batch carries an Idempotency-Key, so a retry after a lost answer is kept once.
 */
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isCredential } from '../credentials.ts';
import { HEADER_NAME, INGEST_LIMITS as LIMIT, INGEST_METHODS, OTHER_METHOD, TRUNCATED } from '../limits.ts';
import { toRequestEvent, type MeasuredRequest } from '../store/request-event.ts';
import { cleanText } from '../text.ts';
import type { TelemetryStore } from '../store/types.ts';

export type { MeasuredRequest };

/** `ingestKey` may be read straight from the environment: a missing one is refused when the collector is made. */
export type Sink = { store: TelemetryStore; accountId: string } | { url: string; ingestKey: string | undefined };

/** Something that went wrong sending events: each kind is warned about once unless you pass `onError`. */
export interface CollectorProblem {
  kind: 'unauthorized' | 'not-found' | 'refused' | 'rejected-events' | 'unreachable' | 'server-error' | 'queue-full' | 'dropped-at-close';
  message: string;
  /** The ingest API's status, when it answered. */
  status?: number;
  /** How many events the problem cost, when it cost some. */
  events?: number;
}

export interface CollectorOptions {
  /** Where events go: a store in this process, or `POST <url>/ingest/v1/requests` with an ingest key. */
  sink: Sink;
  /** Events kept while waiting to be sent (default 10,000); beyond it new events are dropped and counted. */
  maxQueue?: number;
  /** Bytes of events (as sent) kept while waiting (default 32 MiB); beyond it new events are dropped and counted. */
  maxQueueBytes?: number;
  /** Events per batch (default 5,000: at a few thousand requests a second the timer, not the size, sends — fewer sends cost the host less at p99). */
  batchSize?: number;
  /** Bytes per batch (default 4 MiB, well below the server's 10 MB body limit). */
  maxBatchBytes?: number;
  /** How long an event may wait for its batch (default 1,000 ms). */
  flushIntervalMs?: number;
  /** How long one send may take in all, however slowly the sink answers (default 10,000 ms). */
  sendTimeoutMs?: number;
  /** Hears every problem; by default each kind is written once to `console.warn`. */
  onError?: (problem: CollectorProblem) => void;
  /** The clock (for tests). */
  now?: () => number;
}

export interface CollectorStats {
  /** Events handed to the sink and accepted. */
  sent: number;
  /** Events the ingest API answered but refused (listed as `rejected` in its 202). */
  rejected: number;
  /** Events recorded and neither sent nor dropped yet (waiting, or in the batch being sent). */
  queued: number;
  /** Events dropped because the queue was full (`maxQueue` events or `maxQueueBytes` waiting or being sent). */
  droppedQueueFull: number;
  /** Events given up on after the sink failed (not 429/503) or refused them. */
  droppedFailed: number;
  /** Events still waiting when `close()` reached its deadline. */
  droppedAtClose: number;
  /** Failed attempts to send a batch (each retried or dropped). */
  failedAttempts: number;
}

export interface Collector {
  record(request: MeasuredRequest): void;
  /** Sends everything queued now; resolves when done (or given up). */
  flush(): Promise<void>;
  stats(): CollectorStats;
  /** Stops recording, sends what waits (retrying while the sink is away) and resolves by `timeoutMs` (default 5,000) at the latest. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** Events waiting to be sent: as objects for a store, as one growing buffer of JSON for the ingest API. */
interface Batch {
  count: number;
  /** The events' size as sent (JSON), for the byte bounds. */
  bytes: number;
  /** Sent with every attempt of this batch, so the server keeps it once. */
  key: string;
  /** Server errors (5xx but 503), or a store's failures, it got so far. */
  failures: number;
  events?: MeasuredRequest[];
  json?: JsonBatch;
}

/**
 * A batch for the ingest API, written event by event into a buffer outside the JS heap: the
 * events waiting for their batch are then no work for the garbage collector, whose pauses would
 * otherwise land on the host's requests.
 */
class JsonBatch {
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

const MAX_BACKOFF_MS = 30_000;
/** Server errors (or failures of a store in this process) after which a batch is dropped. */
const MAX_FAILURES = 5;
/** What a batch costs beyond its events: `{"events":[` and `]}`. */
const BATCH_FRAME_BYTES = 13;

export function createCollector(options: CollectorOptions): Collector {
  const maxQueue = options.maxQueue ?? 10_000;
  const maxQueueBytes = options.maxQueueBytes ?? 32 * 1024 * 1024;
  const batchSize = Math.min(options.batchSize ?? 5_000, LIMIT.maxBatch);
  const maxBatchBytes = Math.min(options.maxBatchBytes ?? 4 * 1024 * 1024, LIMIT.maxBodyBytes) - BATCH_FRAME_BYTES;
  const interval = options.flushIntervalMs ?? 1_000;
  const sendTimeout = options.sendTimeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const sink = options.sink;
  const ingestUrl = 'url' in sink ? ingestUrlOf(sink.url) : undefined;
  if ('url' in sink && !isCredential(sink.ingestKey))
    throw new Error(`The collector's ingestKey is missing (it is ${JSON.stringify(sink.ingestKey)}): pass the key the console server gave this API.`);
  const warned = new Set<CollectorProblem['kind']>();
  const report =
    options.onError ??
    ((problem: CollectorProblem) => {
      if (warned.has(problem.kind)) return;
      warned.add(problem.kind);
      console.warn(`[ops-console collector] ${problem.message} (said once; pass onError to hear each time)`);
    });
  const tell = (problem: CollectorProblem) => {
    try {
      report(problem);
    } catch {
      // the host's hook must not break the collector
    }
  };

  /** Batches ready to send (a failed one goes back to the front), and the one being filled. */
  const ready: Batch[] = [];
  let open: Batch | undefined;
  /** Events recorded and neither sent nor dropped: waiting, or in the batch being sent; and their bytes. */
  let queued = 0;
  let queuedBytes = 0;
  const stats: Omit<CollectorStats, 'queued'> = { sent: 0, rejected: 0, droppedQueueFull: 0, droppedFailed: 0, droppedAtClose: 0, failedAttempts: 0 };
  let sending: Promise<void> | undefined;
  /** Ends the send under way (at close's deadline). */
  let abortSend: (() => void) | undefined;
  let retryAt = 0;
  let backoff = 0;
  /** How long the server asked us to wait (Retry-After), never less. */
  let serverAsked = 0;
  let closed = false;
  /** The queue was full at the last request (its problem was told). */
  let full = false;

  // Each tick sends whatever waits; between ticks only full batches go (a send per few events would cost the host more).
  const timer = setInterval(() => void (sending ?? flush(true)), interval);
  timer.unref();

  /** Sends one batch; answers whether to keep it for a retry, and how many of its events the server refused. */
  async function send(batch: Batch): Promise<{ outcome: 'sent' | 'retry' | 'drop'; rejected?: number }> {
    try {
      if ('store' in sink) {
        // What the ingest API would clean on the way in, the store gets cleaned too.
        await sink.store.append(batch.events!.map((e) => toRequestEvent(sink.accountId, cleaned(e))));
        return { outcome: 'sent' };
      }
      const headers = { authorization: `Bearer ${sink.ingestKey}`, 'content-type': 'application/json', 'idempotency-key': batch.key };
      const answer = await post(ingestUrl!, headers, batch.json!.body(), sendTimeout, (abort) => (abortSend = abort));
      if (answer.status === 202) {
        const rejected = rejectedOf(answer.body);
        if (rejected.count)
          tell({
            kind: 'rejected-events',
            status: 202,
            events: rejected.count,
            message: `The console server refused ${rejected.count} event(s): ${rejected.first}`,
          });
        return { outcome: 'sent', rejected: rejected.count };
      }
      if (answer.status === 429 || answer.status === 503) {
        serverAsked = retryAfterMs(answer.retryAfter, now());
        return { outcome: 'retry' };
      }
      tell(problemOf(answer.status, ingestUrl!, batch.count));
      // A server error may pass (the Idempotency-Key makes a retry safe), but a batch that keeps failing must not hold up the rest.
      return { outcome: answer.status >= 500 && ++batch.failures < MAX_FAILURES ? 'retry' : 'drop' };
    } catch (error) {
      if (closed && !ready.includes(batch)) return { outcome: 'drop' }; // close() gave up on it: nothing will retry
      // The network is away: keep the events while the queue has room. A store that throws is
      // away too, unless it keeps throwing for this batch: then the batch must not hold up the rest.
      tell({ kind: 'unreachable', message: `Could not send events to ${'store' in sink ? 'the store' : ingestUrl!.origin}: ${errorText(error)}; retrying.` });
      return { outcome: 'store' in sink && ++batch.failures >= MAX_FAILURES ? 'drop' : 'retry' };
    } finally {
      abortSend = undefined;
    }
  }

  /** Forgets a batch that left the queue (sent or dropped). */
  const settle = (batch: Batch) => {
    queued -= batch.count;
    queuedBytes -= batch.bytes;
  };

  async function drain(everything: boolean): Promise<void> {
    // While backing off the open batch stays open: sealing it each tick would make a batch (and a buffer) per second of an outage.
    if (everything && open && now() >= retryAt) {
      ready.push(open);
      open = undefined;
    }
    while (ready.length && now() >= retryAt) {
      const batch = ready[0]!;
      const { outcome, rejected = 0 } = await send(batch);
      if (ready[0] !== batch) return; // close() gave up on it meanwhile: counted there
      if (outcome === 'retry') {
        // Stays at the front; wait longer each time (with jitter), or as long as the server asked.
        stats.failedAttempts++;
        backoff = backoff ? Math.min(MAX_BACKOFF_MS, backoff * 2) : 500;
        retryAt = now() + Math.max(backoff * (0.5 + Math.random() / 2), serverAsked);
        serverAsked = 0;
        return;
      }
      ready.shift();
      settle(batch);
      if (outcome === 'sent') {
        stats.sent += batch.count - rejected;
        stats.rejected += rejected;
        backoff = 0;
      } else {
        stats.failedAttempts++;
        stats.droppedFailed += batch.count;
      }
    }
  }

  /** Starts sending (one drain at a time); `everything` includes a last partial batch, and waits for a drain already under way first. */
  function flush(everything: boolean): Promise<void> {
    if (sending) return everything ? sending.then(() => flush(true)) : sending;
    sending = drain(everything).finally(() => (sending = undefined));
    return sending;
  }

  const newBatch = (): Batch =>
    'store' in sink
      ? { count: 0, bytes: 0, key: '', failures: 0, events: [] }
      : { count: 0, bytes: 0, key: randomUUID(), failures: 0, json: new JsonBatch(Math.min(maxBatchBytes, batchSize * 320)) };

  /** Moves the open batch to the ready ones and starts sending. */
  const seal = () => {
    ready.push(open!);
    open = undefined;
    queueMicrotask(() => void flush(false));
  };

  return {
    record(request) {
      try {
        recordOne(request);
      } catch {
        // A request the collector cannot read is left out; the host's request never sees it.
      }
    },
    flush: async () => {
      retryAt = 0;
      await flush(true);
    },
    stats: () => ({ ...stats, queued }),
    async close({ timeoutMs = 5_000 } = {}) {
      closed = true;
      clearInterval(timer);
      // At shutdown what waits is sent now, not after the backoff of a server that was away.
      retryAt = 0;
      const deadline = now() + timeoutMs;
      let stop!: () => void;
      const stopped = new Promise<'deadline'>((resolve) => (stop = () => resolve('deadline')));
      const alarm = setTimeout(stop, timeoutMs);
      try {
        // Retries while the sink is away, until everything is sent or the deadline comes.
        while (queued > 0 && now() < deadline) {
          if (now() < retryAt) {
            const wait = Math.min(retryAt, deadline) - now();
            const pause = new Promise<void>((resolve) => setTimeout(resolve, wait));
            if ((await Promise.race([pause, stopped])) === 'deadline') break;
          }
          if ((await Promise.race([flush(true), stopped])) === 'deadline') break;
        }
      } finally {
        clearTimeout(alarm);
      }
      if (queued > 0) {
        stats.droppedAtClose += queued;
        tell({
          kind: 'dropped-at-close',
          events: queued,
          message: `Closed with ${queued} event(s) not yet sent: the console server did not take them in time.`,
        });
        ready.length = 0;
        open = undefined;
        queued = 0;
        queuedBytes = 0;
        abortSend?.();
      }
    },
  };

  function recordOne(request: MeasuredRequest): void {
    if (closed) return;
    if (queued >= maxQueue) {
      dropFull();
      return;
    }
    const event = fitted(request);
    const json = toWire(event);
    const bytes = Buffer.byteLength(json) + 1;
    if (queuedBytes + bytes > maxQueueBytes) {
      dropFull();
      return;
    }
    full = false;
    if (open && open.bytes + bytes > maxBatchBytes) seal();
    open ??= newBatch();
    if (open.events) open.events.push(event);
    else open.json!.add(json, bytes);
    open.count++;
    open.bytes += bytes;
    queued++;
    queuedBytes += bytes;
    if (open.count >= batchSize) seal();
  }

  function dropFull(): void {
    stats.droppedQueueFull++;
    // Said when the queue fills, not for every request dropped while it stays full.
    if (!full) tell({ kind: 'queue-full', events: 1, message: 'The queue is full (the console server is slow or away): new requests are not recorded.' });
    full = true;
  }
}

/** The ingest URL of a sink: the console server's base URL, or the ingest URL itself. */
function ingestUrlOf(base: string): URL {
  const url = new URL(base);
  // A mistyped sink is the developer's to see when the collector is made, not a request's to carry.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`The collector's sink must be an http(s) URL, not ${url.protocol}`);
  if (!/\/ingest\/v1\/requests\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/ingest/v1/requests`;
  return url;
}

function problemOf(status: number, url: URL, events: number): CollectorProblem {
  if (status === 401 || status === 403)
    return {
      kind: 'unauthorized',
      status,
      events,
      message: `The console server refused the ingest key (${status}): ${events} event(s) dropped. Check ingestKey.`,
    };
  if (status === 404)
    return {
      kind: 'not-found',
      status,
      events,
      message: `Nothing answers at ${url.href} (404): ${events} event(s) dropped. The sink URL is the console server's base URL.`,
    };
  if (status >= 500)
    return {
      kind: 'server-error',
      status,
      events,
      message: `The console server failed (${status}); a batch is tried ${MAX_FAILURES} times before it is dropped.`,
    };
  return { kind: 'refused', status, events, message: `The console server refused a batch (${status}): ${events} event(s) dropped.` };
}

/** How many events a 202 lists as rejected, and the first reason. */
function rejectedOf(body: string): { count: number; first: string } {
  try {
    const list = (JSON.parse(body) as { rejected?: { reason?: string }[] }).rejected;
    return Array.isArray(list) ? { count: list.length, first: list[0]?.reason ?? '' } : { count: 0, first: '' };
  } catch {
    return { count: 0, first: '' };
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Answer = { status: number; retryAfter: string | null; body: string };

// node:http with kept-alive connections rather than the global fetch, which costs the host's
// event loop more per batch (bench:server: 0.5 against 0.7 ms added at p99).
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 2 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 2 });
/** More of an answer than any ingest answer needs is not read. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** POSTs `body`; the whole exchange ends by `timeoutMs`, however slowly the other side trickles. */
function post(target: URL, headers: Record<string, string>, body: Buffer, timeoutMs: number, onAbort: (abort: () => void) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const https = target.protocol === 'https:';
    const [send, agent] = https ? [httpsRequest, httpsAgent] : [httpRequest, httpAgent];
    const request = send(target, { method: 'POST', headers: { ...headers, 'content-length': body.length }, agent }, (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length <= MAX_ANSWER_BYTES) chunks.push(chunk);
      });
      response.once('end', () => {
        clearTimeout(deadline);
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: [response.headers['retry-after']].flat()[0] ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      response.once('error', reject);
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    onAbort(() => request.destroy(new Error('closed')));
    request.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(body);
  });
}

/** A Retry-After value (seconds or an HTTP date) in milliseconds from now, at most the longest backoff. */
function retryAfterMs(value: string | null, now: number): number {
  if (!value) return 0;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_BACKOFF_MS, Math.max(0, ms)) : 0;
}

const METHODS = new Set<string>(INGEST_METHODS);

/** `value` cut to `max` UTF-16 units, ending in `…` when cut (a surrogate pair split by the cut becomes U+FFFD). */
const fit = (value: string, max: number) => (value.length <= max ? value : value.slice(0, max - 1).toWellFormed() + TRUNCATED);
const fitOptional = (value: string | null | undefined, max: number) => (value ? fit(value, max) : undefined);

/** Text as the console server stores it (server/src/text.ts): for a store in this process, which no ingest API cleans. */
function cleaned(e: MeasuredRequest): MeasuredRequest {
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
function fitted(e: MeasuredRequest): MeasuredRequest {
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
function toWire(e: MeasuredRequest): string {
  let json = `{"ts":${number(e.ts)},"method":${quoted(e.method)},"route":${quoted(e.route)},"path":${JSON.stringify(e.path)},"status":${number(e.status)},"durationMs":${milliseconds(e.durationMs)}`;
  if (e.apiVersion !== undefined && e.apiVersion !== null) json += `,"apiVersion":${quoted(e.apiVersion)}`;
  if (e.keyId !== undefined && e.keyId !== null) json += `,"keyId":${quoted(e.keyId)}`;
  if (e.customerId !== undefined && e.customerId !== null) json += `,"customerId":${quoted(e.customerId)}`;
  if (e.actor) json += `,"actor":${JSON.stringify({ id: e.actor.id, name: e.actor.name })}`;
  if (e.bytes !== undefined && e.bytes !== null) json += `,"bytes":${number(e.bytes)}`;
  if (e.headers) json += `,"headers":${JSON.stringify(e.headers)}`;
  return `${json}}`;
}
