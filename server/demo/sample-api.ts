/**
 * The demo's API: the seed's routes under /v2 and /v3, served for real by Hono and measured by
 * the collector (`collectHono`), which sends what it measured to the console server's ingest
 * API. Each route takes about as long as its model says, fails at its model's rate, and POST
 * /webhooks fails at a rate you can set (`webhookFailureRate`, or for a while with `spike`).
 * Each customer is held to its rate limit: beyond it, a 429 with Retry-After.
 */
import { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectHono, type Collector } from '../src/collect.ts';
import { CUSTOMERS, ROUTES, durationOf, random, type RouteModel } from './traffic.ts';

export interface SampleApi {
  app: Hono;
  /** The share of POST /webhooks calls that answer 500 (default 0.06). */
  webhookFailureRate: number;
}

/** Which customer a key belongs to: the API's own key table. */
const OWNERS = new Map(CUSTOMERS.flatMap((c) => c.keys.map((key) => [key, c] as const)));

export function createSampleApi(collector: Collector, { webhookFailureRate = 0.06 } = {}): SampleApi {
  const rand = random(Date.now());
  const api: SampleApi = { app: new Hono(), webhookFailureRate };
  const { app } = api;
  // Each customer held to its limit, per minute, as the console shows it.
  const limiters = new Map(CUSTOMERS.map((c) => [c.id, new RateLimiterMemory({ points: c.requestsPerMinute, duration: 60 })]));
  const keyOf = (authorization: string | undefined) => /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  app.use(
    collectHono(collector, {
      apiVersion: { pathPrefix: true },
      headers: ['user-agent'],
      // Both sides' headers and bodies, masked before they leave the API (the key, client secrets, tokens):
      // every error and slow request keeps them, and a fifth of the rest.
      capture: { headers: ['user-agent', 'authorization', 'content-type', 'retry-after'], bodies: true },
      sample: { rate: 0.2, always: { status: '4xx', slowerThanMs: 1000 } },
      identify: (c) => {
        const key = keyOf(c.req.header('authorization'));
        const owner = key ? OWNERS.get(key) : undefined;
        return owner ? { keyId: key, customerId: owner.id, actor: { id: owner.id, name: owner.name } } : undefined;
      },
    }),
  );
  // Every route wants a known key, as a real API would.
  app.use('/:version{v[23]}/*', async (c, next) => {
    const key = keyOf(c.req.header('authorization'));
    if (!key || !OWNERS.has(key)) return c.json({ error: 'unknown API key' }, 401);
    const owner = OWNERS.get(key)!;
    try {
      await limiters.get(owner.id)!.consume(owner.id);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      c.header('retry-after', String(Math.ceil(refused.msBeforeNext / 1000)));
      return c.json({ error: 'rate limit exceeded' }, 429);
    }
    await next();
  });

  /** Serves one modelled route: waits its usual time, then answers its status (or a failure at its rate). */
  const serveRoute = (model: RouteModel, answer: () => unknown) => async (c: import('hono').Context) => {
    // The request body read as an API reads it (the collector captures what the app read).
    if (c.req.header('content-type')?.startsWith('application/json')) await c.req.json().catch(() => undefined);
    const failureRate = model.route === '/webhooks' && model.method === 'POST' ? api.webhookFailureRate : model.errorRate;
    const failed = rand() < failureRate;
    await sleep(durationOf(model, rand, failed));
    if (failed) return c.json({ error: 'upstream failed' }, 500);
    if (model.okStatus === 204) return c.body(null, 204);
    return c.json(answer(), model.okStatus as 200 | 201);
  };
  const bodies: Record<string, () => unknown> = {
    'POST /messages': () => ({ id: `msg_${Math.floor(rand() * 1e9)}`, status: 'queued' }),
    'GET /contacts': () => ({ items: Array.from({ length: 20 }, (_, i) => ({ id: `c_${i}`, name: `Contact ${i}` })) }),
    'DELETE /contacts': () => null,
    'POST /webhooks': () => ({ delivered: true }),
    'POST /auth/token': () => ({ access_token: 'x'.repeat(40), expires_in: 3600 }),
    'GET /usage': () => ({ requests: Math.floor(rand() * 1e6), period: 'month' }),
  };
  for (const version of ['v2', 'v3']) {
    for (const [label, body] of Object.entries(bodies)) {
      const [method, route] = label.split(' ') as [string, string];
      // A version serves a route the way that version's model does (v3 where it has its own row, v2 otherwise).
      const model =
        ROUTES.find((r) => r.method === method && r.route === route && r.apiVersion === version) ??
        ROUTES.find((r) => r.method === method && r.route === route)!;
      app.on(method, `/${version}${route}`, serveRoute(model, body));
    }
  }
  return api;
}
