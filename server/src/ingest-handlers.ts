/**
 * What answers ingest and OTLP: request events and webhook deliveries from collectors, and
 * OpenTelemetry traces whose HTTP server spans become requests. Each batch's good items are kept
 * and its bad ones answered with their reasons; the error-spike checks run after, off the
 * response's path.
 */
import type { Context, Handler } from 'hono';
import type { ServerMetrics } from './metrics.ts';
import { fingerprintOf, idempotencyKey } from './idempotency.ts';
import { batchItems, deliveryInput, requestEventInput, sortOut, toDelivery, upTo } from './ingest.ts';
import { ProblemError, badRequest, unprocessable } from './problem.ts';
import { decodeExport, encodeResponse, encodeStatus, encodingOf } from './otlp/decode.ts';
import { spansToRequests, type OtlpAttributes } from './otlp/spans.ts';
import type { SpikeWatch } from './spikes.ts';
import { toRequestEvent } from './store/request-event.ts';
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
}

/** The server's context, where the ingest key's gate has put the account. */
type IngestEnv = { Variables: { accountId: string } };

export function createIngestHandlers<E extends IngestEnv>({ stores, clock, metrics, spikes, maxBatch, maxBodyBytes, otlpNames }: IngestDependencies) {
  const batchOf = (raw: string, contentType: string | undefined, field: string) => {
    const items = batchItems(raw, contentType, field);
    if (typeof items === 'string') throw badRequest(items);
    if (items.length > maxBatch) throw new ProblemError(413, 'Content too large', `Send at most ${maxBatch.toLocaleString('en-US')} items per batch.`);
    return items;
  };
  const batch = async (c: Context, field: string) => batchOf(await c.req.raw.text(), c.req.header('content-type'), field);

  /**
   * Checks each request and keeps the good ones in one transaction; the error-spike checks run
   * afterwards, off the response's path. With an Idempotency-Key the batch is kept once: a
   * repeat gets the first answer and appends nothing.
   */
  const acceptRequests = async (accountId: string, items: readonly unknown[], idempotency?: { key: string; fingerprint: string }) => {
    const { good, rejected } = sortOut(items, requestEventInput);
    const events = upTo(good, rejected, clock() + MAX_CLOCK_SKEW_MS).map((e) => toRequestEvent(accountId, e));
    const answer = { accepted: events.length, rejected };
    if (!idempotency) await stores.telemetry.append(events);
    else {
      const first = await stores.appendOnce(accountId, `ingest ${idempotency.key}`, { ...idempotency, status: 202, body: answer, at: clock() }, events);
      if (first.answer.fingerprint !== idempotency.fingerprint)
        throw unprocessable('This Idempotency-Key was already used for a different batch; send a new key for a new batch.');
      if (!first.appended) return first.answer.body as typeof answer;
    }
    metrics.ingestEvents.inc({ outcome: 'accepted' }, events.length);
    metrics.ingestEvents.inc({ outcome: 'rejected' }, rejected.length);
    spikes.notice(
      accountId,
      events.filter((e) => e.status >= 500),
    );
    return answer;
  };

  const handlers: Record<'ingestRequests' | 'ingestWebhookDeliveries' | 'otlpTraces', Handler<E>> = {
    ingestRequests: async (c) => {
      const accountId = c.get('accountId');
      const raw = await c.req.raw.text();
      const key = idempotencyKey(c);
      const items = batchOf(raw, c.req.header('content-type'), 'events');
      return c.json(await acceptRequests(accountId, items, key === undefined ? undefined : { key, fingerprint: fingerprintOf(c, raw) }), 202);
    },
    ingestWebhookDeliveries: async (c) => {
      const accountId = c.get('accountId');
      const { good, rejected } = sortOut(await batch(c, 'deliveries'), deliveryInput);
      const deliveries = upTo(good, rejected, clock() + MAX_CLOCK_SKEW_MS).map((d) => toDelivery(accountId, d));
      await stores.telemetry.appendDeliveries(deliveries);
      return c.json({ accepted: deliveries.length, rejected }, 202);
    },
    otlpTraces: async (c) => {
      const accountId = c.get('accountId');
      const encoding = encodingOf(c.req.header('content-type'));
      if (!encoding) throw new ProblemError(415, 'Unsupported media type', 'Send application/x-protobuf or application/json (OTLP/HTTP).');
      const type = encoding === 'json' ? 'application/json' : 'application/x-protobuf';
      const answer = (status: 200 | 400 | 413, body: Uint8Array | string) =>
        new Response(typeof body === 'string' ? body : new Uint8Array(body), { status, headers: { 'content-type': type } });
      const decoded = decodeExport(new Uint8Array(await c.req.arrayBuffer()), encoding, c.req.header('content-encoding'), maxBodyBytes);
      const read = 'error' in decoded ? decoded : spansToRequests(decoded.request, otlpNames);
      if ('error' in read) return answer(400, encodeStatus(encoding, 3, read.error)); // 3: INVALID_ARGUMENT
      if (read.requests.length > maxBatch)
        return answer(413, encodeStatus(encoding, 8, `Send at most ${maxBatch.toLocaleString('en-US')} server spans per export.`));
      const { rejected } = await acceptRequests(accountId, read.requests);
      const reasons = [...read.rejected, ...rejected.map((r) => `span "${read.names[r.index] ?? ''}": ${inSpanTerms(r.reason)}`)];
      metrics.otlpSpans.inc({ outcome: 'accepted' }, read.requests.length - rejected.length);
      metrics.otlpSpans.inc({ outcome: 'ignored' }, read.ignored);
      metrics.otlpSpans.inc({ outcome: 'rejected' }, reasons.length);
      // A partial success only when spans were refused: ignoring client and internal spans is the normal case, and exporters log every partial success.
      const notes = reasons.length
        ? [
            `${reasons.length} HTTP server span${reasons.length === 1 ? '' : 's'} rejected (${reasons.slice(0, 3).join('; ')}).`,
            read.ignored ? `${read.ignored} span${read.ignored === 1 ? '' : 's'} ignored: not HTTP server spans.` : '',
          ].filter(Boolean)
        : [];
      return answer(200, encodeResponse(encoding, notes.length ? { rejectedSpans: reasons.length, errorMessage: notes.join(' ') } : undefined));
    },
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
