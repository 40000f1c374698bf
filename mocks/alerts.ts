/**
 * The mock API's alerts: a webhook channel, a rule on POST /webhooks's error rate that is firing,
 * and its history, kept in memory per mock API and changed by the console's writes as the
 * console server would.
 */
import { HttpResponse, type HttpResponseResolver, type PathParams, type RequestHandler } from 'msw';
import type { ConsoleRouteName } from '@ops-console/contract/routes';
import * as schema from '../src/api/schemas.ts';
import type { Alert, AlertChannel, AlertRule, Slo, SloDetail } from '../src/api/schemas.ts';
import { problem } from './problem.ts';

type Route = (name: ConsoleRouteName, resolver: HttpResponseResolver<PathParams<'id'>>) => RequestHandler;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What the mock starts with, at `now`. */
export function alertFixtures(now: number) {
  const channel: AlertChannel = {
    id: 'ch_oncall',
    kind: 'webhook',
    name: 'On-call webhook',
    url: 'https://hooks.example.com/ops',
    signed: true,
    createdAt: iso(now - 30 * 86_400_000),
  };
  const rule: AlertRule = {
    id: 'rule_webhooks',
    name: 'POST /webhooks failing',
    metric: 'errorRate',
    scope: { endpointId: 'ep_4' },
    threshold: 5,
    window: '5m',
    for: '2m',
    channelIds: [channel.id],
    createdAt: iso(now - 20 * 86_400_000),
    state: 'firing',
    value: 6.8,
    evaluatedAt: iso(now - 30_000),
  };
  const notified = (event: string, at: number) => ({ channelId: channel.id, event, status: 'delivered', attempts: 1, at: iso(at), error: null });
  const alerts: Alert[] = [
    {
      id: 'alert_2',
      ruleId: rule.id,
      ruleName: rule.name,
      metric: rule.metric,
      scope: rule.scope,
      state: 'firing',
      value: 6.8,
      threshold: 5,
      startedAt: iso(now - 12 * 60_000),
      endedAt: null,
      link: '/endpoints/ep_4',
      notifications: [notified('firing', now - 12 * 60_000)],
    },
    {
      id: 'alert_1',
      ruleId: rule.id,
      ruleName: rule.name,
      metric: rule.metric,
      scope: rule.scope,
      state: 'resolved',
      value: 1.2,
      threshold: 5,
      startedAt: iso(now - 26 * 3_600_000),
      endedAt: iso(now - 25 * 3_600_000),
      link: '/endpoints/ep_4',
      notifications: [notified('firing', now - 26 * 3_600_000), notified('resolved', now - 25 * 3_600_000)],
    },
  ];
  // 99.5 % available over 28 days: the webhook failures of the last days have spent most of the budget.
  const spentByDay = Array.from({ length: 28 }, (_, i) => (i < 20 ? 1.2 * i : 24 + (i - 19) * 6.5));
  const slo: SloDetail = {
    id: 'slo_availability',
    name: 'API available',
    objective: 'availability',
    targetPct: 99.5,
    thresholdMs: null,
    period: '28d',
    scope: {},
    channelIds: [channel.id],
    createdAt: iso(now - 60 * 86_400_000),
    requests: 1_201_544,
    badRequests: 4_301,
    sliPct: 99.64,
    budgetRemainingPct: 28.4,
    burnRates: { '5m': 2.1, '30m': 1.6, '1h': 1.4, '6h': 1.2, '3d': 1.1 },
    state: 'firing',
    budgetOverTime: {
      days: spentByDay.map((_, i) => iso(now - (27 - i) * 86_400_000).slice(0, 10)),
      remainingPct: spentByDay.map((spent, i) => (i === 27 ? 28.4 : Math.round((100 - spent) * 10) / 10)),
    },
  };
  return { channels: [channel], rules: [rule], alerts, slos: [slo] };
}

async function bodyOf(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}

const refused = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  problem(
    422,
    'Unprocessable content',
    'Some fields were not accepted.',
    issues.map((i) => ({ field: i.path.map(String).join('.') || 'body', message: i.message })),
  );

