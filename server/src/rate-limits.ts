/** Requests per account and period, per API: over it, a 429 that says when to retry. */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ProblemError } from './problem.ts';

export interface RateLimit {
  requests: number;
  perSeconds: number;
}

export const DEFAULT_RATE_LIMITS = {
  ingest: { requests: 1_000, perSeconds: 10 },
  /** The console API, per account: operators' tokens, customer tokens and embed sessions alike. */
  console: { requests: 300, perSeconds: 10 },
  /** One customer's console, within its account's budget. */
  customer: { requests: 100, perSeconds: 10 },
  admin: { requests: 300, perSeconds: 10 },
  /** Embed sessions minted per account. */
  embedSessions: { requests: 60, perSeconds: 60 },
  /** Test notifications sent per account. */
  channelTests: { requests: 5, perSeconds: 60 },
} as const;

/** A check to await per request of an account: it throws the 429 when the account is over `limit` (`false`: no limit). */
export function rateLimited(
  limit: RateLimit | false | undefined,
  fallback: RateLimit,
  what: string,
  who = 'This account',
): (accountId: string) => Promise<void> {
  if (limit === false) return () => Promise.resolve();
  const { requests, perSeconds } = limit ?? fallback;
  const limiter = new RateLimiterMemory({ points: requests, duration: perSeconds });
  return async (accountId: string) => {
    try {
      await limiter.consume(accountId);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const wait = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      throw new ProblemError(
        429,
        'Too many requests',
        `${who} sent more than ${requests} ${what} requests in ${perSeconds} s. Retry in ${wait} s.`,
        undefined,
        {
          'retry-after': String(wait),
        },
      );
    }
  };
}
