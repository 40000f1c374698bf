/**
 * What answers ingest and OTLP: request events and webhook deliveries from collectors, and
 * OpenTelemetry traces whose HTTP server spans become requests. Each batch's good items are kept
 * and its bad ones answered with their reasons; the error-spike checks run after, off the
 * response's path.
 */
import type { Context, Handler } from 'hono';
import type { ServerMetrics } from './metrics.ts';
import type * as z from 'zod';
import type { BodyReader } from './body/pool.ts';
import type { CaptureOptions } from './body/read.ts';
import type { BatchRead, Refusal, Sorted } from './body/read.ts';
import { idempotencyKey } from './idempotency.ts';
import { toDelivery, type deliveryInput } from './ingest.ts';
import { ProblemError, badRequest, unprocessable } from './problem.ts';
import { encodeResponse, encodeStatus, encodingOf } from './otlp/decode.ts';
import type { OtlpAttributes } from './otlp/spans.ts';
import type { SpikeWatch } from './spikes.ts';
import { toRequestEvent, type MeasuredRequest } from '@ops-console/contract/request-event';
import type { Stores } from './store/types.ts';

/** How far ahead of the server's clock an event may be stamped. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export interface IngestDependencies {
  stores: Stores;
  /** The current time in milliseconds. */
  clock: () => number;
  metrics: ServerMetrics;
  spikes: SpikeWatch;
  maxBatch: number;
  maxBodyBytes: number;
  otlpNames: OtlpAttributes;
  /** What is masked in each request before it is kept, besides the defaults, and a body's text kept at most. */
  capture?: CaptureOptions | undefined;
  /** Where bodies are read: worker threads, off the event loop. */
  bodies: BodyReader;
}

/** The server's context, where the ingest key's gate has put the account. */
type IngestEnv = { Variables: { accountId: string; body: Uint8Array } };

/** Spans of every kind per export, for each HTTP server span it may carry. */
const SPANS_PER_SERVER_SPAN = 5;

