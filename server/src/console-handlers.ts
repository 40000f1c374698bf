/**
 * What answers each route of the console API: the request's view context (the caller, the
 * clock, the time range it asked for) handed to the views, which never see HTTP, and the
 * writes made idempotent and atomic.
 */
import type { Context } from 'hono';
import { isMonthlyRange } from '@ops-console/contract/enums';
import { parseWindow, resolveWindow, type WindowQuery } from '@ops-console/contract/time-window';
import type { ConsoleRouteName } from '@ops-console/contract/routes';
import type { ROUTE_QUERIES } from '@ops-console/contract/route-docs';
import type * as z from 'zod/mini';
import type { Principal } from './auth.ts';
import { DAY_MS, type PreparedWrite, type ViewContext } from './context.ts';
import { atLeast, type Role } from '@ops-console/contract/access';
import type { Thresholds } from './figures.ts';
import { fingerprintOf, idempotencyKey } from './idempotency.ts';
import { jsonBody, parseJson } from './json-body.ts';
import { DEFAULT_LIMIT } from './paging.ts';
import { badRequest, unprocessable } from './problem.ts';
import type { RequestIds } from './request-ids.ts';
import { customerTelemetry } from './store/customer-scope.ts';
import type { Remembered, Stores } from './store/types.ts';
import { activity } from './views/activity.ts';
import { addNote, customer, customerList } from './views/customers.ts';
import { endpointDetail, endpoints } from './views/endpoints.ts';
import { keyDetail, keyList } from './views/keys.ts';
import { alertList, channelList, createChannel, createRule, deleteChannel, deleteRule, ruleList, updateChannel, updateRule } from './views/alerts.ts';
import type { UrlPolicy } from './alerts/destinations.ts';
import type { AlertCaps } from './alerts/caps.ts';
import { createSlo, deleteSlo, sloDetail, sloList, updateSlo } from './views/slos.ts';
import { payloadOf, type Notifier } from './alerts/notify.ts';
import { notFound } from './problem.ts';
import { createError, errorList, errorOptions, errorRecord, errorView, patchError } from './views/errors.ts';
import { overview } from './views/overview.ts';
import { requestDetail, requestSummary, requests } from './views/requests.ts';
import { traffic } from './views/traffic.ts';
import { versions } from './views/versions.ts';
import { webhook, webhookList } from './views/webhooks.ts';

export interface ConsoleDependencies {
  /** Where alert channels may send, and how a test notification goes. */
  alerts: { policy: UrlPolicy; notifier: Notifier; caps?: AlertCaps | undefined; testRate: (accountId: string) => Promise<void> };
  stores: Stores;
  timeZone: string;
  thresholds: Thresholds;
  clock: () => Date;
  requestIds: RequestIds;
  /** Who reads kept headers and bodies besides customers whose views include `payloads` (`capture.payloadsFor`), and for how many days they are kept. */
  payloads: { readers: Role; days: number };
}

type ConsoleEnv = { Variables: { principal: Principal } };
type ConsoleQuery<N extends ConsoleRouteName> = z.infer<(typeof ROUTE_QUERIES)[N]>;

/** The `{id}` of the route's path (every handler that reads it has one). */
const idParam = (c: Context): string => c.req.param('id') ?? '';

