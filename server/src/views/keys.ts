/**
 * GET /keys and GET /keys/{id}: every API key the host registered or the traffic named, with its
 * figures over the asked range (the last 30 days unless asked), what it called, and whether it
 * was used after it was revoked.
 */
import { KEY_SORTS, type KeyStatus } from '@ops-console/contract/schemas';
import { sortKeys } from '@ops-console/contract/sort-rows';
import { resolveWindow, windowOf, type ResolvedWindow } from '@ops-console/contract/time-window';
import { DAY_MS, RECENT_DAYS, endpointId, endpointLabel, isoSeconds, type ViewContext } from '../context.ts';
import { errorPct, roundMs, sharesPct } from '../figures.ts';
import { offsetCursor } from '../paging.ts';
import { badRequest, notFound } from '../problem.ts';
import type { CustomerRecord, KeyRecord } from '../store/types.ts';
import { entryOf } from './requests.ts';
import { reads } from '../domain/reads.ts';
import { seriesOver } from './window-series.ts';

/** How many of a key's newest requests its page shows; the request log, filtered by the key, has the rest. */
export const LATEST_REQUESTS = 10;

export interface KeyListQuery {
  q?: string;
  customerId?: string;
  status?: string;
  sort?: string;
  limit: number;
  cursor?: string;
}

/** What a key's row says, from its record (none for a key only the traffic named) and its figures. */
interface KeyFacts {
  id: string;
  record: KeyRecord | undefined;
  customer: CustomerRecord | undefined;
  requests: number;
  errors: number;
  p95Ms: number;
  throttled: number;
  lastTs: number | null;
}

const windowOrRecent = (ctx: ViewContext): ResolvedWindow => ctx.window ?? resolveWindow({ range: '30d' }, ctx.now, ctx.timeZone);
const periodOf = (window: ResolvedWindow) => ({ from: window.from, to: window.to });
/** Since when a key's use makes it Active. */
const activeSince = (ctx: ViewContext) => ctx.now - RECENT_DAYS * DAY_MS;

function statusOf(ctx: ViewContext, { record, lastTs }: KeyFacts): KeyStatus {
  if (!record) return 'Unregistered';
  if (record.revokedAt !== null && record.revokedAt <= ctx.now) return 'Revoked';
  return lastTs !== null && lastTs >= activeSince(ctx) ? 'Active' : 'Idle';
}

function keyRow(ctx: ViewContext, facts: KeyFacts) {
  const { id, record, customer, requests, errors } = facts;
  return {
    id,
    name: record?.name ?? null,
    customer: record ? { id: record.customerId, name: customer?.name ?? record.customerId } : null,
    createdAt: record ? isoSeconds(record.createdAt) : null,
    revokedAt: record?.revokedAt == null ? null : isoSeconds(record.revokedAt),
    lastUsedAt: facts.lastTs === null ? null : isoSeconds(facts.lastTs),
    requests,
    errorPct: errorPct(errors, requests),
    p95Ms: requests ? roundMs(facts.p95Ms) : null,
    throttled: facts.throttled,
    status: statusOf(ctx, facts),
  };
}

/** GET /keys: registered keys and the keys the traffic named, searched, filtered, sorted and paged by offset. */
export async function keyList(ctx: ViewContext, query: KeyListQuery) {
  const sort = query.sort || '-requests';
  if (!(KEY_SORTS as readonly string[]).includes(sort)) throw badRequest(`sort must be one of ${KEY_SORTS.join(', ')}.`);
  const offset = offsetCursor.decode(query.cursor);
  const window = windowOrRecent(ctx);
  const telemetry = ctx.stores.telemetry;
  const [records, customers, figures, throttled, lastBy] = await Promise.all([
    ctx.stores.records.keys(ctx.accountId),
    ctx.stores.records.customers(ctx.accountId),
    telemetry.latency(ctx.accountId, { periods: [periodOf(window)], by: ['keyId'], quantiles: [0.95] }),
    telemetry.counts(ctx.accountId, { periods: [periodOf(window)], filter: { status: 429 }, by: ['keyId'] }),
    telemetry.lastUsed(ctx.accountId),
  ]);
  const byKey = new Map(figures.map((f) => [f.group.keyId!, f]));
  const throttledBy = new Map(throttled.map((t) => [t.group.keyId!, t.requests[0]!]));
  const customerBy = new Map(customers.map((c) => [c.id, c]));
  const recordBy = new Map(records.map((r) => [r.id, r]));
  // A customer's token sees its registered keys, and the unregistered ones its own requests named.
  const visible = (id: string) => ctx.customerId === undefined || (recordBy.has(id) ? recordBy.get(id)!.customerId === ctx.customerId : lastBy.has(id));
  const ids = [...new Set([...recordBy.keys(), ...lastBy.keys()])].filter(visible);
  const needle = query.q?.trim().toLowerCase();
  const rows = ids
    .map((id) => {
      const record = recordBy.get(id);
      const found = byKey.get(id);
      return keyRow(ctx, {
        id,
        record,
        customer: record && customerBy.get(record.customerId),
        requests: found?.requests[0] ?? 0,
        errors: found?.errors[0] ?? 0,
        p95Ms: found?.quantiles[0]![0] ?? 0,
        throttled: throttledBy.get(id) ?? 0,
        lastTs: lastBy.get(id) ?? null,
      });
    })
    .filter(
      (row) =>
        (!query.customerId || row.customer?.id === query.customerId) &&
        (!query.status || row.status === query.status) &&
        (!needle || [row.id, row.name ?? '', row.customer?.name ?? ''].some((text) => text.toLowerCase().includes(needle))),
    );
  const sorted = sortKeys(rows, sort);
  const end = offset + query.limit;
  return { items: sorted.slice(offset, end), nextCursor: end < sorted.length ? offsetCursor.encode(end) : null, window: windowOf(window) };
}