export function createIngestHandlers<E extends IngestEnv>({
  stores,
  clock,
  metrics,
  spikes,
  maxBatch,
  maxBodyBytes,
  otlpNames,
  bodies,
  capture,
}: IngestDependencies) {
  const limits = { maxBytes: maxBodyBytes, maxBatch, maxSpans: maxBatch * SPANS_PER_SERVER_SPAN };
  const common = (c: Context<E>) => ({
    // Read by the ingest gate, at its pace and within its limit.
    body: c.get('body'),
    contentEncoding: c.req.header('content-encoding'),
    limits,
    latest: clock() + MAX_CLOCK_SKEW_MS,
    capture,
  });
  const refuse = (refusal: Refusal): never => {
    throw refusal.refused === 413 ? new ProblemError(413, 'Content too large', refusal.message) : badRequest(refusal.message);
  };
  /** Per account, the end of its last batch: the next starts after it. */
  const turns = new Map<string, Promise<unknown>>();
  /**
   * One account's batches are read and kept one after another: however many it sends at once,
   * it holds one worker and has one write waiting for the store, so another account's batch
   * never queues behind a row of them.
   */
  const oneAfterAnother = <T>(accountId: string, work: () => Promise<T>): Promise<T> => {
    const turn = (turns.get(accountId) ?? Promise.resolve()).then(work);
    const settled = turn.catch(() => undefined);
    turns.set(accountId, settled);
    void settled.then(() => turns.get(accountId) === settled && turns.delete(accountId));
    return turn;
  };
  /** The answer to a batch: its counts and its first rejections, whatever its size. */
  const answerOf = ({ good, rejectedCount, rejected }: Sorted<unknown>) => ({ accepted: good.length, rejectedCount, rejected });

  /**
   * Keeps a batch's good requests in one transaction; the error-spike checks run afterwards, off
   * the response's path. With an Idempotency-Key the batch is kept once: a repeat gets the first
   * answer and appends nothing.
   */
  const acceptRequests = async (accountId: string, batch: Sorted<MeasuredRequest>, idempotency?: { key: string; fingerprint: string }) => {
    const events = batch.good.map((e) => toRequestEvent(accountId, e));
    const answer = answerOf(batch);
    if (!idempotency) await stores.telemetry.append(events);
    else {
      const first = await stores.appendOnce(accountId, `ingest ${idempotency.key}`, { ...idempotency, status: 202, body: answer, at: clock() }, events);
      if (first.answer.fingerprint !== idempotency.fingerprint)
        throw unprocessable('This Idempotency-Key was already used for a different batch; send a new key for a new batch.');
      if (!first.appended) return first.answer.body as typeof answer;
    }
    metrics.ingestEvents.inc({ outcome: 'accepted' }, events.length);
    metrics.ingestEvents.inc({ outcome: 'rejected' }, batch.rejectedCount);
    spikes.notice(
      accountId,
      events.filter((e) => e.status >= 500),
    );
    return answer;
  };

  const handlers: Record<'ingestRequests' | 'ingestWebhookDeliveries' | 'otlpTraces', Handler<E>> = {
    ingestRequests: (c) =>
      oneAfterAnother(c.get('accountId'), async () => {
        const accountId = c.get('accountId');
        const key = idempotencyKey(c);
        const read = await bodies.read({
          kind: 'requests',
          ...common(c),
          contentType: c.req.header('content-type'),
          fingerprintOf: key === undefined ? undefined : `${c.req.method} ${new URL(c.req.url).pathname}`,
        });
        if ('refused' in read) return refuse(read);
        const batch = read as BatchRead<MeasuredRequest>;
        return c.json(await acceptRequests(accountId, batch, key === undefined ? undefined : { key, fingerprint: batch.fingerprint! }), 202);
      }),
    ingestWebhookDeliveries: (c) =>
      oneAfterAnother(c.get('accountId'), async () => {
        const accountId = c.get('accountId');
        const read = await bodies.read({ kind: 'deliveries', ...common(c), contentType: c.req.header('content-type') });
        if ('refused' in read) return refuse(read);
        const batch = read as BatchRead<z.infer<typeof deliveryInput>>;
        await stores.telemetry.appendDeliveries(batch.good.map((d) => toDelivery(accountId, d)));
        return c.json(answerOf(batch), 202);
      }),
    otlpTraces: (c) =>
      oneAfterAnother(c.get('accountId'), async () => {
        const accountId = c.get('accountId');
        const encoding = encodingOf(c.req.header('content-type'));
        if (!encoding) throw new ProblemError(415, 'Unsupported media type', 'Send application/x-protobuf or application/json (OTLP/HTTP).');
        const type = encoding === 'json' ? 'application/json' : 'application/x-protobuf';
        const answer = (status: 200 | 400 | 413, body: Uint8Array | string) =>
          new Response(typeof body === 'string' ? body : new Uint8Array(body), { status, headers: { 'content-type': type } });
        const read = await bodies.read({ kind: 'otlp', ...common(c), encoding, names: otlpNames });
        // 3: INVALID_ARGUMENT; 8: RESOURCE_EXHAUSTED.
        if ('refused' in read) return answer(read.refused, encodeStatus(encoding, read.refused === 413 ? 8 : 3, read.message));
        await acceptRequests(accountId, read);
        const refusedCount = read.unreadableCount + read.rejectedCount;
        const reasons = [...read.unreadable, ...read.rejected.map((r) => `span "${read.names[r.index] ?? ''}": ${inSpanTerms(r.reason)}`)];
        metrics.otlpSpans.inc({ outcome: 'accepted' }, read.good.length);
        metrics.otlpSpans.inc({ outcome: 'ignored' }, read.ignored);
        metrics.otlpSpans.inc({ outcome: 'rejected' }, refusedCount);
        // A partial success only when spans were refused: ignoring client and internal spans is the normal case, and exporters log every partial success.
        const notes = refusedCount
          ? [
              `${refusedCount} HTTP server span${refusedCount === 1 ? '' : 's'} rejected (${reasons.slice(0, 3).join('; ')}).`,
              read.ignored ? `${read.ignored} span${read.ignored === 1 ? '' : 's'} ignored: not HTTP server spans.` : '',
            ].filter(Boolean)
          : [];
        return answer(200, encodeResponse(encoding, notes.length ? { rejectedSpans: refusedCount, errorMessage: notes.join(' ') } : undefined));
      }),
  };
  return handlers;
}

/** The span attributes an event's fields come from, so an exporter's reason names what it sent. */
const SPAN_FIELDS: Record<string, string> = {
  ts: 'startTimeUnixNano',
  method: 'http.request.method',
  route: 'http.route',
  path: 'url.path',
  status: 'http.response.status_code',
  durationMs: 'the span’s duration',
  bytes: 'http.response.body.size',
};
const inSpanTerms = (reason: string) => reason.replace(/(^|; )(\w+):/g, (all, start: string, field: string) => `${start}${SPAN_FIELDS[field] ?? field}:`);
