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
import { isCredential } from '@ops-console/contract/credentials';
import { INGEST_LIMITS as LIMIT } from '@ops-console/contract/ingest-limits';
import { toRequestEvent } from '@ops-console/contract/request-event';
import { MAX_BACKOFF_MS, MAX_FAILURES, ingestUrlOf, problemOf, problemTeller, rejectedOf, retryAfterMs } from './ingest-answers.ts';
import { errorText, post } from './post.ts';
import type { Collector, CollectorOptions, CollectorStats, MeasuredRequest } from './types.ts';
import { EventColumns } from './columns.ts';
import { cleaned, fitted } from './fit.ts';

export type { Collector, CollectorOptions, CollectorProblem, CollectorStats, EventStore, MeasuredRequest, RequestEvent, Sink } from './types.ts';

/** Events waiting to be sent: as objects for a store, in columns for the ingest API. */
interface Batch {
  count: number;
  /** About the events' size as sent (JSON), for the byte bounds. */
  bytes: number;
  /** Sent with every attempt of this batch, so the server keeps it once. */
  key: string;
  /** Server errors (5xx but 503), or a store's failures, it got so far. */
  failures: number;
  events?: MeasuredRequest[];
  columns?: EventColumns;
  /** The events of `columns` this batch sends, when a batch too big for one body was split. */
  range?: [from: number, to: number];
  /** The batch as sent: written at its first attempt, the same bytes at every retry. */
  body?: Buffer;
}

export function createCollector(options: CollectorOptions): Collector {
  const maxQueue = options.maxQueue ?? 10_000;
  const maxQueueBytes = options.maxQueueBytes ?? 32 * 1024 * 1024;
  const batchSize = Math.min(options.batchSize ?? 5_000, LIMIT.maxBatch);
  const maxBatchBytes = Math.min(options.maxBatchBytes ?? 4 * 1024 * 1024, LIMIT.maxBodyBytes);
  const interval = options.flushIntervalMs ?? 5_000;
  const sendTimeout = options.sendTimeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const sink = options.sink;
  const ingestUrl = 'url' in sink ? ingestUrlOf(sink.url) : undefined;
  if ('url' in sink && !isCredential(sink.ingestKey))
    throw new Error(`The collector's ingestKey is missing (it is ${JSON.stringify(sink.ingestKey)}): pass the key the console server gave this API.`);
  const tell = problemTeller(options.onError);

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
      const answer = await post(ingestUrl!, headers, batch.body!, sendTimeout, (abort) => (abortSend = abort));
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
      if (batch.columns && !batch.body && write(batch) !== 'written') continue;
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
      : { count: 0, bytes: 0, key: randomUUID(), failures: 0, columns: new EventColumns() };

  /**
   * Writes the front batch's body. The byte bound counted its events roughly: a body over
   * `maxBatchBytes` is split in two batches (the second with a key of its own). A batch that
   * cannot be written at all is dropped and counted, never thrown into the host.
   */
  function write(batch: Batch): 'written' | 'split' | 'dropped' {
    const [from, to] = batch.range ?? [0, batch.count];
    let body: Buffer;
    try {
      body = Buffer.from(batch.columns!.json(from, to));
    } catch (error) {
      ready.shift();
      settle(batch);
      stats.droppedFailed += batch.count;
      tell({ kind: 'refused', events: batch.count, message: `A batch could not be written as JSON (${errorText(error)}): ${batch.count} event(s) dropped.` });
      return 'dropped';
    }
    if (body.length <= maxBatchBytes || batch.count === 1) {
      batch.body = body;
      batch.columns = undefined;
      return 'written';
    }
    const half = from + Math.ceil(batch.count / 2);
    const firstBytes = Math.round((batch.bytes * (half - from)) / batch.count);
    const part = (start: number, end: number, key: string, bytes: number): Batch => ({
      count: end - start,
      bytes,
      key,
      failures: 0,
      columns: batch.columns,
      range: [start, end],
    });
    ready.splice(0, 1, part(from, half, batch.key, firstBytes), part(half, to, randomUUID(), batch.bytes - firstBytes));
    return 'split';
  }

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
    const bytes = EventColumns.bytesOf(event);
    if (queuedBytes + bytes > maxQueueBytes) {
      dropFull();
      return;
    }
    full = false;
    if (open && open.bytes + bytes > maxBatchBytes) seal();
    open ??= newBatch();
    if (open.events) open.events.push(event);
    else open.columns!.add(event);
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