/** The handler of each console route, given the request's context and its query parsed with the route's schema in the contract. */
export function createConsoleHandlers<E extends ConsoleEnv>({ stores, timeZone, thresholds, clock, requestIds, alerts, payloads }: ConsoleDependencies) {
  const view = (c: Context<E>): ViewContext => {
    const principal = c.get('principal') as Principal;
    const customerId = principal.customer?.id;
    // A customer's token reads its customer's events alone, whatever the view asks.
    const scoped = customerId === undefined ? stores : { ...stores, telemetry: customerTelemetry(stores.telemetry, customerId) };
    const now = clock().getTime();
    const shown = principal.customer ? (principal.customer.views?.includes('payloads') ?? true) : atLeast(principal.role, payloads.readers);
    return {
      stores: scoped,
      principal,
      accountId: principal.accountId,
      customerId,
      timeZone,
      thresholds,
      now,
      requestIds,
      payloads: { shown, keptFrom: now - payloads.days * DAY_MS },
    };
  };
  /** The view with the time range the query asks for (`range`, or `from`–`to`); a query that names none keeps each route's default. */
  const inWindow = (c: Context<E>, query: WindowQuery, { boundsAreFilters = false } = {}): ViewContext => {
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
  async function idempotent(c: Context<E>, prepare: (ctx: ViewContext, body: unknown) => Promise<PreparedWrite<unknown>>): Promise<Response> {
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

  const handlers: { [N in ConsoleRouteName]: (c: Context<E>, query: ConsoleQuery<N>) => Promise<Response> } = {
    overview: async (c, query) => c.json(await overview(inWindow(c, query))),
    endpoints: async (c, { status, q, sort, limit = DEFAULT_LIMIT, cursor, ...window }) =>
      c.json(await endpoints(inWindow(c, window), { status, q, sort, limit, cursor })),
    endpoint: async (c, query) => c.json(await endpointDetail(inWindow(c, query), idParam(c))),
    // `from` and `to` bound the log one by one, so they are read as filters, not as a window.
    requests: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await requests(inWindow(c, query, { boundsAreFilters: true }), { ...query, limit })),
    requestSummary: async (c, { endpointId, customerId, keyId, ...window }) =>
      c.json(await requestSummary(inWindow(c, window), { endpointId, customerId, keyId })),
    request: async (c) => c.json(await requestDetail(view(c), idParam(c))),
    traffic: async (c, { range, from, to, customerId }) => {
      // The calendar-month ranges (12m, the default, and 6m, 3m, 1m) keep their meaning; the rest are windows.
      const months = !from && !to && isMonthlyRange(range);
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
    versions: async (c, query) => c.json(await versions(inWindow(c, query))),
    keys: async (c, { limit = DEFAULT_LIMIT, q, customerId, status, sort, cursor, ...window }) =>
      c.json(await keyList(inWindow(c, window), { q, customerId, status, sort, limit, cursor })),
    key: async (c, query) => c.json(await keyDetail(inWindow(c, query), idParam(c))),
    alertChannels: async (c) => c.json(await channelList(view(c))),
    createAlertChannel: async (c) => idempotent(c, (ctx, body) => createChannel(ctx, body, alerts.policy, alerts.caps)),
    updateAlertChannel: async (c) => c.json(await updateChannel(view(c), idParam(c), await jsonBody(c.req.raw), alerts.policy)),
    deleteAlertChannel: async (c) => c.json(await deleteChannel(view(c), idParam(c))),
    testAlertChannel: async (c) => {
      const ctx = view(c);
      const channel = await stores.records.alertChannel(ctx.accountId, idParam(c));
      if (!channel) throw notFound(`No alert channel ${idParam(c)} in this account.`);
      await alerts.testRate(ctx.accountId);
      // A fixed text: the test must not let an editor send words of its own through the operator's SMTP or webhooks.
      const rule = { id: 'rule_test', name: 'Test notification from Ops Console', metric: 'errorRate', window: '5m', for: '0m', threshold: 0 } as const;
      const alert = {
        id: 'alert_test',
        ruleId: rule.id,
        ruleName: rule.name,
        metric: rule.metric,
        scope: {},
        state: 'firing',
        value: 0,
        threshold: 0,
        startedAt: ctx.now,
        endedAt: null,
        notifications: [],
      } as const;
      const [outcome] = await alerts.notifier.send([channel], payloadOf('test', { ...alert, notifications: [] }, rule, alerts.notifier.link('/')));
      return c.json({ ...outcome!, at: new Date(outcome!.at).toISOString().replace(/\.\d{3}Z$/, 'Z') }, 200);
    },
    alertRules: async (c) => c.json(await ruleList(view(c))),
    createAlertRule: async (c) => idempotent(c, (ctx, body) => createRule(ctx, body, alerts.caps)),
    updateAlertRule: async (c) => c.json(await updateRule(view(c), idParam(c), await jsonBody(c.req.raw))),
    deleteAlertRule: async (c) => c.json(await deleteRule(view(c), idParam(c))),
    alerts: async (c, { limit = DEFAULT_LIMIT, ...query }) => c.json(await alertList(view(c), { ...query, limit })),
    slos: async (c) => c.json(await sloList(view(c))),
    createSlo: async (c) => idempotent(c, (ctx, body) => createSlo(ctx, body, alerts.caps)),
    slo: async (c) => c.json(await sloDetail(view(c), idParam(c))),
    updateSlo: async (c) => c.json(await updateSlo(view(c), idParam(c), await jsonBody(c.req.raw))),
    deleteSlo: async (c) => c.json(await deleteSlo(view(c), idParam(c))),
  };
  return handlers;
}
