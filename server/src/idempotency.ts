/** The Idempotency-Key of a write or an ingest batch, and what makes two requests with one key the same. */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { badRequest } from './problem.ts';

/** The request's Idempotency-Key, when it sent one. */
export function idempotencyKey(c: Context): string | undefined {
  const key = c.req.header('idempotency-key');
  if (key !== undefined && (!key || key.length > 200)) throw badRequest('Idempotency-Key must be 1–200 characters.');
  return key;
}

/** What makes two requests with one Idempotency-Key the same request. */
export const fingerprintOf = (c: Context, raw: string) =>
  createHash('sha256')
    .update(`${c.req.method} ${new URL(c.req.url).pathname}\n${raw}`)
    .digest('hex');
