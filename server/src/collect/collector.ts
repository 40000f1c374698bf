/**
 * The collector's core, shared by every framework adapter: a bounded queue of request events,
 * sent in batches (by size or time) to a store in the same process or to a remote ingest API.
 * It never throws into the host API and never delays its responses: when the queue is full or
 * the store is down, events are dropped and counted, and `stats()` says so.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { toRequestEvent, type MeasuredRequest } from '../store/request-event.ts';
import type { TelemetryStore } from '../store/types.ts';

export type { MeasuredRequest };

export type Sink = { store: TelemetryStore; accountId: string } | { url: string; ingestKey: string };

export interface CollectorOptions {
  /** Where events go: a store in this process, or `POST <url>/ingest/v1/requests` with an ingest key. */
  sink: Sink;
  /** Events kept while waiting to be sent (default 10,000); beyond it new events are dropped and counted. */
  maxQueue?: number;
  /** Events per batch (default 5,000: at a few thousand requests a second the timer, not the size, sends — fewer sends cost the host less at p99). */
  batchSize?: number;
  /** How long an event may wait for its batch (default 1,000 ms). */
  flushIntervalMs?: number;
  /** The clock (for tests). */
  now?: () => number;
}

export interface CollectorStats {
  /** Events handed to the sink and accepted. */
  sent: number;
  /** Events recorded and neither sent nor dropped yet (waiting, or in the batch being sent). */
  queued: number;
  /** Events dropped because the queue was full (`maxQueue` events waiting or being sent). */
  droppedQueueFull: number;
  /** Events given up on after the sink failed (not 429/503) or refused them. */
  droppedFailed: number;
  /** Failed attempts to send a batch (each retried or dropped). */
  failedAttempts: number;
}

export interface Collector {
  record(request: MeasuredRequest): void;
  /** Sends everything queued now; resolves when done (or given up). */
  flush(): Promise<void>;
  stats(): CollectorStats;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

/** Events waiting to be sent: as objects for a store, as one growing buffer of JSON for the ingest API. */
interface Batch {
  count: number;
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

  constructor(expected: number) {
    this.#buffer = Buffer.allocUnsafe(Math.max(4096, expected * 320));
    this.#length = this.#buffer.write('{"events":[');
  }

