/** GET /slos, GET /slos/{id} and their writes: each SLO with its figures over its period. */
import { randomUUID } from 'node:crypto';
import { newSlo, sloPatch } from '@ops-console/contract/schemas';
import { isoSeconds } from '@ops-console/contract/time-window';
import { checkCap, type AlertCaps } from '../alerts/caps.ts';
import { budgetOverTime, burning, sloFigures, sloFiguresOf, type SloFigures } from '../alerts/slos.ts';
import type { ViewContext } from '../context.ts';
import { validate } from '../json-body.ts';
import { notFound, unprocessable } from '../problem.ts';
import type { AlertRuleState, SloRecord } from '../store/types.ts';
import { endpointFilter } from './endpoints.ts';
import { conditionChanged, endOpenAlert, silenceOf, silenceView } from './alerts.ts';

function sloView(slo: SloRecord, figures: SloFigures, state?: AlertRuleState) {
  const { endpoint: _endpoint, ...stored } = slo as SloRecord & { endpoint?: unknown };
  return {
    ...stored,
    thresholdMs: slo.thresholdMs ?? null,
    createdAt: isoSeconds(slo.createdAt),
    silencedUntil: silenceView(slo.silencedUntil),
    ...figures,
    // The stored state once evaluated; before that, what the burn rates say now.
    state: (state?.evaluatedAt != null ? state.alertId : burning(figures.burnRates)) ? 'firing' : 'ok',
  };
}

/** One SLO's view, its figures read on their own. */
const viewOf = async (ctx: ViewContext, slo: SloRecord, state?: AlertRuleState) =>
  sloView(slo, await sloFigures(ctx.stores.telemetry, ctx.accountId, slo, ctx.now), state);

/** The SLO from a new or changed body: its channels the account's, its endpoint one with recent requests. */
async function checkedSlo(ctx: ViewContext, slo: SloRecord): Promise<SloRecord> {
  if (slo.objective === 'latency' && slo.thresholdMs === undefined)
    throw unprocessable('A latency SLO needs its thresholdMs.', [{ field: 'thresholdMs', message: 'required for latency' }]);
  const channels = new Set((await ctx.stores.records.alertChannels(ctx.accountId)).map((c) => c.id));
  const unknown = slo.channelIds.filter((id) => !channels.has(id));
  if (unknown.length) throw unprocessable(`No alert channel ${unknown.join(', ')} in this account.`, [{ field: 'channelIds', message: 'unknown channel' }]);
  if (!slo.scope.endpointId) {
    const { endpoint: _endpoint, ...bare } = slo as SloRecord & { endpoint?: unknown };
    return bare;
  }
  const endpoint = await endpointFilter(ctx, slo.scope.endpointId);
  if (!endpoint)
    throw unprocessable(`No endpoint ${slo.scope.endpointId} with requests in the last 30 days.`, [{ field: 'scope.endpointId', message: 'unknown endpoint' }]);
  return { ...slo, endpoint } as SloRecord;
}

export async function sloList(ctx: ViewContext) {
  const [slos, states] = await Promise.all([ctx.stores.records.slos(ctx.accountId), ctx.stores.records.alertRuleStates(ctx.accountId)]);
  const figures = await sloFiguresOf(ctx.stores.telemetry, ctx.accountId, slos, ctx.now);
  return { items: slos.map((slo) => sloView(slo, figures.get(slo.id)!, states.get(slo.id))) };
}

export async function sloDetail(ctx: ViewContext, id: string) {
  const slo = await ctx.stores.records.slo(ctx.accountId, id);
  if (!slo) throw notFound(`No SLO ${id} in this account.`);
  const [view, overTime] = await Promise.all([
    viewOf(ctx, slo, (await ctx.stores.records.alertRuleStates(ctx.accountId)).get(id)),
    budgetOverTime(ctx.stores.telemetry, ctx.accountId, slo, ctx.now),
  ]);
  return { ...view, budgetOverTime: overTime };
}

export async function createSlo(ctx: ViewContext, body: unknown, caps?: AlertCaps) {
  const { silencedUntil, ...input } = validate(newSlo, body);
  checkCap('slos', (await ctx.stores.records.slos(ctx.accountId)).length, caps);
  const slo = await checkedSlo(ctx, { id: `slo_${randomUUID().slice(0, 8)}`, ...input, ...silenceOf(silencedUntil), createdAt: ctx.now });
  return { answer: await viewOf(ctx, slo), write: (scoped: ViewContext) => scoped.stores.records.upsertSlo(scoped.accountId, slo).then(() => undefined) };
}

export async function updateSlo(ctx: ViewContext, id: string, body: unknown) {
  const { silencedUntil, ...change } = validate(sloPatch, body);
  const slo = await ctx.stores.records.slo(ctx.accountId, id);
  if (!slo) throw notFound(`No SLO ${id} in this account.`);
  const next = await checkedSlo(ctx, { ...slo, ...change, ...silenceOf(silencedUntil) });
  const reset = conditionChanged(slo, next, ['objective', 'targetPct', 'thresholdMs', 'period', 'scope']);
  if (reset) await endOpenAlert(ctx, id);
  await ctx.stores.records.upsertSlo(ctx.accountId, next, { reset });
  return viewOf(ctx, next, (await ctx.stores.records.alertRuleStates(ctx.accountId)).get(id));
}

export async function deleteSlo(ctx: ViewContext, id: string) {
  const slo = await ctx.stores.records.slo(ctx.accountId, id);
  if (!slo) throw notFound(`No SLO ${id} in this account.`);
  const state = await endOpenAlert(ctx, id);
  const view = await viewOf(ctx, slo, state);
  await ctx.stores.records.deleteSlo(ctx.accountId, id);
  return view;
}
