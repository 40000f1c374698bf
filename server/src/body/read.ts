/**
 * An ingest or OTLP body read into checked items, with its cost bounded before the work is done:
 * it is unpacked through a limit on output bytes, its nesting and its items (events, spans) are
 * counted before they are decoded, and the first count over its limit ends the read with a 413
 * that names it. This runs in a worker thread (./pool.ts): a big or hostile body holds a worker,
 * never the server's event loop.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import { batchItems, deliveryInput, requestEventInput, sortOut, upTo, type Rejected } from '../ingest.ts';
import { createMasker, type Masker, type MaskOptions } from '@ops-console/contract/masking';
import { keptPayload } from '@ops-console/contract/captured-body';
import { decodeExport, type Encoding } from '../otlp/decode.ts';
import { spansToRequests, type OtlpAttributes } from '../otlp/spans.ts';
import type { MeasuredRequest } from '@ops-console/contract/request-event';

/** An unpacked body is at most this many times its packed size, and never over the body limit. */
export const MAX_INFLATE_RATIO = 100;
/** JSON nesting, at most: an event is 3 levels deep, an OTLP export 7 before its attribute values. */
export const MAX_DEPTH = 32;
/** Rejections an answer lists (with their count), as OpenTelemetry's partial success names a few. */
export const MAX_LISTED_REJECTIONS = 100;

export interface BodyLimits {
  /** Bytes of a body, unpacked. */
  maxBytes: number;
  /** Events of an ingest batch, or HTTP server spans of an export. */
  maxBatch: number;
  /** Spans of an export, of every kind. */
  maxSpans: number;
}

interface Common {
  body: Uint8Array;
  contentEncoding: string | undefined;
  limits: BodyLimits;
  /** Events stamped later than this (epoch ms) are rejected: a clock problem, not traffic. */
  latest: number;
  /** What is masked in each request before it is kept, besides the defaults (`capture.mask`), and how much of a body's text is kept. */
  capture?: CaptureOptions | undefined;
}
export type ReadTask =
  | (Common & {
      kind: 'requests' | 'deliveries';
      contentType: string | undefined;
      /** `METHOD /path` when an Idempotency-Key asks for the body's fingerprint. */ fingerprintOf?: string | undefined;
    })
  | (Common & { kind: 'otlp'; encoding: Encoding; names: OtlpAttributes });

/** Why a body was refused as a whole: nothing of it is kept. */
export interface Refusal {
  refused: 400 | 413;
  message: string;
}

/** What a batch holds: the good items, the count of rejected ones and the first of them. */
export interface Sorted<T> {
  good: T[];
  rejectedCount: number;
  /** The first rejections, by index, at most `MAX_LISTED_REJECTIONS`. */
  rejected: Rejected[];
}

export type BatchRead<T> = Sorted<T> & { fingerprint?: string | undefined };
export type OtlpRead = Sorted<MeasuredRequest> & {
  /** Each rejected request's span name, by its index among the server spans. */
  names: Record<number, string>;
  /** HTTP server spans that could not be read as requests, with the reason (the first of them). */
  unreadable: string[];
  unreadableCount: number;
  /** Spans that are not HTTP server spans. */
  ignored: number;
};

const tooLarge = (message: string): Refusal => ({ refused: 413, message });
const unreadable = (message: string): Refusal => ({ refused: 400, message });
const number = (n: number) => n.toLocaleString('en-US');

export function readBody(task: ReadTask): BatchRead<unknown> | OtlpRead | Refusal {
  const bytes = unpack(task.body, task.contentEncoding, task.limits.maxBytes);
  if ('refused' in bytes) return bytes;
  if (task.kind === 'otlp') return readExport(bytes, task);
  const text = utf8(bytes);
  if (/ndjson|jsonl/i.test(task.contentType ?? '') && countLines(text, task.limits.maxBatch) > task.limits.maxBatch)
    return tooLarge(`Send at most ${number(task.limits.maxBatch)} items per batch; this one has more lines.`);
  const deep = depthOver(text, MAX_DEPTH, { perLine: /ndjson|jsonl/i.test(task.contentType ?? '') });
  if (deep) return tooLarge(deep);
  const items = batchItems(text, task.contentType, task.kind === 'requests' ? 'events' : 'deliveries');
  if (typeof items === 'string') return unreadable(items);
  if (items.length > task.limits.maxBatch)
    return tooLarge(`Send at most ${number(task.limits.maxBatch)} items per batch; this one has ${number(items.length)}.`);
  const schema: z.ZodType<{ ts: number }> = task.kind === 'requests' ? requestEventInput : deliveryInput;
  const fingerprint =
    task.kind === 'requests' && task.fingerprintOf !== undefined
      ? createHash('sha256').update(`${task.fingerprintOf}\n`).update(bytes).digest('hex')
      : undefined;
  const batch = sorted(items, schema, task.latest);
  return { ...(task.kind === 'requests' ? masked(batch as Sorted<z.infer<typeof requestEventInput>>, task.capture) : batch), fingerprint };
}

