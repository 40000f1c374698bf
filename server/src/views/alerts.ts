/**
 * The alerts' part of the console API: channels and rules (an editor's writes), and the alerts
 * they raised. Evaluation and notification are in ../alerts/.
 */
import { randomUUID } from 'node:crypto';
import { alertChannelPatch, alertRulePatch, newAlertChannel, newAlertRule } from '@ops-console/contract/schemas';
import { isoSeconds } from '@ops-console/contract/time-window';
import { checkedUrl, type UrlPolicy } from '../alerts/destinations.ts';
import { checkCap, checkSpans, type AlertCaps } from '../alerts/caps.ts';
import { durationMs, linkOf } from '../alerts/rules.ts';
import type { ViewContext } from '../context.ts';
import { validate } from '../json-body.ts';
import { offsetCursor } from '../paging.ts';
import { notFound, unprocessable } from '../problem.ts';
import type { AlertChannelRecord, AlertRecord, AlertRuleRecord, AlertRuleState } from '../store/types.ts';
import { endpointFilter } from './endpoints.ts';

/**
 * A channel as the API answers it: never its secret, nor a Slack URL's path (the URL is the
 * Slack credential: its origin is shown).
 */
export const channelView = ({ secret, createdAt, ...channel }: AlertChannelRecord, { viewer = false } = {}) => ({
  ...channel,
  // A viewer sees where any channel sends, not its path or query: Discord, Teams and Google Chat put their tokens there too.
  ...((channel.kind === 'slack' || viewer) && channel.url ? { url: `${new URL(channel.url).origin}/…` } : {}),
  signed: secret !== undefined,
  createdAt: isoSeconds(createdAt),
});

const NO_STATE: AlertRuleState = { holdingSince: null, value: null, evaluatedAt: null, alertId: null };

/** A silence as stored (epoch ms) from its timestamp; null lifts it, absent keeps what was. */
export const silenceOf = (until: string | null | undefined) => (until === undefined ? {} : { silencedUntil: until === null ? null : Date.parse(until) });
export const silenceView = (until: number | null | undefined) => (until == null ? null : isoSeconds(until));

/** A rule as the API answers it, with its condition now. */
export function ruleView(rule: AlertRuleRecord, state: AlertRuleState = NO_STATE) {
  const { endpoint: _endpoint, ...stored } = rule as AlertRuleRecord & { endpoint?: unknown };
  return {
    ...stored,
    createdAt: isoSeconds(rule.createdAt),
    silencedUntil: silenceView(rule.silencedUntil),
    state: state.alertId ? 'firing' : state.holdingSince !== null ? 'pending' : 'ok',
    value: state.value,
    evaluatedAt: state.evaluatedAt === null ? null : isoSeconds(state.evaluatedAt),
  };
}

export const alertView = (alert: AlertRecord) => ({
  ...alert,
  startedAt: isoSeconds(alert.startedAt),
  endedAt: alert.endedAt === null ? null : isoSeconds(alert.endedAt),
  link: linkOf(alert.scope),
  notifications: alert.notifications.map((n) => ({ ...n, at: isoSeconds(n.at) })),
});

export async function channelList(ctx: ViewContext) {
  const viewer = ctx.principal.role === 'viewer';
  return { items: (await ctx.stores.records.alertChannels(ctx.accountId)).map((channel) => channelView(channel, { viewer })) };
}

export async function createChannel(ctx: ViewContext, body: unknown, policy: UrlPolicy, caps?: AlertCaps) {
  const input = validate(newAlertChannel, body);
  checkCap('channels', (await ctx.stores.records.alertChannels(ctx.accountId)).length, caps);
  if (input.url) await checkedUrl(input.url, policy);
  const channel: AlertChannelRecord = { id: `ch_${randomUUID().slice(0, 8)}`, ...input, createdAt: ctx.now };
  return {
    answer: channelView(channel),
    write: (scoped: ViewContext) => scoped.stores.records.upsertAlertChannel(scoped.accountId, channel).then(() => undefined),
  };
}

export async function updateChannel(ctx: ViewContext, id: string, body: unknown, policy: UrlPolicy) {
  const change = validate(alertChannelPatch, body);
  const channel = await ctx.stores.records.alertChannel(ctx.accountId, id);
  if (!channel) throw notFound(`No alert channel ${id} in this account.`);
  if (change.url) await checkedUrl(change.url, policy);
  const next = { ...channel, ...change };
  await ctx.stores.records.upsertAlertChannel(ctx.accountId, next);
  return channelView(next);
}

export async function deleteChannel(ctx: ViewContext, id: string) {
  const channel = await ctx.stores.records.alertChannel(ctx.accountId, id);
  if (!channel) throw notFound(`No alert channel ${id} in this account.`);
  await ctx.stores.records.deleteAlertChannel(ctx.accountId, id);
  // Rules and SLOs stop sending to it, and stay editable.
  const [rules, slos] = await Promise.all([ctx.stores.records.alertRules(ctx.accountId), ctx.stores.records.slos(ctx.accountId)]);
  for (const rule of rules.filter((r) => r.channelIds.includes(id)))
    await ctx.stores.records.upsertAlertRule(ctx.accountId, { ...rule, channelIds: rule.channelIds.filter((c) => c !== id) });
  for (const slo of slos.filter((s) => s.channelIds.includes(id)))
    await ctx.stores.records.upsertSlo(ctx.accountId, { ...slo, channelIds: slo.channelIds.filter((c) => c !== id) });
  return channelView(channel);
}