export function alertHandlers(route: Route, now: () => Date): RequestHandler[] {
  const db = alertFixtures(now().getTime());
  let made = 0;
  const channelOf = (id: unknown) => db.channels.find((c) => c.id === id);
  const ruleOf = (id: unknown) => db.rules.find((r) => r.id === id);
  return [
    route('alertChannels', () => HttpResponse.json({ items: db.channels })),
    route('createAlertChannel', async ({ request }) => {
      const parsed = schema.newAlertChannel.safeParse(await bodyOf(request));
      if (!parsed.success) return refused(parsed.error.issues);
      const { secret, ...fields } = parsed.data;
      const channel: AlertChannel = { id: `ch_${++made}`, ...fields, signed: secret !== undefined, createdAt: iso(now().getTime()) };
      db.channels.push(channel);
      return HttpResponse.json(channel, { status: 201 });
    }),
    route('updateAlertChannel', async ({ request, params }) => {
      const channel = channelOf(params['id']);
      if (!channel) return problem(404, 'Not found', `No alert channel ${String(params['id'])} in this account.`);
      const parsed = schema.alertChannelPatch.safeParse(await bodyOf(request));
      if (!parsed.success) return refused(parsed.error.issues);
      const { secret, ...fields } = parsed.data;
      Object.assign(channel, fields, secret ? { signed: true } : {});
      return HttpResponse.json(channel);
    }),
    route('deleteAlertChannel', ({ params }) => {
      const channel = channelOf(params['id']);
      if (!channel) return problem(404, 'Not found', `No alert channel ${String(params['id'])} in this account.`);
      db.channels.splice(db.channels.indexOf(channel), 1);
      return HttpResponse.json(channel);
    }),
    route('testAlertChannel', ({ params }) => {
      const channel = channelOf(params['id']);
      if (!channel) return problem(404, 'Not found', `No alert channel ${String(params['id'])} in this account.`);
      return HttpResponse.json({ channelId: channel.id, event: 'test', status: 'delivered', attempts: 1, at: iso(now().getTime()), error: null });
    }),
    route('alertRules', () => HttpResponse.json({ items: db.rules })),
    route('createAlertRule', async ({ request }) => {
      const parsed = schema.newAlertRule.safeParse(await bodyOf(request));
      if (!parsed.success) return refused(parsed.error.issues);
      const unknown = parsed.data.channelIds.filter((id) => !channelOf(id));
      if (unknown.length)
        return problem(422, 'Unprocessable content', `No alert channel ${unknown.join(', ')} in this account.`, [
          { field: 'channelIds', message: 'unknown channel' },
        ]);
      const rule: AlertRule = { id: `rule_${++made}`, ...parsed.data, createdAt: iso(now().getTime()), state: 'ok', value: null, evaluatedAt: null };
      db.rules.push(rule);
      return HttpResponse.json(rule, { status: 201 });
    }),
    route('updateAlertRule', async ({ request, params }) => {
      const rule = ruleOf(params['id']);
      if (!rule) return problem(404, 'Not found', `No alert rule ${String(params['id'])} in this account.`);
      const parsed = schema.alertRulePatch.safeParse(await bodyOf(request));
      if (!parsed.success) return refused(parsed.error.issues);
      Object.assign(rule, parsed.data);
      return HttpResponse.json(rule);
    }),
    route('deleteAlertRule', ({ params }) => {
      const rule = ruleOf(params['id']);
      if (!rule) return problem(404, 'Not found', `No alert rule ${String(params['id'])} in this account.`);
      db.rules.splice(db.rules.indexOf(rule), 1);
      return HttpResponse.json(rule);
    }),
    route('slos', () => HttpResponse.json({ items: db.slos.map(({ budgetOverTime: _, ...slo }) => slo) })),
    route('slo', ({ params }) => {
      const slo = db.slos.find((s) => s.id === params['id']);
      return slo ? HttpResponse.json(slo) : problem(404, 'Not found', `No SLO ${String(params['id'])} in this account.`);
    }),
    route('createSlo', async ({ request }) => {
      const parsed = schema.newSlo.safeParse(await bodyOf(request));
      if (!parsed.success) return refused(parsed.error.issues);
      const { thresholdMs, ...fields } = parsed.data;
      const slo: Slo = {
        id: `slo_${++made}`,
        ...fields,
        thresholdMs: thresholdMs ?? null,
        createdAt: iso(now().getTime()),
        requests: 0,
        badRequests: 0,
        sliPct: null,
        budgetRemainingPct: null,
        burnRates: { '5m': null, '30m': null, '1h': null, '6h': null, '3d': null },
        state: 'ok',
      };
      db.slos.push({ ...slo, budgetOverTime: { days: [], remainingPct: [] } });
      return HttpResponse.json(slo, { status: 201 });
    }),
    route('updateSlo', async ({ request, params }) => {
      const slo = db.slos.find((s) => s.id === params['id']);
      if (!slo) return problem(404, 'Not found', `No SLO ${String(params['id'])} in this account.`);
      const parsed = schema.sloPatch.safeParse(await bodyOf(request));
      if (!parsed.success) return refused(parsed.error.issues);
      Object.assign(slo, parsed.data);
      const { budgetOverTime: _, ...view } = slo;
      return HttpResponse.json(view);
    }),
    route('deleteSlo', ({ params }) => {
      const slo = db.slos.find((s) => s.id === params['id']);
      if (!slo) return problem(404, 'Not found', `No SLO ${String(params['id'])} in this account.`);
      db.slos.splice(db.slos.indexOf(slo), 1);
      const { budgetOverTime: _, ...view } = slo;
      return HttpResponse.json(view);
    }),
    route('alerts', ({ request }) => {
      const url = new URL(request.url);
      const state = url.searchParams.get('state');
      const ruleId = url.searchParams.get('ruleId');
      const items = db.alerts.filter((a) => (!state || a.state === state) && (!ruleId || a.ruleId === ruleId));
      return HttpResponse.json({ items, nextCursor: null });
    }),
  ];
}
