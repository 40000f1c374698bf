/** GET /webhooks and GET /webhooks/{id}: the registered webhooks with figures from their delivery events. */
import { WEBHOOK_SORTS } from '@ops-console/contract/schemas';
import { sortRows } from '@ops-console/contract/sort-rows';
import { isoSeconds, windowOf } from '@ops-console/contract/time-window';
import { dayLabel, lastMonths } from '../calendar.ts';
import type { ViewContext } from '../context.ts';
import { round1 } from '../figures.ts';
import { offsetCursor } from '../paging.ts';
import { badRequest, notFound } from '../problem.ts';
import type { WebhookRecord } from '../store/types.ts';
import { recentCounts, relatedForLabels } from './related.ts';
import { reads } from '../domain/reads.ts';

/** Below this share of deliveries a webhook shows as Failing. */
const HEALTHY_DELIVERED_PCT = 95;

/** The figures both routes show, from all of a webhook's deliveries. */
function deliveryFigures(ctx: ViewContext, record: WebhookRecord, stats: { total: number; delivered: number; lastTs: number | null }) {
  const deliveredPct = stats.total ? round1((stats.delivered / stats.total) * 100) : 100;
  return {
    deliveredPct,
    // Until a first delivery, the day the webhook was registered.
    lastSentAt: stats.lastTs === null ? record.createdAt : dayLabel(stats.lastTs, ctx.timeZone),
    status: deliveredPct >= HEALTHY_DELIVERED_PCT ? 'Healthy' : 'Failing',
  };
}

export interface WebhookListQuery {
  q?: string;
  sort?: string;
  limit: number;
  cursor?: string;
}

/** GET /webhooks: every registered webhook with its delivery figures, searched by name, id or customer, sorted, paged by offset. */
export async function webhookList(ctx: ViewContext, query: WebhookListQuery) {
  const sort = query.sort || 'name';
  if (!(WEBHOOK_SORTS as readonly string[]).includes(sort)) throw badRequest(`sort must be one of ${WEBHOOK_SORTS.join(', ')}.`);
  const offset = offsetCursor.decode(query.cursor);
  const [records, stats] = await Promise.all([ctx.stores.records.webhooks(ctx.accountId), reads(ctx).deliveriesByWebhook()]);
  const byId = new Map(stats.map((s) => [s.webhookId, s]));
  const needle = query.q?.trim().toLowerCase();
  const rows = records
    .filter((r) => ctx.customerId === undefined || r.customer.id === ctx.customerId)
    .filter((r) => !needle || [r.name, r.id, r.customer.name].some((text) => text.toLowerCase().includes(needle)))
    .map((r) => ({
      id: r.id,
      name: r.name,
      customer: r.customer,
      ...deliveryFigures(ctx, r, byId.get(r.id) ?? { total: 0, delivered: 0, lastTs: null }),
      ...staffOf(ctx, r),
    }));
  sortRows(rows, sort);
  const end = offset + query.limit;
  return { items: rows.slice(offset, end), nextCursor: end < rows.length ? offsetCursor.encode(end) : null };
}

/** The person in charge on the API company's side: the operators' to know, not the customer's. */
const staffOf = (ctx: ViewContext, record: WebhookRecord) => (ctx.customerId === undefined ? { owner: record.owner } : {});

export async function webhook(ctx: ViewContext, id: string) {
  const record = await ctx.stores.records.webhook(ctx.accountId, id);
  if (!record || (ctx.customerId !== undefined && record.customer.id !== ctx.customerId)) throw notFound(`No webhook ${id} in this account.`);
  const months = lastMonths(ctx.now, ctx.timeZone, 12);
  const { window } = ctx;
  const [stats, routes, inWindow] = await Promise.all([
    reads(ctx).deliveries(id, months),
    recentCounts({ ...ctx, window: undefined }),
    window && reads(ctx).deliveries(id, window.buckets),
  ]);
  const relatedEndpoints = relatedForLabels(routes, record.endpoints);
  return {
    id: record.id,
    name: record.name,
    customer: record.customer,
    ...deliveryFigures(ctx, record, stats),
    activity: { months: months.map((m) => m.month), values: stats.monthly },
    ...staffOf(ctx, record),
    relatedEndpoints,
    ...(window && inWindow
      ? { window: windowOf(window), countsOverTime: { starts: window.buckets.map((b) => isoSeconds(b.from)), values: inWindow.monthly } }
      : {}),
  };
}
