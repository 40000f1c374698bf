/** GET /requests (newest first, keyset cursor, filters, since) and GET /requests/summary. */
import { thisWeek } from '../calendar.ts';
import { endpointId, isoSeconds, type ViewContext } from '../context.ts';
import { roundMs } from '../figures.ts';
import { badRequest, notFound } from '../problem.ts';
import { pageOf, requestCursor } from '../paging.ts';
import { endpointFilter } from './endpoints.ts';
import { recentWindow } from './related.ts';
import { EPOCH_DAY, isTimestamp } from '@ops-console/contract/time-window';
import type { EventFilter, StoredRequest } from '../store/types.ts';
import { reads } from '../domain/reads.ts';

export interface RequestListQuery {
  limit: number;
  cursor?: string;
  method?: string;
  status?: string;
  path?: string;
  /** Words the path must hold, any case. */
  q?: string;
  since?: string;
  endpointId?: string;
  customerId?: string;
  keyId?: string;
  /** Only requests at or after this timestamp. */
  from?: string;
  /** Only requests before this timestamp. */
  to?: string;
}

/** A bound of the request log's time filter, checked: a timestamp with its offset, as the windows' bounds. */
function instant(name: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (!isTimestamp(value) || Number.isNaN(ms))
    throw badRequest(`${name} must be a timestamp such as 2026-09-14T09:41:00Z.`, [{ field: name, message: 'Use a timestamp such as 2026-09-14T09:41:00Z.' }]);
  if (ms < 0) throw badRequest(`${name} must be ${EPOCH_DAY} or later: no request is older.`, [{ field: name, message: `Use ${EPOCH_DAY} or later.` }]);
  return ms;
}

/** The person a request is shown under: its actor, else its customer or key, else "Anonymous". */
function actorOf(r: StoredRequest) {
  if (r.actor) return r.actor;
  if (r.customerId) return { id: r.customerId, name: r.customerId };
  if (r.keyId) return { id: r.keyId, name: r.keyId };
  return { id: 'anonymous', name: 'Anonymous' };
}

export function statusFilter(status: string | undefined): Pick<EventFilter, 'status' | 'statusClass'> {
  if (!status) return {};
  if (/^[1-5]\d\d$/.test(status)) return { status: Number(status) };
  if (/^[1-5]xx$/i.test(status)) return { statusClass: Number(status[0]) };
  throw badRequest('status must be a code such as 500 or a class such as 5xx.', [{ field: 'status', message: 'Use a code (500) or a class (5xx).' }]);
}

export async function requests(ctx: ViewContext, query: RequestListQuery) {
  const since = query.since ? Date.parse(query.since) : undefined;
  if (since !== undefined && Number.isNaN(since))
    throw badRequest('since must be a timestamp such as 2026-09-14T09:41:00Z.', [{ field: 'since', message: 'Use a timestamp such as 2026-09-14T09:41:00Z.' }]);
  const before = requestCursor.decode(query.cursor, (id) => ctx.requestIds.decode(ctx.accountId, id)?.seq);
  const method = query.method?.toUpperCase() || undefined;
  // `from`/`to` bound the log themselves; a range asked instead starts it where the range starts.
  const from = instant('from', query.from) ?? ctx.window?.from;
  const to = instant('to', query.to);
  if (from !== undefined && to !== undefined && from >= to) throw badRequest('from must be before to.');
  const endpoint = query.endpointId ? await endpointFilter(ctx, query.endpointId, { from: from ?? 0, to: to ?? ctx.now + 1 }) : undefined;
  // An endpoint without recent requests is no row of GET /endpoints, and one method excludes another: nothing to list.
  if ((query.endpointId && !endpoint) || (endpoint && method && method !== endpoint.method)) return { items: [], nextCursor: null };
  const items = await ctx.stores.telemetry.requests(ctx.accountId, {
    limit: query.limit + 1,
    before,
    since,
    from,
    to,
    method,
    pathContains: query.path || undefined,
    words: wordsOf(query.q),
    // Bodies are searched only by callers who may read them: a word must not tell what a hidden body holds.
    payloadsFrom: ctx.payloads.shown ? ctx.payloads.keptFrom : undefined,
    customerId: query.customerId || undefined,
    keyId: query.keyId || undefined,
    ...statusFilter(query.status),
    ...endpoint,
  });
  return pageOf(items, query.limit, entryOf(ctx), (last) => requestCursor.encode({ ts: last.ts, id: ctx.requestIds.encode(ctx.accountId, last) }));
}

