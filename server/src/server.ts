/**
 * The console server as a web-standard fetch handler: the console API (bearer auth, CORS by
 * allowlist), the ingest API and the admin API (ingest keys), every error as problem+json.
 */
import { Hono, type Context, type Handler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { RequestIdVariables } from 'hono/request-id';
import { pino } from 'pino';
import { cors } from 'hono/cors';
import { bearerToken, createAuthenticator, createKeyAuthenticator, withoutCookies, type Principal } from './auth.ts';
import { refusal } from '@ops-console/contract/access';
import { createEmbedSessions } from './embed-sessions.ts';
import { sessionCheck } from './views/admin.ts';
import { createAlerting } from './alerts/evaluator.ts';
import { createNotifier } from './alerts/notify.ts';
import { isTimeZone } from './calendar.ts';
import { isCredential } from '@ops-console/contract/credentials';
import { sharedSecrets } from './secrets.ts';
import { ROUTE_GROUPS, ROUTES, type ConsoleRouteName, type Route, type RouteGroup, type RouteName } from '@ops-console/contract/routes';
import { ROUTE_QUERIES } from '@ops-console/contract/route-docs';
import { DEFAULT_THRESHOLDS } from './figures.ts';
import { parseQuery } from './query.ts';
import { elementsDir, mountElements } from './elements.ts';
import { createMetrics } from './metrics.ts';
import { ProblemError, problemResponse } from './problem.ts';
import { installBasics } from './app-basics.ts';
import { INGEST_LIMITS } from './limits.ts';
import { createRequestIds } from './request-ids.ts';
import { createSpikeWatch } from './spikes.ts';
import { createIngestHandlers } from './ingest-handlers.ts';
import { createOperationsHandlers } from './operations-handlers.ts';
import { createAdminHandlers } from './admin-handlers.ts';
import { createBodyReader } from './body/pool.ts';
import { DAY_MS, DEFAULT_PAYLOAD_DAYS } from './context.ts';
import { QUERY_SHARE, accountWork, createFairShare, fairTelemetry } from './fair-share.ts';
import { throttleAuthFailures, type ConnectionInfo } from './auth-failures.ts';
import { createConsoleHandlers } from './console-handlers.ts';
import { createIngestGate } from './ingest-gate.ts';
import { DEFAULT_RATE_LIMITS, rateLimited, type RateLimit } from './rate-limits.ts';
import { DEFAULT_OTLP_ATTRIBUTES } from './otlp/spans.ts';
import { openStores } from './store/open.ts';
import { IDEMPOTENCY_TTL_MS } from './store/types.ts';

export { DEFAULT_RATE_LIMITS, type RateLimit };
export type { ConsoleServer, ConsoleServerOptions } from './server-options.ts';
import type { ConsoleServer, ConsoleServerOptions } from './server-options.ts';

type Env = { Variables: { principal: Principal; accountId: string; body: Uint8Array } & RequestIdVariables; Bindings: ConnectionInfo };

const WRITE_BODY_BYTES = 64 * 1024;

/** Who an admin key's writes are by, where a write names no one. */
const ADMIN_KEY_USER = { id: 'admin-key', name: 'Admin API' };

export async function createConsoleServer(options: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  const shared = sharedSecrets(options);
  if (shared.length) throw new Error(`${shared.join('; ')}.`);
  const timeZone = options.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) throw new Error(`Unknown time zone "${timeZone}".`);
  const stores =
    typeof options.store === 'object'
      ? options.store
      : await openStores({ store: options.store, telemetry: options.telemetry, records: options.records, telemetryConnection: options.telemetryConnection });
  /** The stores as tenants' work reads them: each telemetry read admitted by its account's share of the database. */
  const fair = { ...stores, telemetry: fairTelemetry(stores.telemetry, createFairShare(QUERY_SHARE)) };
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const requestIds = createRequestIds(await stores.records.secret('request-ids'));
  const clock = options.clock ?? (() => new Date());
  const maxBodyBytes = options.limits?.maxBodyBytes ?? INGEST_LIMITS.maxBodyBytes;
  const maxBatch = options.limits?.maxBatch ?? INGEST_LIMITS.maxBatch;
  const bodies = createBodyReader();
  const embedSessions = createEmbedSessions(
    options.embedSessionKeys?.length ? options.embedSessionKeys : [{ id: 'stored' }],
    await stores.records.secret('embed-sessions'),
    () => clock().getTime(),
    sessionCheck(stores),
  );
  const authenticate = createAuthenticator(options.auth, { embedSessions, now: () => clock().getTime() });
  const ingestAccount = createKeyAuthenticator(options.ingestKeys, 'ingestKeys');
  const adminAccount = createKeyAuthenticator(options.adminKeys, 'adminKeys');
  /**
   * An admin key speaks for its account with the admin role; any other bearer token is an
   * operator's or a customer's, checked per route. Bearer only: a cookie a host's `authenticate`
   * reads would let another site's form write here (the admin API has no CORS or origin check).
   */
  const adminPrincipal = async (request: Request): Promise<Principal> => {
    const token = bearerToken(request);
    const isAdminKey = token !== undefined && Object.hasOwn(options.adminKeys ?? {}, token);
    const operator = isAdminKey || token === undefined ? undefined : await authenticate(withoutCookies(request)).catch(() => undefined);
    // Without a token this console knows, the refusal is the admin API's own (send an admin key).
    return operator ?? { accountId: adminAccount(request), user: ADMIN_KEY_USER, role: 'admin' };
  };
  const allowed = new Set(options.corsOrigins ?? []);
  const ingestRate = rateLimited(options.rateLimits?.ingest, DEFAULT_RATE_LIMITS.ingest, 'ingest');
  const consoleRate = rateLimited(options.rateLimits?.console, DEFAULT_RATE_LIMITS.console, 'console API');
  const customerRate = rateLimited(options.rateLimits?.customer, DEFAULT_RATE_LIMITS.customer, 'console API', 'This customer’s console');
  const adminRate = rateLimited(options.rateLimits?.admin, DEFAULT_RATE_LIMITS.admin, 'admin API');
  const mintRate = rateLimited(options.rateLimits?.embedSessions, DEFAULT_RATE_LIMITS.embedSessions, 'embed session');
  const admitRead = createFairShare(options.fairShare);

  const app = new Hono<Env>();
  /** Each group of the route table is a sub-app with its own middleware, mounted at the group's base. */
  const groups = Object.fromEntries(Object.keys(ROUTE_GROUPS).map((group) => [group, new Hono<Env>()])) as Record<RouteGroup, Hono<Env>>;
  const log = options.logger ?? pino({ level: options.logLevel ?? 'warn', base: { service: 'ops-console' } });
  const metrics = createMetrics();
  if (options.metrics?.token !== undefined && !isCredential(options.metrics.token))
    throw new Error('metrics.token is empty or "undefined": is its environment variable unset?');
  installBasics(app, { log, metrics });
  const spikes = createSpikeWatch(
    fair,
    () => clock().getTime(),
    (error) => log.error({ err: error }, 'spike check failed'),
  );
  const forgetOldKeys = () =>
    stores.records
      .forgetBefore(clock().getTime() - IDEMPOTENCY_TTL_MS)
      .catch((error: unknown) => log.error({ err: error }, 'forgetting old idempotency keys failed'));
  const payloadDays = options.retention?.payloadDays ?? DEFAULT_PAYLOAD_DAYS;
  // Headers and bodies past their retention are removed hourly; reads hide them from the moment they pass it.
  const expirePayloads = () =>
    stores.telemetry
      .expirePayloads(clock().getTime() - payloadDays * DAY_MS)
      .catch((error: unknown) => log.error({ err: error }, 'removing expired payloads failed'));
  /** The hourly chores under way: a close waits for them, so none meets a closed store. */
  let chores: Promise<unknown> = Promise.resolve();
  const hourly = () => void (chores = Promise.all([forgetOldKeys(), expirePayloads()]));
  hourly();
  const keyTimer = setInterval(hourly, 3_600_000);
  keyTimer.unref();

  const tooLarge = (limit: number) => () =>
    problemResponse(new ProblemError(413, 'Content too large', `Send at most ${limit.toLocaleString('en-US')} bytes per request.`));

  // Every group that takes credentials counts its failed ones; health and readiness take none.
  const authFailures = throttleAuthFailures(options.authFailures);
  for (const group of ['ingest', 'otlp', 'admin'] as const) groups[group].use('*', authFailures);

  // ---- console API ----
  groups.console.use(
    '*',
    cors({
      origin: (origin) => (allowed.has(origin) ? origin : null),
      allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'Accept'],
      exposeHeaders: ['Retry-After'],
      maxAge: 600,
    }),
    // After CORS: a page of an allowed origin can read its 429.
    authFailures,
  );
  // A write under cookie auth must be one a page of an allowed origin sent: a form or a
  // text/plain fetch from another site can carry the cookie but neither JSON nor the right Origin.
  groups.console.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS') {
      // A DELETE carries no body to type; it is still a write whose origin counts below.
      if (c.req.method !== 'DELETE' && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(c.req.header('content-type') ?? ''))
        throw new ProblemError(415, 'Unsupported media type', 'Send the body as application/json.');
      // A bearer token is no ambient credential: only a cookie-borne write needs its origin checked.
      // With an Authorization header, cookies are never read (auth.ts, credentialsOnly).
      // The host is compared, not the scheme: behind a TLS-terminating proxy the server sees http.
      const origin = c.req.header('origin');
      const sameHost = origin !== undefined && URL.canParse(origin) && new URL(origin).host === (c.req.header('host') ?? new URL(c.req.url).host);
      if (c.req.header('cookie') !== undefined && c.req.header('authorization') === undefined && !sameHost && !(origin !== undefined && allowed.has(origin)))
        throw new ProblemError(403, 'Forbidden', 'A write with cookies must come from an allowed origin (corsOrigins).');
    }
    await next();
  });
  groups.console.use('*', async (c, next) => {
    const principal = await authenticate(c.req.raw);
    // Customers' consoles spend their account's budget, each within a share of its own: however
    // many sessions are minted, an account has one budget, and one busy customer cannot spend all of it.
    if (principal.customer) await customerRate(`${principal.accountId}\u0000${principal.customer.id}`);
    await consoleRate(principal.accountId);
    c.set('principal', principal);
    // HEAD is answered by the GET handler: it is a read too.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return accountWork.run(principal.accountId, next);
    const done = await admitRead(principal.accountId, principal.customer?.id);
    try {
      await accountWork.run(principal.accountId, next);
    } finally {
      done();
    }
  });
  groups.console.use('*', bodyLimit({ maxSize: WRITE_BODY_BYTES, onError: tooLarge(WRITE_BODY_BYTES) }));

  // ---- ingest and admin ----
  /** Ingest and OTLP: the key's account, its rate, and a bound on the bodies read at once. */
  const ingestGate = createIngestGate<Env>({
    accountOf: ingestAccount,
    rate: ingestRate,
    maxConcurrent: options.maxConcurrentIngest ?? 4,
    maxBodyBytes,
    pace: options.uploadPace,
    metrics,
  });
  groups.ingest.use('*', ingestGate);
  groups.admin.use(
    '*',
    async (c, next) => {
      const principal = await adminPrincipal(c.req.raw);
      await adminRate(principal.accountId);
      c.set('principal', principal);
      c.set('accountId', principal.accountId);
      await accountWork.run(principal.accountId, next);
    },
    bodyLimit({ maxSize: WRITE_BODY_BYTES, onError: tooLarge(WRITE_BODY_BYTES) }),
  );

  // ---- OpenTelemetry: OTLP/HTTP traces, HTTP server spans become requests ----
  groups.otlp.use('*', ingestGate);

  const policy = { allowPrivateUrls: options.alerts?.allowPrivateUrls ?? false, resolve: options.alerts?.resolve };
  const notifier = createNotifier({ ...policy, ...options.alerts, clock: () => clock().getTime() });
  const alerting = createAlerting({
    stores: fair,
    notifier,
    clock: () => clock().getTime(),
    everyMs: (options.alerts?.evaluateEverySeconds ?? 60) * 1000 || 60_000,
    concurrency: options.alerts?.concurrency,
    onError: (error) => log.error({ err: error }, 'alert evaluation failed'),
  });
  if ((options.alerts?.evaluateEverySeconds ?? 60) > 0) alerting.start();
  const testRate = rateLimited(options.rateLimits?.channelTests, DEFAULT_RATE_LIMITS.channelTests, 'channel test');
  const consoleHandlers = createConsoleHandlers<Env>({
    stores: fair,
    timeZone,
    thresholds,
    clock,
    requestIds,
    alerts: { policy, notifier, caps: options.alerts?.caps, testRate },
    payloads: { readers: options.capture?.payloadsFor ?? 'viewer', days: payloadDays },
  });
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
      capture: options.capture,
      bodies,
    }),
    ...createAdminHandlers<Env>({ stores, timeZone, now: () => clock().getTime(), embedSessions, mintRate }),
    ...createOperationsHandlers<Env>({ stores, log, metrics, options: options.metrics }),
  };
  /**
   * Every route's access, from the contract's rules and the route table: the caller's role, or
   * its customer's scope and views. A customer token naming another customer in the query finds nothing.
   */
  const guarded =
    (route: Route, handler: (c: Context<Env>) => Response | Promise<Response>) =>
    (c: Context<Env>): Response | Promise<Response> => {
      const principal = c.get('principal');
      const why = refusal(principal, route);
      if (why) throw new ProblemError(403, 'Forbidden', why);
      const asked = principal.customer && new URL(c.req.url).searchParams.get('customerId');
      if (asked && asked !== principal.customer!.id) throw new ProblemError(404, 'Not found', `No customer ${asked} in this account.`);
      return handler(c);
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
      group.on(
        route.method,
        path,
        guarded(route, (c) => handler(c, parseQuery(schema, c.req.url))),
      );
    } else if (route.group === 'admin') {
      const handler = handlers[name as keyof typeof handlers] as (c: Context<Env>) => Response | Promise<Response>;
      group.on(route.method, path, guarded(route, handler));
    } else group.on(route.method, path, handlers[name as keyof typeof handlers]);
  }
  for (const [group, { base }] of Object.entries(ROUTE_GROUPS) as [RouteGroup, { base: string }][]) app.route(base || '/', groups[group]);

  return {
    stores,
    routes: [...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`))],
    fetch: async (request, connection) => app.fetch(request, { remoteAddress: connection?.remoteAddress }),
    idle: () => spikes.idle(),
    alerts: { runOnce: (now) => alerting.runOnce(now) },
    async close() {
      clearInterval(keyTimer);
      await chores;
      await alerting.close();
      await spikes.close();
      await bodies.close();
      await stores.close();
    },
  };
}