  add(json: string): void {
    const needed = this.#length + Buffer.byteLength(json) + 3; // a comma before it, "]}" after the last
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    if (this.#count++) this.#buffer[this.#length++] = 0x2c; // ,
    this.#length += this.#buffer.write(json, this.#length);
  }

  /** The request body; the same bytes each time it is sent. */
  body(): Buffer {
    return Buffer.concat([this.#buffer.subarray(0, this.#length), CLOSE]);
  }
}
const CLOSE = Buffer.from(']}');

const MAX_BACKOFF_MS = 30_000;
const SEND_TIMEOUT_MS = 10_000;

export function createCollector(options: CollectorOptions): Collector {
  const maxQueue = options.maxQueue ?? 10_000;
  const batchSize = options.batchSize ?? 5_000;
  const interval = options.flushIntervalMs ?? 1_000;
  const now = options.now ?? Date.now;
  const sink = options.sink;
  const ingestUrl = 'url' in sink ? new URL(`${sink.url.replace(/\/$/, '')}/ingest/v1/requests`) : undefined;
  // A mistyped sink is the developer's to see when the collector is made, not a request's to carry.
  if (ingestUrl && ingestUrl.protocol !== 'http:' && ingestUrl.protocol !== 'https:')
    throw new Error(`The collector's sink must be an http(s) URL, not ${ingestUrl.protocol}`);
  /** Batches ready to send (a failed one goes back to the front), and the one being filled. */
  const ready: Batch[] = [];
  let open: Batch | undefined;
  /** Events recorded and neither sent nor dropped: waiting, or in the batch being sent. */
  let queued = 0;
  const stats: Omit<CollectorStats, 'queued'> = { sent: 0, droppedQueueFull: 0, droppedFailed: 0, failedAttempts: 0 };
  let sending: Promise<void> | undefined;
  let retryAt = 0;
  let backoff = 0;
  /** How long the server asked us to wait (Retry-After), never less. */
  let serverAsked = 0;
  let closed = false;

  // Each tick sends whatever waits; between ticks only full batches go (a send per few events would cost the host more).
  const timer = setInterval(() => void (sending ?? flush(true)), interval);
  timer.unref();

  /** Sends one batch; answers whether to keep it for a retry. */
  async function send(batch: Batch): Promise<'sent' | 'retry' | 'drop'> {
    try {
      if ('store' in sink) {
        await sink.store.append(batch.events!.map((e) => toRequestEvent(sink.accountId, e)));
        return 'sent';
      }
      const response = await post(ingestUrl!, { authorization: `Bearer ${sink.ingestKey}`, 'content-type': 'application/json' }, batch.json!.body());
      if (response.status === 202) return 'sent';
      if (response.status === 429 || response.status === 503) {
        serverAsked = retryAfterMs(response.retryAfter, now());
        return 'retry';
      }
      return 'drop';
    } catch {
      return 'retry'; // the store or the network is away: keep the events while the queue has room
    }
  }

  async function drain(everything: boolean): Promise<void> {
    if (everything && open) {
      ready.push(open);
      open = undefined;
    }
    while (ready.length && now() >= retryAt) {
      const batch = ready.shift()!;
      const outcome = await send(batch);
      if (outcome === 'retry') {
        // Back to the front; wait longer each time (with jitter), or as long as the server asked.
        stats.failedAttempts++;
        ready.unshift(batch);
        backoff = backoff ? Math.min(MAX_BACKOFF_MS, backoff * 2) : 500;
        retryAt = now() + Math.max(backoff * (0.5 + Math.random() / 2), serverAsked);
        serverAsked = 0;
        return;
      }
      queued -= batch.count;
      if (outcome === 'sent') {
        stats.sent += batch.count;
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

  return {
    record(request) {
      if (closed || queued >= maxQueue) {
        stats.droppedQueueFull++;
        return;
      }
      open ??= 'store' in sink ? { count: 0, events: [] } : { count: 0, json: new JsonBatch(batchSize) };
      if (open.events) open.events.push(request);
      else open.json!.add(toWire(request));
      open.count++;
      queued++;
      if (open.count >= batchSize) {
        ready.push(open);
        open = undefined;
        queueMicrotask(() => void flush(false));
      }
    },
    flush: async () => {
      retryAt = 0;
      await flush(true);
    },
    stats: () => ({ ...stats, queued }),
    async close() {
      clearInterval(timer);
      retryAt = 0;
      await flush(true);
      closed = true;
    },
  };
}

type Answer = { status: number; retryAfter: string | null };

// node:http with kept-alive connections rather than the global fetch, which costs the host's
// event loop more per batch (bench:server: 0.5 against 0.7 ms added at p99).
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 2 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 2 });

function post(target: URL, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const https = target.protocol === 'https:';
    const [send, agent] = https ? [httpsRequest, httpsAgent] : [httpRequest, httpAgent];
    const request = send(target, { method: 'POST', headers: { ...headers, 'content-length': body.length }, agent, timeout: SEND_TIMEOUT_MS }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: [response.headers['retry-after']].flat()[0] ?? null }));
      response.once('error', reject);
    });
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
    request.end(body);
  });
}

/** A Retry-After value (seconds or an HTTP date) in milliseconds from now, at most the longest backoff. */
function retryAfterMs(value: string | null, now: number): number {
  if (!value) return 0;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_BACKOFF_MS, Math.max(0, ms)) : 0;
}

/** The ingest API's shape, as JSON: optional fields left out rather than null (JSON.stringify skips undefined ones). */
function toWire(e: MeasuredRequest): string {
  return JSON.stringify({
    ts: e.ts,
    method: e.method,
    route: e.route,
    path: e.path,
    status: e.status,
    durationMs: e.durationMs,
    apiVersion: e.apiVersion ?? undefined,
    keyId: e.keyId ?? undefined,
    customerId: e.customerId ?? undefined,
    actor: e.actor ?? undefined,
    bytes: e.bytes ?? undefined,
    headers: e.headers ?? undefined,
  });
}
