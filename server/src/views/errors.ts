/** GET /errors, /errors/{id}, /errors/options; POST /errors; PATCH /errors/{id} with If-Match. */
import { randomUUID } from 'node:crypto';
import { ERROR_CATEGORIES, ERROR_SORTS, ERROR_STATUSES, errorPatch, newErrorRecord } from '@ops-console/contract/schemas';
import { lastMonths, zonedInstant } from '../calendar.ts';
import { isoSeconds, windowOf } from '@ops-console/contract/time-window';
import { parseEndpointLabel, type PreparedWrite, type ViewContext } from '../context.ts';
import { ProblemError, badRequest, notFound, unprocessable, type FieldError } from '../problem.ts';
import { offsetCursor, pageOf } from '../paging.ts';
import type { ErrorRecordRow } from '../store/types.ts';
import { recordActivity } from '../domain/activity-log.ts';
import { recentCounts, relatedForLabels, relatedFrom } from './related.ts';
import { reads, type RouteCounts } from '../domain/reads.ts';

const fieldErrors = (issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldError[] =>
  issues.map((i) => ({ field: i.path.map(String).join('.') || 'body', message: i.message }));

/** When a record was first seen, as an instant of the account's calendar. */
function firstSeenAt(ctx: ViewContext, row: ErrorRecordRow): number {
  const [year, month, day] = row.firstSeen.split('-').map(Number) as [number, number, number];
  return zonedInstant(year, month, day, ctx.timeZone);
}

/**
 * Records as the contract shows them: count and monthly series from the events with the
 * record's code on its endpoint since it was first seen. One read for the whole list: requests
 * per method, route and status between every boundary any record needs (month starts and the
 * days they were first seen), summed per record. `routes` are the recent per-route counts.
 */
async function views(ctx: ViewContext, rows: readonly ErrorRecordRow[], routes: readonly RouteCounts[]) {
  if (!rows.length) return [];
  const months = lastMonths(ctx.now, ctx.timeZone, 12);
  const buckets = ctx.window?.buckets ?? [];
  const boundaries = [
    ...new Set([...months.map((m) => m.from), months[11]!.to, ...rows.map((r) => firstSeenAt(ctx, r)), ...buckets.flatMap((b) => [b.from, b.to])]),
  ].sort((a, b) => a - b);
  const intervals = boundaries.slice(0, -1).map((from, i) => ({ from, to: boundaries[i + 1]! }));
  const counted = await reads(ctx).perPeriodByStatus(intervals);
  return rows.map((row) => {
    const endpoint = parseEndpointLabel(row.endpoint);
    const since = firstSeenAt(ctx, row);
    const matching = counted.find((c) => c.method === endpoint?.method && c.route === endpoint.route && c.status === row.code);
    const perInterval = matching?.requests ?? intervals.map(() => 0);
    const within = (from: number, to: number) => intervals.reduce((sum, iv, i) => (iv.from >= from && iv.to <= to ? sum + perInterval[i]! : sum), 0);
    return {
      id: row.id,
      code: row.code,
      title: row.title,
      endpoint: row.endpoint,
      count: within(since, Number.MAX_SAFE_INTEGER),
      firstSeen: row.firstSeen,
      status: row.status,
      notes: row.notes,
      owner: row.owner,
      relatedEndpoints: relatedForLabels(routes, [row.endpoint]),
      monthly: { months: months.map((m) => m.month), values: months.map((m) => within(Math.max(m.from, since), m.to)) },
      version: row.version,
      ...(ctx.window
        ? {
            window: windowOf(ctx.window),
            countsOverTime: { starts: buckets.map((b) => isoSeconds(b.from)), values: buckets.map((b) => within(Math.max(b.from, since), b.to)) },
          }
        : {}),
    };
  });
}

const view = async (ctx: ViewContext, row: ErrorRecordRow, routes: readonly RouteCounts[]) => (await views(ctx, [row], routes))[0]!;

export async function errorRecord(ctx: ViewContext, id: string) {
  const row = await ctx.stores.records.error(ctx.accountId, id);
  if (!row) throw notFound(`No error record ${id} in this account.`);
  return view(ctx, row, await recentCounts({ ...ctx, window: undefined }));
}

/** Most records a sorted list reads: they are typed in by people, so an account has few. */
const MAX_SORTED = 10_000;

export async function errorList(ctx: ViewContext, query: { status?: string; endpoint?: string; sort?: string; limit: number; cursor?: string }) {
  const offset = offsetCursor.decode(query.cursor);
  const filter = { status: query.status || undefined, endpoint: query.endpoint || undefined };
  if (query.sort) {
    if (!(ERROR_SORTS as readonly string[]).includes(query.sort)) throw badRequest(`sort must be one of ${ERROR_SORTS.join(', ')}.`);
    // The count comes from telemetry, so a sorted page is cut from every matching record, sorted.
    const rows = await ctx.stores.records.errors(ctx.accountId, { ...filter, limit: MAX_SORTED, offset: 0 });
    const all = await views(ctx, rows, await recentCounts(ctx));
    const sign = query.sort.startsWith('-') ? -1 : 1;
    const byCount = query.sort.endsWith('count');
    // A stable sort: ties keep the default order, newest recorded first.
    all.sort((a, b) => sign * (byCount ? a.count - b.count : a.firstSeen.localeCompare(b.firstSeen)));
    const end = offset + query.limit;
    return { items: all.slice(offset, end), nextCursor: end < all.length ? offsetCursor.encode(end) : null };
  }
  const rows = await ctx.stores.records.errors(ctx.accountId, { ...filter, limit: query.limit + 1, offset });
  const page = pageOf(
    rows,
    query.limit,
    (r) => r,
    () => offsetCursor.encode(offset + query.limit),
  );
  return { items: await views(ctx, page.items, await recentCounts(ctx)), nextCursor: page.nextCursor };
}

/** The endpoints the creation form offers: those with traffic in the recent window, busiest first. */
export async function errorOptions(ctx: ViewContext, routes?: readonly RouteCounts[]) {
  return { endpoints: relatedFrom(routes ?? (await recentCounts(ctx)), Infinity).map((r) => r.label) };
}

export async function createError(ctx: ViewContext, body: unknown): Promise<PreparedWrite<Awaited<ReturnType<typeof view>>>> {
  const parsed = newErrorRecord.safeParse(body);
  if (!parsed.success) throw unprocessable('Some fields were not accepted.', fieldErrors(parsed.error.issues));
  const input = parsed.data;
  const routes = await recentCounts(ctx);
  const { endpoints } = await errorOptions(ctx, routes);
  if (!endpoints.includes(input.endpoint)) {
    throw unprocessable('Some fields were not accepted.', [{ field: 'endpoint', message: 'Choose one of the offered endpoints.' }]);
  }
  const row: ErrorRecordRow = {
    id: `err_${randomUUID()}`,
    code: input.code,
    title: ERROR_CATEGORIES.find((c) => c.code === input.code)!.title,
    endpoint: input.endpoint,
    enteredCount: input.count,
    firstSeen: input.firstSeen,
    status: input.status,
    notes: input.notes?.trim() ? input.notes : null,
    owner: ctx.principal.user,
    version: 1,
    createdTs: ctx.now,
  };
  return {
    // The figures depend on the events, not on the record: read before the transaction.
    answer: await view(ctx, row, routes),
    async write(scoped) {
      await scoped.stores.records.createError(scoped.accountId, row);
      await recordActivity(scoped.stores, scoped.accountId, {
        kind: 'error-recorded',
        actor: scoped.principal.user,
        text: `recorded ${row.code} ${row.title} on ${row.endpoint}`,
        ts: scoped.now,
        subject: row.id,
      });
    },
  };
}

/** `If-Match: "3"` (also W/"3" or 3) → 3; absent → undefined. */
export function parseIfMatch(header: string | undefined): number | undefined {
  // `*` asks only that the record exists, which the update checks anyway.
  if (header === undefined || header.trim() === '' || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw badRequest('If-Match must name a version, e.g. "3".', [{ field: 'If-Match', message: 'Send the version you read, e.g. "3".' }]);
  return Number(match[1]);
}

/** Applies the change (in the caller's transaction) and answers the changed row; `errorView` reads its figures after. */
export async function patchError(ctx: ViewContext, id: string, body: unknown, ifMatch: string | undefined): Promise<ErrorRecordRow> {
  const expected = parseIfMatch(ifMatch);
  const parsed = errorPatch.safeParse(body);
  if (!parsed.success) throw unprocessable('Some fields were not accepted.', fieldErrors(parsed.error.issues));
  const change = parsed.data;
  if (change.status !== undefined && !(ERROR_STATUSES as readonly string[]).includes(change.status)) {
    throw unprocessable('Some fields were not accepted.', [{ field: 'status', message: `Choose ${ERROR_STATUSES.join(', ')}.` }]);
  }
  const before = await ctx.stores.records.error(ctx.accountId, id);
  const result = await ctx.stores.records.updateError(ctx.accountId, id, change, expected);
  if (result === 'missing') throw notFound(`No error record ${id} in this account.`);
  if (result === 'conflict') {
    throw new ProblemError(412, 'Precondition failed', 'This record changed elsewhere since you read it. Reload to see the current version.');
  }
  if (before && change.status !== undefined && change.status !== before.status) {
    await recordActivity(ctx.stores, ctx.accountId, {
      kind: 'status-changed',
      actor: ctx.principal.user,
      text: `marked ${result.code} ${result.title} on ${result.endpoint} as ${result.status}`,
      ts: ctx.now,
      subject: id,
    });
  }
  return result;
}

/** A record as the contract shows it, with its figures. */
export async function errorView(ctx: ViewContext, row: ErrorRecordRow) {
  return view(ctx, row, await recentCounts(ctx));
}