/** The words of a search, at most `MAX_WORDS`: whitespace splits them. */
const MAX_WORDS = 8;
function wordsOf(q: string | undefined): string[] | undefined {
  const words = q?.split(/\s+/).filter(Boolean);
  if (words && words.length > MAX_WORDS) throw badRequest(`q holds at most ${MAX_WORDS} words.`, [{ field: 'q', message: `Use at most ${MAX_WORDS} words.` }]);
  return words?.length ? words : undefined;
}

/** A stored request as the log lists it. */
export const entryOf = (ctx: ViewContext) => (r: StoredRequest) => ({
  id: ctx.requestIds.encode(ctx.accountId, r),
  method: r.method,
  path: r.path,
  status: r.status,
  durationMs: roundMs(r.durationMs),
  actor: actorOf(r),
  time: isoSeconds(r.ts),
});

/** GET /requests/{id}: the log's entry with everything else the collector recorded. */
export async function requestDetail(ctx: ViewContext, id: string) {
  const place = ctx.requestIds.decode(ctx.accountId, id);
  // A tag's id carries its time, which takes the read straight to the request.
  const at = place?.ts === undefined ? {} : { from: place.ts, to: place.ts + 1 };
  const [r] = place === undefined ? [] : await ctx.stores.telemetry.requests(ctx.accountId, { limit: 1, seq: place.seq, ...at });
  if (!r) throw notFound(`No request ${id} in this account.`);
  // The customer's name from its record when the host has upserted one, else its id.
  const customer = r.customerId ? ((await ctx.stores.records.customer(ctx.accountId, r.customerId)) ?? { id: r.customerId, name: r.customerId }) : null;
  return {
    ...entryOf(ctx)(r),
    route: r.route,
    endpointId: endpointId(r.apiVersion ?? '', r.method, r.route),
    apiVersion: r.apiVersion,
    keyId: r.keyId,
    customer: customer && { id: customer.id, name: customer.name },
    bytes: r.bytes,
    ...(await payloadView(ctx, r)),
  };
}

const nameValues = (headers: Record<string, string> | null | undefined) =>
  headers && Object.keys(headers).length ? Object.entries(headers).map(([name, value]) => ({ name, value })) : null;

/** A request's headers and bodies as the caller may see them, and what became of them. */
async function payloadView(ctx: ViewContext, r: StoredRequest) {
  const none = { headers: null, responseHeaders: null, requestBody: null, responseBody: null };
  if (!r.hasPayload) return { ...none, payload: 'none' as const };
  if (!ctx.payloads.shown) return { ...none, payload: 'hidden' as const };
  // Past retention it is gone, whether or not the hourly expiry has removed it yet.
  const kept = r.ts >= ctx.payloads.keptFrom ? await ctx.stores.telemetry.payload(ctx.accountId, r) : null;
  // Headers an older version kept with the event, before payloads were kept apart.
  const legacy = !kept && r.headers && r.ts >= ctx.payloads.keptFrom ? { ...none, headers: r.headers } : null;
  const payload = kept ?? legacy;
  if (!payload) return { ...none, payload: 'removed' as const };
  return {
    headers: nameValues(payload.headers),
    responseHeaders: nameValues(payload.responseHeaders),
    requestBody: payload.requestBody,
    responseBody: payload.responseBody,
    payload: 'kept' as const,
  };
}

/** GET /requests/summary, of one endpoint row or one customer when asked (as GET /requests filters). */
export async function requestSummary(ctx: ViewContext, query: { endpointId?: string; customerId?: string; keyId?: string } = {}) {
  const endpoint = query.endpointId ? await endpointFilter(ctx, query.endpointId) : undefined;
  if (query.endpointId && !endpoint) return { groups: [] };
  const window = recentWindow(ctx);
  const filter = { ...endpoint, customerId: query.customerId || undefined, keyId: query.keyId || undefined };
  const groups = await reads(ctx).summary(window, thisWeek(ctx.now, ctx.timeZone), filter);
  return { groups: groups.map((g) => ({ method: g.method, path: g.route, status: g.status, durationMs: roundMs(g.medianMs), thisWeek: g.thisWeek })) };
}