function readExport(bytes: Uint8Array, task: Extract<ReadTask, { kind: 'otlp' }>): OtlpRead | Refusal {
  if (task.encoding === 'json') {
    const deep = depthOver(utf8(bytes), MAX_DEPTH);
    if (deep) return tooLarge(deep);
  }
  const decoded = decodeExport(bytes, task.encoding, task.limits.maxSpans);
  if ('tooMany' in decoded) return tooLarge(decoded.tooMany);
  if ('error' in decoded) return unreadable(decoded.error);
  const read = spansToRequests(decoded.request, task.names);
  if ('error' in read) return unreadable(read.error);
  if (read.requests.length > task.limits.maxBatch)
    return tooLarge(`Send at most ${number(task.limits.maxBatch)} HTTP server spans per export; this one has ${number(read.requests.length)}.`);
  const batch = masked(sorted(read.requests, requestEventInput, task.latest), task.capture);
  const names = Object.fromEntries(batch.rejected.map((r) => [r.index, read.names[r.index] ?? '']));
  return {
    ...batch,
    names,
    unreadable: read.rejected.slice(0, MAX_LISTED_REJECTIONS),
    unreadableCount: read.rejected.length,
    ignored: read.ignored,
  };
}

/** Checks each item, moves those stamped after `latest` to the rejected, and keeps the first rejections. */
function sorted<T extends { ts: number }>(items: readonly unknown[], schema: z.ZodType<T>, latest: number): Sorted<T> {
  const { good, rejected } = sortOut(items, schema);
  const kept = upTo(good, rejected, latest);
  return { good: kept, rejectedCount: rejected.length, rejected: rejected.slice(0, MAX_LISTED_REJECTIONS) };
}

/** The config's masker, built once per config (a worker reads many bodies of one server's). */
const maskers = new Map<string, Masker>();

/** `capture` of the config: what is masked besides the defaults, and a body's text kept at most (UTF-8 bytes). */
export interface CaptureOptions {
  mask?: MaskOptions | undefined;
  maxBodyBytes?: number | undefined;
}

/** The batch with each good request's credential headers, secret fields (query, bodies), card numbers and the config's patterns masked, and its bodies cut to size. */
function masked(batch: Sorted<z.infer<typeof requestEventInput>>, { mask: options = {}, maxBodyBytes }: CaptureOptions = {}): Sorted<MeasuredRequest> {
  const key = JSON.stringify(options);
  let masker = maskers.get(key);
  if (!masker) maskers.set(key, (masker = createMasker(options)));
  const mask = masker;
  return { ...batch, good: batch.good.map((e) => keptPayload({ ...e, path: mask.path(e.path) }, mask, maxBodyBytes) as MeasuredRequest) };
}

/** The body unpacked (gzip, or as sent), its output bounded while it inflates. */
function unpack(body: Uint8Array, contentEncoding: string | undefined, maxBytes: number): Uint8Array | Refusal {
  const compression = (contentEncoding ?? '').trim().toLowerCase();
  if (!compression || compression === 'identity') return body;
  if (compression !== 'gzip') return unreadable(`Content-Encoding "${compression}" is not supported; send gzip or none.`);
  const limit = Math.min(maxBytes, body.length * MAX_INFLATE_RATIO);
  try {
    return gunzipSync(body, { maxOutputLength: Math.max(1, limit) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return tooLarge(`The body unpacks to more than ${number(limit)} bytes (${MAX_INFLATE_RATIO} times its packed size, ${number(maxBytes)} at most).`);
    return unreadable('The body is not gzip data (Content-Encoding: gzip).');
  }
}

/** UTF-8 bytes as text; an invalid sequence becomes U+FFFD, as every string from outside is cleaned (text.ts). */
const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

/** How many non-empty lines, counting no further than one past `max`. */
function countLines(text: string, max: number): number {
  let lines = 0;
  let start = 0;
  while (start < text.length && lines <= max) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (text.slice(start, end).trim()) lines++;
    start = end + 1;
  }
  return lines;
}

/**
 * Why JSON text nests deeper than `max` (objects and arrays, outside strings), or undefined.
 * `perLine`: NDJSON, where each line starts afresh, so one broken line hides nothing of the next.
 * A string is skipped with indexOf, not character by character: most of a big body is strings.
 */
function depthOver(text: string, max: number, { perLine = false } = {}): string | undefined {
  /** Where the next of each is, at or after where it was last looked for (Infinity: none left): each is searched once per pass. */
  const next = { '"': -1, '\\': -1, '\n': -1 };
  const nextOf = (char: keyof typeof next, from: number) => {
    if (next[char] >= from) return next[char];
    const found = text.indexOf(char, from);
    return (next[char] = found === -1 ? Infinity : found);
  };
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Inside a string: on to its closing quote, past escapes (and, in NDJSON, no further than the line).
      for (let from = i + 1; ;) {
        const backslash = nextOf('\\', from);
        const newline = perLine ? nextOf('\n', from) : Infinity;
        const at = Math.min(nextOf('"', from), backslash, newline);
        if (at === Infinity) return undefined;
        if (at === backslash) from = at + 2;
        else {
          // A line break ends a broken line's string: it is read again as the next line's start.
          i = at === newline ? at - 1 : at;
          break;
        }
      }
    } else if (perLine && c === 10) depth = 0;
    else if (c === 123 || c === 91) {
      if (++depth > max) return `The body nests objects and arrays deeper than ${max} levels.`;
    } else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  return undefined;
}
