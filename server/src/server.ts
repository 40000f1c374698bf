/**
 * The console server as a web-standard fetch handler: the console API (bearer auth, CORS by
 * allowlist), the ingest API and the admin API (ingest keys), every error as problem+json.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type Handler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import { routePath } from 'hono/route';
import { pino, type LevelWithSilent, type Logger } from 'pino';
import { cors } from 'hono/cors';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { bearerToken, createAuthenticator, createKeyAuthenticator, type AuthOptions, type Principal } from './auth.ts';
import { isTimeZone } from './calendar.ts';
import { isCredential } from './credentials.ts';
import type { PreparedWrite, ViewContext } from './context.ts';
import { parseWindow, resolveWindow } from '@ops-console/contract/time-window';
import { ROUTE_GROUPS, ROUTES, type ConsoleRouteName, type Route, type RouteGroup, type RouteName } from '@ops-console/contract/routes';
import { ROUTE_QUERIES } from '@ops-console/contract/route-docs';
import type * as z from 'zod/mini';
import { DEFAULT_THRESHOLDS, type Thresholds } from './figures.ts';
import { activityInput, customerInput, webhookInput } from './ingest.ts';
import { DEFAULT_LIMIT } from './paging.ts';
import { parseQuery } from './query.ts';
import { elementsDir, mountElements, type ElementsOptions } from './elements.ts';
import { createMetrics, type MetricsOptions } from './metrics.ts';
import { ProblemError, badRequest, problemResponse, unprocessable } from './problem.ts';
import { INGEST_LIMITS } from './limits.ts';
import { createRequestIds } from './request-ids.ts';
import { createSpikeWatch } from './spikes.ts';
import { createIngestHandlers } from './ingest-handlers.ts';
import { fingerprintOf, idempotencyKey } from './idempotency.ts';
import { cleanStrings } from './text.ts';
import { DEFAULT_OTLP_ATTRIBUTES, type OtlpAttributes } from './otlp/spans.ts';
import { openStores } from './store/open.ts';
import type { TelemetryConnection } from './store/clickhouse.ts';
import { IDEMPOTENCY_TTL_MS, type Remembered, type Stores } from './store/types.ts';
import { isStoreUnavailable } from './store/unavailable.ts';
import { activity } from './views/activity.ts';
import * as admin from './views/admin.ts';
import type { AdminContext } from './views/admin.ts';
import { addNote, customer, customerList } from './views/customers.ts';
import { endpointDetail, endpoints } from './views/endpoints.ts';
import { createError, errorList, errorOptions, errorRecord, errorView, patchError } from './views/errors.ts';
import { overview } from './views/overview.ts';
import { requestDetail, requestSummary, requests } from './views/requests.ts';
import { traffic } from './views/traffic.ts';
import { webhook, webhookList } from './views/webhooks.ts';

export interface ConsoleServerOptions {
  /** A DuckDB file (`duckdb:./ops-console.duckdb`, the default; a bare path or `':memory:'` too), or stores you opened. */
  store?: string | Stores;
  /** Request telemetry on ClickHouse instead of DuckDB: `clickhouse://host:8123[,host:8123…]/database[?cluster=name&retention_months=N]` (with `records`). */
  telemetry?: string;
  /** Records on PostgreSQL instead of DuckDB: `postgres://user@host:5432/database[?schema=name]` (with `telemetry`). */
  records?: string;
  /** How the ClickHouse client reaches each host of `telemetry`, instead of HTTP: chDB's in-process ClickHouse 26.7 (`() => createChdbConnection({ path })` from `chdb/connection`), for one. */
  telemetryConnection?: TelemetryConnection;
  /** How console requests are authenticated (static tokens, JWT, or your own hook). */
  auth?: AuthOptions;
  /** Ingest keys and the account each writes telemetry to: `{ 'demo-ingest-key': 'acct_demo' }`. */
  ingestKeys?: Record<string, string>;
  /** Admin keys and the account each manages (customers, webhooks, activity): `{ 'demo-admin-key': 'acct_demo' }`. Without them the admin API refuses every request. */
  adminKeys?: Record<string, string>;
  /**
   * Requests per account in a window, counted by each server process: `ingest` (ingest and OTLP;
   * default 1,000 per 10 s) and `console` (the console API; default 300 per 10 s). Beyond it: 429
   * with Retry-After. `false` turns one off.
   */
  rateLimits?: { ingest?: RateLimit | false; console?: RateLimit | false };
  /** Ingest and OTLP requests read at once (default 4): bodies are up to 10 MB each; beyond it 503 with Retry-After. */
  maxConcurrentIngest?: number;
  /** Origins allowed to call the console API from a browser (exact, e.g. `https://portal.example.com`). */
  corsOrigins?: string[];
  /** The account's calendar: months, days and weeks are counted in it (default UTC). */
  timeZone?: string;
  /** When an endpoint is Failing or Slow. */
  thresholds?: Partial<Thresholds>;
  /** The current time (for tests). */
  clock?: () => Date;
  /** Ingest limits: body bytes (default 10 MB) and events per batch (default 10,000). */
  limits?: { maxBodyBytes?: number; maxBatch?: number };
  /** Which OTLP span/resource attributes give the key id, customer, actor and API version (defaults in `DEFAULT_OTLP_ATTRIBUTES`). */
  otlpAttributes?: Partial<OtlpAttributes>;
  /** Who may read `GET /metrics` (Prometheus text): holders of `token`, or anyone with `public: true`. Without either it answers 404. */
  metrics?: MetricsOptions;
  /** Where the server logs, as JSON lines (pino): a logger of yours, or one on stdout at `logLevel`. */
  logger?: Logger;
  /** The level of the server's own logger (default `warn`; `info` adds one line per request). */
  logLevel?: LevelWithSilent;
  /** The elements served at `/elements/ops-console.js` (default: the installed `@ops-console/elements`); `false` serves none. */
  elements?: ElementsOptions | false;
}

