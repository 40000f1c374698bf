/** GET /webhooks/{id}: the registered webhook with figures from its delivery events. */
import { dayLabel, lastMonths } from '../calendar.ts';
import type { ViewContext } from '../context.ts';
import { round1 } from '../figures.ts';
import { notFound } from '../problem.ts';
import { recentCounts, relatedForLabels } from './related.ts';

/** Below this share of deliveries a webhook shows as Failing. */
const HEALTHY_DELIVERED_PCT = 95;

export async function webhook(ctx: ViewContext, id: string) {
  const record = await ctx.stores.records.webhook(ctx.accountId, id);
  if (!record) throw notFound(`No webhook ${id} in this account.`);
  const months = lastMonths(ctx.now, ctx.timeZone, 12);
  const [stats, routes] = await Promise.all([ctx.stores.telemetry.deliveries(ctx.accountId, id, months), recentCounts(ctx)]);
  const relatedEndpoints = relatedForLabels(routes, record.endpoints);
  const deliveredPct = stats.total ? round1((stats.delivered / stats.total) * 100) : 100;
  return {
    id: record.id,
    name: record.name,
    customer: record.customer,
    deliveredPct,
    // Until a first delivery, the day the webhook was registered.
    lastSentAt: stats.lastTs === null ? record.createdAt : dayLabel(stats.lastTs, ctx.timeZone),
    status: deliveredPct >= HEALTHY_DELIVERED_PCT ? 'Healthy' : 'Failing',
    activity: { months: months.map((m) => m.month), values: stats.monthly },
    owner: record.owner,
    relatedEndpoints,
  };
}
