/**
 * What every request of the console server goes through, whichever route it asks: its id and
 * its log line, the problem+json answers to errors and unknown routes, and the refusal of
 * control characters in ids and queries.
 */
import type { Hono } from 'hono';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { ServerMetrics } from './metrics.ts';
import { ProblemError, badRequest, problemResponse } from './problem.ts';
import { isStoreUnavailable } from './store/unavailable.ts';

/** How long a client waits before retrying while the database is away. */
export const RETRY_AFTER_SECONDS = 5;

export function installBasics<E extends { Variables: RequestIdVariables }>(app: Hono<E>, { log, metrics }: { log: Logger; metrics: ServerMetrics }): void {
  app.use('*', metrics.measure);
  // Each request has an id (the caller's X-Request-Id when it is a plain token, else a new UUID),
  // answered in X-Request-Id and on every log line about the request.
  app.use('*', requestId(), async (c, next) => {
    const started = performance.now();
    await next();
    log.info(
      {
        reqId: c.get('requestId'),
        method: c.req.method,
        route: routePath(c),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
  app.onError((error, c) => {
    const reqId = c.get('requestId');
    if (error instanceof ProblemError) return problemResponse(error);
    if (isStoreUnavailable(error)) {
      metrics.storeErrors.inc({ kind: 'unavailable' });
      log.error({ reqId, err: error }, 'database unavailable');
      return problemResponse(
        new ProblemError(503, 'Service unavailable', 'The console’s database cannot be reached right now. Retry shortly.', undefined, {
          'retry-after': String(RETRY_AFTER_SECONDS),
        }),
      );
    }
    metrics.storeErrors.inc({ kind: 'failed' });
    log.error({ reqId, err: error }, 'request failed');
    return problemResponse(new ProblemError(500, 'Internal server error', 'The server could not answer; nothing was changed by this request.'));
  });
  app.notFound((c) => problemResponse(new ProblemError(404, 'Not found', `No route ${c.req.method} ${new URL(c.req.url).pathname}.`)));

  // No id or query text needs a control character, and PostgreSQL cannot store a NUL: refused on every store alike.
  app.use('*', async (c, next) => {
    const { pathname, search } = new URL(c.req.url);
    if (/%[01][0-9a-f]|%7f/i.test(pathname + search)) throw badRequest('Ids and query parameters may not contain control characters.');
    await next();
  });
}
