/**
 * The admin API's writes: an API company's back office keeps the console's customers, webhooks
 * and activity up to date, each with an admin key for one account.
 */
import type { z } from 'zod';
import { dayLabel } from '../calendar.ts';
import type { activityInput, customerInput, webhookInput } from '../ingest.ts';
import type { ActivityRecord, Stores } from '../store/types.ts';
import { recordActivity } from './activity.ts';

/** What an admin write gets: the stores, the key's account, its calendar and the clock. */
export interface AdminContext {
  stores: Stores;
  accountId: string;
  timeZone: string;
  now: number;
}

/** Creates or replaces a customer; its history gains what happened (Created, Status changed or Updated details) in the same transaction. */
export async function putCustomer(ctx: AdminContext, id: string, input: z.infer<typeof customerInput>) {
  return ctx.stores.records.atomically(async (records) => {
    const existing = await records.customer(ctx.accountId, id);
    const record = { id, ...input, createdAt: input.createdAt ?? existing?.createdAt ?? dayLabel(ctx.now, ctx.timeZone) };
    const outcome = await records.upsertCustomer(ctx.accountId, record);
    const kind = outcome === 'created' ? 'Created' : existing?.status !== record.status ? 'Status changed' : 'Updated details';
    await records.addHistory(ctx.accountId, { customerId: id, kind, actor: input.owner, at: dayLabel(ctx.now, ctx.timeZone), ts: ctx.now });
    return { record, created: outcome === 'created' };
  });
}

/** Creates or replaces a webhook. */
export async function putWebhook(ctx: AdminContext, id: string, input: z.infer<typeof webhookInput>) {
  const existing = await ctx.stores.records.webhook(ctx.accountId, id);
  const record = { id, ...input, createdAt: input.createdAt ?? existing?.createdAt ?? dayLabel(ctx.now, ctx.timeZone) };
  const outcome = await ctx.stores.records.upsertWebhook(ctx.accountId, record);
  return { record, created: outcome === 'created' };
}

/** Records an activity item, at its own time or now. */
export function addActivity(ctx: AdminContext, input: z.infer<typeof activityInput>): Promise<ActivityRecord> {
  return recordActivity(ctx.stores, ctx.accountId, {
    kind: input.kind,
    actor: input.actor,
    text: input.text,
    ts: input.at ?? ctx.now,
    subject: input.subject,
    target: input.target ?? null,
  });
}
