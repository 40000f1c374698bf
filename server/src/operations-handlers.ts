/** What answers load balancers, orchestrators and Prometheus: health, readiness and metrics. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Handler } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';
import type { Logger } from 'pino';
import { RETRY_AFTER_SECONDS } from './app-basics.ts';
import { bearerToken } from './auth.ts';
import type { MetricsOptions, ServerMetrics } from './metrics.ts';
import { ProblemError, problemResponse } from './problem.ts';
import type { Stores } from './store/types.ts';

/** Operations' answers are about this moment: never cached. */
const unstored = { 'cache-control': 'no-store' };

/** Compares a presented secret with the expected one in constant time. */
function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function createOperationsHandlers<E extends { Variables: RequestIdVariables }>({
  stores,
  log,
  metrics,
  options,
}: {
  stores: Stores;
  log: Logger;
  metrics: ServerMetrics;
  options: MetricsOptions | undefined;
}): Record<'health' | 'ready' | 'metrics', Handler<E>> {
  return {
    // For load balancers and orchestrators: no credentials, no rate limit, nothing about any account.
    health: (c) => c.json({ status: 'ok' }, 200, unstored),
    ready: async (c) => {
      try {
        await stores.ping();
        return c.json({ status: 'ready' }, 200, unstored);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log.warn({ reqId: c.get('requestId'), reason }, 'not ready');
        // Which database, not its address or error: the route answers anyone who asks.
        const which = /^(DuckDB|ClickHouse|PostgreSQL) does not answer/.exec(reason)?.[0] ?? 'A database does not answer';
        return problemResponse(
          new ProblemError(503, 'Service unavailable', `Not ready: ${which}.`, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS), ...unstored }),
        );
      }
    },
    metrics: (c) => {
      const { token, public: open = false } = options ?? {};
      if (!open && token === undefined)
        throw new ProblemError(404, 'Not found', 'Metrics are off: set metrics.token (or metrics.public inside a private network).');
      if (!open && !sameSecret(bearerToken(c.req.raw), token!))
        throw new ProblemError(401, 'Unauthorized', 'Send the metrics token as a bearer token.', undefined, { 'www-authenticate': 'Bearer' });
      return metrics.print(c);
    },
  };
}
