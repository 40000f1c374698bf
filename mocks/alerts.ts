/**
 * The mock API's alerts: a webhook channel, a rule on POST /webhooks's error rate that is firing,
 * and its history, kept in memory per mock API and changed by the console's writes as the
 * console server would.
 */
import { HttpResponse, type HttpResponseResolver, type PathParams, type RequestHandler } from 'msw';
import type { ConsoleRouteName } from '@ops-console/contract/routes';
import * as schema from '../src/api/schemas.ts';
import type { Alert, AlertChannel, AlertRule } from '../src/api/schemas.ts';
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
  return { channels: [channel], rules: [rule], alerts };
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
    route('alerts', ({ request }) => {
      const url = new URL(request.url);
      const state = url.searchParams.get('state');
      const ruleId = url.searchParams.get('ruleId');
      const items = db.alerts.filter((a) => (!state || a.state === state) && (!ruleId || a.ruleId === ruleId));
      return HttpResponse.json({ items, nextCursor: null });
    }),
  ];
}