export interface RateLimit {
  requests: number;
  perSeconds: number;
}

export const DEFAULT_RATE_LIMITS = { ingest: { requests: 1_000, perSeconds: 10 }, console: { requests: 300, perSeconds: 10 } } as const;

export interface ConsoleServer {
  fetch(request: Request): Promise<Response>;
  /** Resolves when the background work queued so far (error-spike checks after ingest) is done. */
  idle(): Promise<void>;
  close(): Promise<void>;
  stores: Stores;
  /** The routes this server answers, as `GET /console/v1/errors/{id}`: the contract's route table, which a test holds them to. */
  routes: readonly string[];
}

type Env = { Variables: { principal: Principal; accountId: string } & RequestIdVariables };

const WRITE_BODY_BYTES = 64 * 1024;
/** How long a client waits before retrying while the database is away. */
const RETRY_AFTER_SECONDS = 5;

/** Compares a presented secret with the expected one in constant time. */
function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export async function createConsoleServer(options: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  const timeZone = options.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) throw new Error(`Unknown time zone "${timeZone}".`);
  const stores =
    typeof options.store === 'object'
      ? options.store
      : await openStores({ store: options.store, telemetry: options.telemetry, records: options.records, telemetryConnection: options.telemetryConnection });
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const requestIds = createRequestIds(await stores.records.secret('request-ids'));
  const clock = options.clock ?? (() => new Date());
  const maxBodyBytes = options.limits?.maxBodyBytes ?? INGEST_LIMITS.maxBodyBytes;
  const maxBatch = options.limits?.maxBatch ?? INGEST_LIMITS.maxBatch;
  const authenticate = createAuthenticator(options.auth);
  const ingestAccount = createKeyAuthenticator(options.ingestKeys, 'ingestKeys');
  const adminAccount = createKeyAuthenticator(options.adminKeys, 'adminKeys');
  const allowed = new Set(options.corsOrigins ?? []);
  const rateLimited = (limit: RateLimit | false | undefined, fallback: RateLimit, what: string) => {
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
          `This account sent more than ${requests} ${what} requests in ${perSeconds} s. Retry in ${wait} s.`,
          undefined,
          {
            'retry-after': String(wait),
          },
        );
      }
    };
  };
  const ingestRate = rateLimited(options.rateLimits?.ingest, DEFAULT_RATE_LIMITS.ingest, 'ingest');
  const consoleRate = rateLimited(options.rateLimits?.console, DEFAULT_RATE_LIMITS.console, 'console API');
  const maxConcurrentIngest = options.maxConcurrentIngest ?? 4;
  let ingesting = 0;
  const ingestingPerAccount = new Map<string, number>();

  const app = new Hono<Env>();
  /** Each group of the route table is a sub-app with its own middleware, mounted at the group's base. */
  const groups = Object.fromEntries(Object.keys(ROUTE_GROUPS).map((group) => [group, new Hono<Env>()])) as Record<RouteGroup, Hono<Env>>;
  const log = options.logger ?? pino({ level: options.logLevel ?? 'warn', base: { service: 'ops-console' } });
  const metrics = createMetrics();
  if (options.metrics?.token !== undefined && !isCredential(options.metrics.token))
    throw new Error('metrics.token is empty or "undefined": is its environment variable unset?');
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
  const spikes = createSpikeWatch(
    stores,
    () => clock().getTime(),
    (error) => log.error({ err: error }, 'spike check failed'),
  );
  const forgetOldKeys = () =>
    stores.records
      .forgetBefore(clock().getTime() - IDEMPOTENCY_TTL_MS)
      .catch((error: unknown) => log.error({ err: error }, 'forgetting old idempotency keys failed'));
  void forgetOldKeys();
  const keyTimer = setInterval(() => void forgetOldKeys(), 3_600_000);
  keyTimer.unref();
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

  /** Operations' answers are about this moment: never cached. */
  const unstored = { 'cache-control': 'no-store' };

  const tooLarge = (limit: number) => () =>
    problemResponse(new ProblemError(413, 'Content too large', `Send at most ${limit.toLocaleString('en-US')} bytes per request.`));

  // ---- console API ----
  groups.console.use(
    '*',
    cors({
      origin: (origin) => (allowed.has(origin) ? origin : null),
      allowMethods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'Accept'],
      exposeHeaders: ['Retry-After'],
      maxAge: 600,
    }),
  );
  // A write under cookie auth must be one a page of an allowed origin sent: a form or a
  // text/plain fetch from another site can carry the cookie but neither JSON nor the right Origin.
  groups.console.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS') {
      if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(c.req.header('content-type') ?? ''))
        throw new ProblemError(415, 'Unsupported media type', 'Send the body as application/json.');
      // A bearer token is no ambient credential: only a cookie-borne write needs its origin checked.
      // The host is compared, not the scheme: behind a TLS-terminating proxy the server sees http.
      const origin = c.req.header('origin');
      const sameHost = origin !== undefined && URL.canParse(origin) && new URL(origin).host === (c.req.header('host') ?? new URL(c.req.url).host);
      if (c.req.header('cookie') !== undefined && !bearerToken(c.req.raw) && !sameHost && !(origin !== undefined && allowed.has(origin)))
        throw new ProblemError(403, 'Forbidden', 'A write with cookies must come from an allowed origin (corsOrigins).');
    }
    await next();
  });
  groups.console.use('*', async (c, next) => {
    const principal = await authenticate(c.req.raw);
    await consoleRate(principal.accountId);
    c.set('principal', principal);
    await next();
  });
  groups.console.use('*', bodyLimit({ maxSize: WRITE_BODY_BYTES, onError: tooLarge(WRITE_BODY_BYTES) }));

  const view = (c: Context<Env>): ViewContext => {
    const principal = c.get('principal');
    return { stores, principal, accountId: principal.accountId, timeZone, thresholds, now: clock().getTime(), requestIds };
  };
  /** The view with the time range the query asks for (`range`, or `from`–`to`); a query that names none keeps each route's default. */
  const inWindow = (c: Context<Env>, query: WindowQuery, { boundsAreFilters = false } = {}): ViewContext => {
    const ctx = view(c);
    const asked = parseWindow({ range: query.range, ...(boundsAreFilters ? {} : { from: query.from, to: query.to }) });
    if (typeof asked === 'string') throw badRequest(asked, [{ field: query.from || query.to ? 'from' : 'range', message: asked }]);
    return asked ? { ...ctx, window: resolveWindow(asked, ctx.now, ctx.timeZone) } : ctx;
  };

  /**
   * A write and everything it records (history, activity, the Idempotency-Key's answer) land in
   * one transaction or not at all; what it reads is read before. Same key and same request → the
   * first answer again; same key, other request → 422; concurrent repeats queue behind the first.
   */
  async function idempotent(c: Context<Env>, prepare: (ctx: ViewContext, body: unknown) => Promise<PreparedWrite<unknown>>): Promise<Response> {
    const raw = await c.req.raw.text();
    const body = parseJson(raw);
    const key = idempotencyKey(c);
    const ctx = view(c);
    const fingerprint = fingerprintOf(c, raw);
    const repeat = (seen: Remembered) => {
      if (seen.fingerprint !== fingerprint) throw unprocessable('This Idempotency-Key was already used for a different request; send a new key for a new one.');
      return Response.json(seen.body, { status: seen.status });
    };
    // Console writes and ingest batches keep their keys apart: `console …` and `ingest …`.
    const stored = key === undefined ? undefined : `console ${key}`;
    const earlier = stored === undefined ? undefined : await stores.records.remembered(ctx.accountId, stored);
    if (earlier) return repeat(earlier);
    const prepared = await prepare(ctx, body);
    return stores.records.atomically(async (records) => {
      const seen = stored === undefined ? undefined : await records.remembered(ctx.accountId, stored);
      if (seen) return repeat(seen);
      await prepared.write({ ...ctx, stores: { ...stores, records } });
      if (stored !== undefined) await records.remember(ctx.accountId, stored, { fingerprint, status: 201, body: prepared.answer, at: ctx.now });
      return Response.json(prepared.answer, { status: 201 });
    });
  }

  // ---- ingest and admin ----
  /** Ingest and OTLP: the key's account, its rate, and a bound on the bodies read at once. */
  const ingestGate = async (c: Context<Env>, next: () => Promise<void>) => {
    const accountId = ingestAccount(c.req.raw);
    await ingestRate(accountId);
    // A bound for the server, and half of it for any one account: one tenant's slow uploads leave room for the others.
    const ours = ingestingPerAccount.get(accountId) ?? 0;
    if (ingesting >= maxConcurrentIngest || ours >= Math.max(1, Math.floor(maxConcurrentIngest / 2)))
      throw new ProblemError(503, 'Service unavailable', 'The server is reading as many batches as it takes at once. Retry shortly.', undefined, {
        'retry-after': '1',
      });
    c.set('accountId', accountId);
    ingesting++;
    ingestingPerAccount.set(accountId, ours + 1);
    const declared = Number(c.req.header('content-length'));
    const bytes = Number.isSafeInteger(declared) && declared > 0 ? declared : 0;
    metrics.ingestBytesInFlight.inc(bytes);
    try {
      await next();
    } finally {
      metrics.ingestBytesInFlight.dec(bytes);
      ingesting--;
      const left = ingestingPerAccount.get(accountId)! - 1;
      if (left) ingestingPerAccount.set(accountId, left);
      else ingestingPerAccount.delete(accountId);
    }
  };
  groups.ingest.use('*', ingestGate, bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge(maxBodyBytes) }));
  groups.admin.use(
    '*',
    async (c, next) => {
      c.set('accountId', adminAccount(c.req.raw));
      await next();
    },
    bodyLimit({ maxSize: WRITE_BODY_BYTES, onError: tooLarge(WRITE_BODY_BYTES) }),
  );

  // ---- OpenTelemetry: OTLP/HTTP traces, HTTP server spans become requests ----
  groups.otlp.use('*', ingestGate, bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge(maxBodyBytes) }));

  const adminContext = (c: Context<Env>): AdminContext => ({ stores, accountId: c.get('accountId'), timeZone, now: clock().getTime() });
  /** The `{id}` of the route's path (every handler that reads it has one). */
  const idParam = (c: Context<Env>): string => c.req.param('id') ?? '';
  /** What answers each console route: the request's context and its query, parsed with the route's schema in the contract. */
  const consoleHandlers: { [N in ConsoleRouteName]: (c: Context<Env>, query: ConsoleQuery<N>) => Promise<Response> } = {
    overview: async (c, query) => c.json(await overview(inWindow(c, query))),
    endpoints: async (c, { status, q, sort, limit = DEFAULT_LIMIT, cursor, ...window }) =>
      c.json(await endpoints(inWindow(c, window), { status, q, sort, limit, cursor })),
    endpoint: async (c, query) => c.json(await endpointDetail(inWindow(c, query), idParam(c))),
    // `from` and `to` bound the log one by one, so they are read as filters, not as a window.
    requests: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await requests(inWindow(c, query, { boundsAreFilters: true }), { ...query, limit })),
    requestSummary: async (c, { endpointId, customerId, ...window }) => c.json(await requestSummary(inWindow(c, window), { endpointId, customerId })),
    request: async (c) => c.json(await requestDetail(view(c), idParam(c))),
    traffic: async (c, { range, from, to, customerId }) => {
      // The calendar-month ranges (12m, the default, and 6m, 3m, 1m) keep their meaning; the rest are windows.
      const months = !from && !to && (range === undefined || MONTHLY_RANGES.includes(range));
      return c.json(await traffic(months ? view(c) : inWindow(c, { range, from, to }), range, { customerId }));
    },
    customers: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await customerList(view(c), { ...query, limit })),
    customer: async (c) => c.json(await customer(view(c), idParam(c))),
    addNote: async (c) => idempotent(c, (ctx, body) => addNote(ctx, idParam(c), body)),
    webhooks: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await webhookList(view(c), { ...query, limit })),
    webhook: async (c, query) => c.json(await webhook(inWindow(c, query), idParam(c))),
    errors: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await errorList(view(c), { ...query, limit })),
    createError: async (c) => idempotent(c, (ctx, body) => createError(ctx, body)),
    errorOptions: async (c) => c.json(await errorOptions(view(c))),
    error: async (c, query) => c.json(await errorRecord(inWindow(c, query), idParam(c))),
    updateError: async (c) => {
      const body = await jsonBody(c.req.raw);
      const ctx = view(c);
      // The change and its activity item land together; the figures are read after, outside the writer.
      const record = await stores.records.atomically((records) =>
        patchError({ ...ctx, stores: { ...stores, records } }, idParam(c), body, c.req.header('if-match')),
      );
      return c.json(await errorView(ctx, record));
    },
    activity: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await activity(view(c), { ...query, limit })),
  };
  /** What answers the other routes of the table (the elements' files are mounted apart). */
  const handlers: { [N in Exclude<RouteName, ConsoleRouteName | 'elements'>]: Handler<Env> } = {
    ...createIngestHandlers({
      stores,
      clock: () => clock().getTime(),
      metrics,
      spikes,
      maxBatch,
      maxBodyBytes,
      otlpNames: { ...DEFAULT_OTLP_ATTRIBUTES, ...options.otlpAttributes },
    }),
    putCustomer: async (c) => {
      const { record, created } = await admin.putCustomer(adminContext(c), idParam(c), validate(customerInput, await jsonBody(c.req.raw)));
      return c.json(record, created ? 201 : 200);
    },
    putWebhook: async (c) => {
      const { record, created } = await admin.putWebhook(adminContext(c), idParam(c), validate(webhookInput, await jsonBody(c.req.raw)));
      return c.json(record, created ? 201 : 200);
    },
    addActivity: async (c) => c.json(await admin.addActivity(adminContext(c), validate(activityInput, await jsonBody(c.req.raw))), 201),
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
      const { token, public: open = false } = options.metrics ?? {};
      if (!open && token === undefined)
        throw new ProblemError(404, 'Not found', 'Metrics are off: set metrics.token (or metrics.public inside a private network).');
      if (!open && !sameSecret(bearerToken(c.req.raw), token!))
        throw new ProblemError(401, 'Unauthorized', 'Send the metrics token as a bearer token.', undefined, { 'www-authenticate': 'Bearer' });
      return metrics.print(c);
    },
  };
  // Registered in the table's order, after every middleware: a fixed path comes before a
  // parameter's (/errors/options before /errors/{id}). Each group's sub-app is then mounted at its base.
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, Route][]) {
    const group = groups[route.group];
    const path = route.path.replace(/\{(\w+)\}/g, ':$1');
    if (name === 'elements') mountElements(group, elementsDir(options.elements));
    else if (name in consoleHandlers) {
      const handler = consoleHandlers[name as ConsoleRouteName] as (c: Context<Env>, query: unknown) => Promise<Response>;
      const schema = ROUTE_QUERIES[name as ConsoleRouteName];
      group.on(route.method, path, (c) => handler(c, parseQuery(schema, c.req.url)));
    } else group.on(route.method, path, handlers[name as keyof typeof handlers]);
  }
  for (const [group, { base }] of Object.entries(ROUTE_GROUPS) as [RouteGroup, { base: string }][]) app.route(base || '/', groups[group]);

  return {
    stores,
    routes: [...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`))],
    fetch: async (request) => app.fetch(request),
    idle: () => spikes.idle(),
    async close() {
      clearInterval(keyTimer);
      await spikes.close();
      await stores.close();
    },
  };
}

type ConsoleQuery<N extends ConsoleRouteName> = z.infer<(typeof ROUTE_QUERIES)[N]>;
type WindowQuery = { range?: string | undefined; from?: string | undefined; to?: string | undefined };
/** The ranges of GET /traffic that count calendar months rather than a window. */
const MONTHLY_RANGES: readonly (string | undefined)[] = ['1m', '3m', '6m', '12m'];

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw, cleanStrings);
  } catch {
    throw badRequest('The body is not JSON.');
  }
}

async function jsonBody(request: Request): Promise<unknown> {
  return parseJson(await request.text());
}

function validate<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw unprocessable(
    'Some fields were not accepted.',
    result.error.issues.map((i) => ({ field: i.path.map(String).join('.') || 'body', message: i.message })),
  );
}
