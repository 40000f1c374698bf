/** GET /customers/{id} and POST /customers/{id}/notes. */
import { randomUUID } from 'node:crypto';
import { CUSTOMER_SORTS, newNote } from '@ops-console/contract/schemas';
import { sortRows } from '@ops-console/contract/sort-rows';
import { dayLabel } from '../calendar.ts';
import { DAY_MS, RECENT_DAYS, isoSeconds, type PreparedWrite, type ViewContext } from '../context.ts';
import { errorPct } from '../figures.ts';
import { badRequest, notFound, unprocessable } from '../problem.ts';
import { offsetCursor } from '../paging.ts';
import type { CustomerRecord, NoteRecord } from '../store/types.ts';
import { recordActivity } from '../domain/activity-log.ts';
import { recentCounts, recentWindow, relatedFrom } from './related.ts';
import { reads } from '../domain/reads.ts';

async function customerRecord(ctx: ViewContext, id: string): Promise<CustomerRecord> {
  const customer = await ctx.stores.records.customer(ctx.accountId, id);
  if (!customer) throw notFound(`No customer ${id} in this account.`);
  return customer;
}

export interface CustomerListQuery {
  q?: string;
  sort?: string;
  limit: number;
  cursor?: string;
}

/** GET /customers: every customer with its recent figures, searched by name or id, sorted, paged by offset. */
export async function customerList(ctx: ViewContext, query: CustomerListQuery) {
  const sort = query.sort || 'name';
  if (!(CUSTOMER_SORTS as readonly string[]).includes(sort)) throw badRequest(`sort must be one of ${CUSTOMER_SORTS.join(', ')}.`);
  const offset = offsetCursor.decode(query.cursor);
  const recent = { from: ctx.now - RECENT_DAYS * DAY_MS, to: ctx.now + 1 };
  const [records, counts, throttledCounts] = await Promise.all([
    ctx.stores.records.customers(ctx.accountId),
    reads(ctx).countsByCustomer(recent),
    reads(ctx).countsByCustomer({ ...recent, status: 429 }),
  ]);
  const byId = new Map(counts.map((c) => [c.customerId, c]));
  const throttled = new Map(throttledCounts.map((c) => [c.customerId, c.requests]));
  const needle = query.q?.trim().toLowerCase();
  const rows = records
    .filter((r) => !needle || r.name.toLowerCase().includes(needle) || r.id.toLowerCase().includes(needle))
    .map((r) => {
      const { requests = 0, errors = 0 } = byId.get(r.id) ?? {};
      return {
        id: r.id,
        name: r.name,
        createdAt: r.createdAt,
        plan: r.plan,
        requests,
        errorPct: errorPct(errors, requests),
        status: r.status,
        owner: r.owner,
        throttled: throttled.get(r.id) ?? 0,
      };
    });
  sortRows(rows, sort);
  const end = offset + query.limit;
  return { items: rows.slice(offset, end), nextCursor: end < rows.length ? offsetCursor.encode(end) : null };
}

const noteView = (n: NoteRecord) => ({ id: n.id, text: n.text, author: n.author, createdAt: n.createdAt });

export async function customer(ctx: ViewContext, id: string) {
  const record = await customerRecord(ctx, id);
  const window = recentWindow(ctx);
  const [routes, notes, history, limits, [throttled], busiest] = await Promise.all([
    recentCounts(ctx, { customerId: id }),
    ctx.stores.records.notes(ctx.accountId, id),
    ctx.stores.records.history(ctx.accountId, id),
    ctx.stores.records.rateLimits(ctx.accountId),
    reads(ctx).perPeriod([window], { customerId: id, status: 429 }),
    ctx.stores.telemetry.busiestMinute(ctx.accountId, { ...window, customerId: id }),
  ]);
  const requests = routes.reduce((sum, r) => sum + r.requests, 0);
  const errors = routes.reduce((sum, r) => sum + r.errors, 0);
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    plan: record.plan,
    requests,
    errorPct: errorPct(errors, requests),
    status: record.status,
    owner: record.owner,
    throttled: throttled!.requests,
    relatedEndpoints: relatedFrom(routes),
    notes: notes.map(noteView),
    history: history.map((h) => ({ kind: h.kind, actor: h.actor, at: h.at })),
    rateLimit: {
      requestsPerMinute: limits.get(id) ?? null,
      peakPerMinute: busiest?.requests ?? 0,
      peakAt: busiest ? isoSeconds(busiest.at) : null,
    },
  };
}

export async function addNote(ctx: ViewContext, customerId: string, body: unknown): Promise<PreparedWrite<ReturnType<typeof noteView>>> {
  const record = await customerRecord(ctx, customerId);
  const parsed = newNote.safeParse(body);
  if (!parsed.success) {
    throw unprocessable(
      'The note was not accepted.',
      parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'text', message: i.message })),
    );
  }
  const at = dayLabel(ctx.now, ctx.timeZone);
  const note: NoteRecord = { id: `n_${randomUUID()}`, customerId, text: parsed.data.text, author: ctx.principal.user, createdAt: at, ts: ctx.now };
  return {
    answer: noteView(note),
    async write(scoped) {
      await scoped.stores.records.addNote(scoped.accountId, note);
      await scoped.stores.records.addHistory(scoped.accountId, { customerId, kind: 'Note added', actor: scoped.principal.user, at, ts: scoped.now });
      await recordActivity(scoped.stores, scoped.accountId, {
        kind: 'note-added',
        actor: scoped.principal.user,
        text: `added a note to ${record.name}`,
        ts: scoped.now,
        subject: customerId,
      });
    },
  };
}