/** GET /keys/{id}: the key's row, its buckets, the endpoints and versions it called, its latest requests, and its use after revocation. */
export async function keyDetail(ctx: ViewContext, id: string) {
  const window = windowOrRecent(ctx);
  const filter = { keyId: id };
  const period = { ...periodOf(window), ...filter };
  const read = reads(ctx);
  const record = await ctx.stores.records.key(ctx.accountId, id);
  if (record && ctx.customerId !== undefined && record.customerId !== ctx.customerId) throw notFound(`No API key ${id} in this account.`);
  const revokedAt = record?.revokedAt ?? null;
  const [customer, ever, [totals], [throttled], routes, overTime, latest, afterRevocation] = await Promise.all([
    record ? ctx.stores.records.customer(ctx.accountId, record.customerId) : undefined,
    ctx.stores.telemetry.lastUsed(ctx.accountId, filter),
    read.latencyPerPeriod([periodOf(window)], filter),
    read.perPeriod([periodOf(window)], { ...filter, status: 429 }),
    read.countsByRoute(period),
    seriesOver(ctx, window, filter),
    ctx.stores.telemetry.requests(ctx.accountId, { limit: LATEST_REQUESTS, keyId: id }),
    revokedAt === null ? undefined : read.callers({ from: revokedAt, to: ctx.now + 1, ...filter }, ['keyId']),
  ]);
  const lastTs = ever.get(id) ?? null;
  // A key is known by its record or by the traffic that named it; any other id is none of this account's.
  if (!record && lastTs === null) throw notFound(`No API key ${id} in this account.`);
  const row = keyRow(ctx, {
    id,
    record,
    customer,
    requests: totals!.requests,
    errors: totals!.errors,
    p95Ms: totals!.p95Ms,
    throttled: throttled!.requests,
    lastTs,
  });
  const endpoints = [...routes].sort((a, b) => b.requests - a.requests || endpointLabel(a.method, a.route).localeCompare(endpointLabel(b.method, b.route)));
  const endpointShares = sharesPct(endpoints.map((r) => r.requests));
  const byVersion = new Map<string, number>();
  for (const r of routes) byVersion.set(r.apiVersion, (byVersion.get(r.apiVersion) ?? 0) + r.requests);
  const versions = [...byVersion].sort(([a, x], [b, y]) => y - x || (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  const versionShares = sharesPct(versions.map(([, requests]) => requests));
  const late = afterRevocation?.keys[0];
  return {
    ...row,
    window: windowOf(window),
    overTime,
    endpoints: endpoints.map((r, i) => ({
      id: endpointId(r.apiVersion, r.method, r.route),
      label: endpointLabel(r.method, r.route),
      apiVersion: r.apiVersion || null,
      requests: r.requests,
      sharePct: endpointShares[i]!,
    })),
    versions: versions.map(([version, requests], i) => ({ version: version || null, requests, sharePct: versionShares[i]! })),
    latestRequests: latest.map((r) => ({ ...entryOf(ctx)(r), afterRevocation: revokedAt !== null && r.ts >= revokedAt })),
    afterRevocation: revokedAt === null ? null : { requests: late?.requests ?? 0, lastAt: late ? isoSeconds(late.lastTs) : null },
  };
}
