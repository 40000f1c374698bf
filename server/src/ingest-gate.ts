/**
 * What every ingest and OTLP request passes first: its key's account, that account's rate, a
 * fair share of the upload slots, and its body read at a fair pace. The last free slot is kept
 * for an account reading none, so accounts that trickle bodies cannot take every slot; a body
 * that arrives slower than a minimum rate is cut with a 408, so a slot is never held for nothing.
 */
import type { ReadableStreamReadResult } from 'node:stream/web';
import type { Context } from 'hono';
import type { ServerMetrics } from './metrics.ts';
import { accountWork } from './fair-share.ts';
import { ProblemError } from './problem.ts';

export interface UploadPace {
  /** The average an upload must keep once `graceSeconds` have passed (default 32 KiB/s). */
  minBytesPerSecond?: number;
  /** How long an upload may take before its pace counts (default 5 s). */
  graceSeconds?: number;
}

export const DEFAULT_UPLOAD_PACE = { minBytesPerSecond: 32 * 1024, graceSeconds: 5 } as const;

export interface IngestGateOptions {
  /** The account of the request's ingest key (it throws the 401 when there is none). */
  accountOf: (request: Request) => string;
  /** Throws the 429 when the account is over its rate. */
  rate: (accountId: string) => Promise<void>;
  /** Bodies read at once, at most. */
  maxConcurrent: number;
  /** Bytes of one body, at most. */
  maxBodyBytes: number;
  pace?: UploadPace | undefined;
  metrics: ServerMetrics;
}

type IngestEnv = { Variables: { accountId: string; body: Uint8Array } };

const busy = () =>
  new ProblemError(503, 'Service unavailable', 'The server is reading as many batches as it takes at once. Retry shortly.', undefined, {
    'retry-after': '1',
  });

export function createIngestGate<E extends IngestEnv>({ accountOf, rate, maxConcurrent, maxBodyBytes, pace, metrics }: IngestGateOptions) {
  let reading = 0;
  const readingPerAccount = new Map<string, number>();
  const minBytesPerSecond = pace?.minBytesPerSecond ?? DEFAULT_UPLOAD_PACE.minBytesPerSecond;
  const graceMs = (pace?.graceSeconds ?? DEFAULT_UPLOAD_PACE.graceSeconds) * 1000;
  return async (c: Context<E>, next: () => Promise<void>): Promise<void> => {
    const accountId = accountOf(c.req.raw);
    await rate(accountId);
    const ours = readingPerAccount.get(accountId) ?? 0;
    const free = maxConcurrent - reading;
    if (free <= 0 || (ours > 0 && free <= 1)) throw busy();
    c.set('accountId', accountId);
    reading++;
    readingPerAccount.set(accountId, ours + 1);
    const declared = Number(c.req.header('content-length'));
    const bytes = Number.isSafeInteger(declared) && declared > 0 ? declared : 0;
    metrics.ingestBytesInFlight.inc(bytes);
    try {
      c.set('body', await readUpload(c.req.raw, { maxBytes: maxBodyBytes, minBytesPerSecond, graceMs }));
      await accountWork.run(accountId, next);
    } finally {
      metrics.ingestBytesInFlight.dec(bytes);
      reading--;
      const left = readingPerAccount.get(accountId)! - 1;
      if (left) readingPerAccount.set(accountId, left);
      else readingPerAccount.delete(accountId);
    }
  };
}

const tooLarge = (maxBytes: number) => new ProblemError(413, 'Content too large', `Send at most ${maxBytes.toLocaleString('en-US')} bytes per request.`);

/** The request's body, refused with a 413 past `maxBytes` and cut with a 408 when it arrives slower than the pace. */
export async function readUpload(request: Request, { maxBytes, minBytesPerSecond, graceMs }: { maxBytes: number; minBytesPerSecond: number; graceMs: number }) {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tooSlow = new Promise<never>((_, reject) => {
    const check = () => {
      const seconds = (performance.now() - started) / 1000;
      if (received < minBytesPerSecond * seconds)
        reject(
          new ProblemError(
            408,
            'Request timeout',
            `The body arrived slower than ${minBytesPerSecond.toLocaleString('en-US')} bytes a second; send it again, faster or in smaller batches.`,
          ),
        );
      else timer = setTimeout(check, 250);
    };
    timer = setTimeout(check, graceMs);
  });
  tooSlow.catch(() => {});
  try {
    for (;;) {
      const read: ReadableStreamReadResult<Uint8Array> = await Promise.race([reader.read(), tooSlow]);
      if (read.done) break;
      const value = read.value;
      received += value.length;
      if (received > maxBytes) throw tooLarge(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const body = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}
