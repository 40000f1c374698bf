/**
 * Failed authentication, throttled: each 401 counts against the client's address and against
 * the first characters of the credential it presented. Past either budget, the client's requests
 * are a 429 with Retry-After before any credential is checked, so tokens and keys cannot be
 * guessed at the server's speed.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ProblemError } from './problem.ts';
import type { RateLimit } from './rate-limits.ts';

export interface AuthFailureLimits {
  /** Failed requests from one address (the connection's; a proxy's when behind one). Default 60 a minute. */
  perAddress?: RateLimit | false;
  /** Failed requests whose credential starts with the same 8 characters (a JWT: its signature). Default 20 a minute. */
  perCredential?: RateLimit | false;
}

export const DEFAULT_AUTH_FAILURES = { perAddress: { requests: 60, perSeconds: 60 }, perCredential: { requests: 20, perSeconds: 60 } } as const;

/** Characters of a presented credential that name its lane: enough to tell one key from another, too few to be one. */
const PREFIX_LENGTH = 8;

/**
 * A credential's lane: its first characters, or for a JWT (whose header, `eyJhbGci…`, every JWT
 * shares) the first characters of its signature, so one client's bad tokens never hold another's.
 */
export function laneOf(credential: string): string {
  const parts = credential.split('.');
  return (parts.length === 3 ? parts[2]! : credential).slice(0, PREFIX_LENGTH);
}

/** What the server's fetch is told about the connection a request came on. */
export interface ConnectionInfo {
  remoteAddress?: string | undefined;
}

export function throttleAuthFailures(limits: AuthFailureLimits | false | undefined): MiddlewareHandler<{ Bindings: ConnectionInfo }> {
  const limiter = (limit: RateLimit | false | undefined, fallback: RateLimit) =>
    limit === false
      ? undefined
      : { limit: limit ?? fallback, store: new RateLimiterMemory({ points: (limit ?? fallback).requests, duration: (limit ?? fallback).perSeconds }) };
  const byAddress = limits === false ? undefined : limiter(limits?.perAddress, DEFAULT_AUTH_FAILURES.perAddress);
  const byCredential = limits === false ? undefined : limiter(limits?.perCredential, DEFAULT_AUTH_FAILURES.perCredential);
  const lanesOf = (c: Context<{ Bindings: ConnectionInfo }>) => {
    const address = c.env.remoteAddress;
    const credential = (c.req.header('authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
    return [
      ...(byAddress && address ? [{ lane: byAddress, key: address, what: 'from this address' }] : []),
      ...(byCredential && credential ? [{ lane: byCredential, key: laneOf(credential), what: 'with a credential like this one' }] : []),
    ];
  };
  return async (c, next) => {
    const lanes = lanesOf(c);
    for (const { lane, key, what } of lanes) {
      const seen = await lane.store.get(key);
      if (seen && seen.consumedPoints >= lane.limit.requests) {
        const wait = Math.max(1, Math.ceil(seen.msBeforeNext / 1000));
        throw new ProblemError(
          429,
          'Too many requests',
          `More than ${lane.limit.requests} requests ${what} failed authentication in ${lane.limit.perSeconds} s. Retry in ${wait} s.`,
          undefined,
          { 'retry-after': String(wait) },
        );
      }
    }
    await next();
    if (c.res.status === 401) await Promise.all(lanes.map(({ lane, key }) => lane.store.penalty(key, 1)));
  };
}
