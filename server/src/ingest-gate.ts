/**
 * What every ingest and OTLP request passes first: its key's account, that account's rate, and a
 * bound on the bodies read at once — for the server, and half of it for any one account, so one
 * tenant's slow uploads leave room for the others.
 */
import type { Context } from 'hono';
import type { ServerMetrics } from './metrics.ts';
import { ProblemError } from './problem.ts';

export interface IngestGateOptions {
  /** The account of the request's ingest key (it throws the 401 when there is none). */
  accountOf: (request: Request) => string;
  /** Throws the 429 when the account is over its rate. */
  rate: (accountId: string) => Promise<void>;
  /** Bodies read at once, at most. */
  maxConcurrent: number;
  metrics: ServerMetrics;
}

type IngestEnv = { Variables: { accountId: string } };

export function createIngestGate<E extends IngestEnv>({ accountOf, rate, maxConcurrent, metrics }: IngestGateOptions) {
  let reading = 0;
  const readingPerAccount = new Map<string, number>();
  return async (c: Context<E>, next: () => Promise<void>): Promise<void> => {
    const accountId = accountOf(c.req.raw);
    await rate(accountId);
    const ours = readingPerAccount.get(accountId) ?? 0;
    if (reading >= maxConcurrent || ours >= Math.max(1, Math.floor(maxConcurrent / 2)))
      throw new ProblemError(503, 'Service unavailable', 'The server is reading as many batches as it takes at once. Retry shortly.', undefined, {
        'retry-after': '1',
      });
    c.set('accountId', accountId);
    reading++;
    readingPerAccount.set(accountId, ours + 1);
    const declared = Number(c.req.header('content-length'));
    const bytes = Number.isSafeInteger(declared) && declared > 0 ? declared : 0;
    metrics.ingestBytesInFlight.inc(bytes);
    try {
      await next();
    } finally {
      metrics.ingestBytesInFlight.dec(bytes);
      reading--;
      const left = readingPerAccount.get(accountId)! - 1;
      if (left) readingPerAccount.set(accountId, left);
      else readingPerAccount.delete(accountId);
    }
  };
}