/** The rule from a new or changed body: its channels must be the account's, its endpoint one with recent requests. */
async function checkedRule(ctx: ViewContext, rule: AlertRuleRecord) {
  if (durationMs(rule.window) < 60_000) throw unprocessable('window must be at least 1m.', [{ field: 'window', message: 'at least 1m' }]);
  checkSpans(rule);
  const channels = new Set((await ctx.stores.records.alertChannels(ctx.accountId)).map((c) => c.id));
  const unknown = rule.channelIds.filter((id) => !channels.has(id));
  if (unknown.length) throw unprocessable(`No alert channel ${unknown.join(', ')} in this account.`, [{ field: 'channelIds', message: 'unknown channel' }]);
  if (rule.scope.endpointId) {
    const endpoint = await endpointFilter(ctx, rule.scope.endpointId);
    if (!endpoint)
      throw unprocessable(`No endpoint ${rule.scope.endpointId} with requests in the last 30 days.`, [
        { field: 'scope.endpointId', message: 'unknown endpoint' },
      ]);
    return { ...rule, endpoint };
  }
  // A scope without an endpoint any more filters on none: the endpoint resolved before goes.
  const { endpoint: _endpoint, ...bare } = rule as AlertRuleRecord & { endpoint?: unknown };
  return bare;
}

/** Whether a change alters what a rule (or SLO) watches: then what it held and its firing alert belong to the old condition. */
export const conditionChanged = (before: object, after: object, fields: readonly string[]) =>
  fields.some((field) => JSON.stringify((before as Record<string, unknown>)[field]) !== JSON.stringify((after as Record<string, unknown>)[field]));

/** Ends the firing alert of a rule or SLO whose condition changed or which is gone: nobody is told, the history says when. */
export async function endOpenAlert(ctx: ViewContext, id: string) {
  const state = (await ctx.stores.records.alertRuleStates(ctx.accountId)).get(id);
  if (!state?.alertId) return state;
  const alert = await ctx.stores.records.alert(ctx.accountId, state.alertId);
  if (alert?.state === 'firing') await ctx.stores.records.saveAlert(ctx.accountId, { ...alert, state: 'resolved', endedAt: ctx.now });
  return state;
}

export async function ruleList(ctx: ViewContext) {
  const [rules, states] = await Promise.all([ctx.stores.records.alertRules(ctx.accountId), ctx.stores.records.alertRuleStates(ctx.accountId)]);
  return { items: rules.map((rule) => ruleView(rule, states.get(rule.id))) };
}

export async function createRule(ctx: ViewContext, body: unknown, caps?: AlertCaps) {
  const { silencedUntil, ...input } = validate(newAlertRule, body);
  checkCap('rules', (await ctx.stores.records.alertRules(ctx.accountId)).length, caps);
  const rule = await checkedRule(ctx, { id: `rule_${randomUUID().slice(0, 8)}`, ...input, ...silenceOf(silencedUntil), createdAt: ctx.now });
  return { answer: ruleView(rule), write: (scoped: ViewContext) => scoped.stores.records.upsertAlertRule(scoped.accountId, rule).then(() => undefined) };
}

export async function updateRule(ctx: ViewContext, id: string, body: unknown) {
  const { silencedUntil, ...change } = validate(alertRulePatch, body);
  const rule = await ctx.stores.records.alertRule(ctx.accountId, id);
  if (!rule) throw notFound(`No alert rule ${id} in this account.`);
  const next = await checkedRule(ctx, { ...rule, ...change, ...silenceOf(silencedUntil) });
  const reset = conditionChanged(rule, next, ['metric', 'scope', 'threshold', 'window', 'for']);
  if (reset) await endOpenAlert(ctx, id);
  await ctx.stores.records.upsertAlertRule(ctx.accountId, next, { reset });
  return ruleView(next, (await ctx.stores.records.alertRuleStates(ctx.accountId)).get(id));
}

export async function deleteRule(ctx: ViewContext, id: string) {
  const rule = await ctx.stores.records.alertRule(ctx.accountId, id);
  if (!rule) throw notFound(`No alert rule ${id} in this account.`);
  // Its firing alert ends with it: nobody would be told it resolved, and the history says when it stopped.
  const state = await endOpenAlert(ctx, id);
  await ctx.stores.records.deleteAlertRule(ctx.accountId, id);
  return ruleView(rule, state);
}

export async function alertList(
  ctx: ViewContext,
  query: { state?: string | undefined; ruleId?: string | undefined; limit: number; cursor?: string | undefined },
) {
  const offset = offsetCursor.decode(query.cursor);
  const rows = await ctx.stores.records.alerts(ctx.accountId, { state: query.state, ruleId: query.ruleId, limit: query.limit + 1, offset });
  const more = rows.length > query.limit;
  return { items: rows.slice(0, query.limit).map(alertView), nextCursor: more ? offsetCursor.encode(offset + query.limit) : null };
}
