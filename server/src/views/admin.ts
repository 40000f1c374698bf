/**
 * The admin API's writes: an API company's back office keeps the console's customers, webhooks,
 * deprecations, published versions and activity up to date, each with an admin key for one account.
 */
import type { z } from 'zod';
import { dayLabel } from '../calendar.ts';
import { MAX_EMBED_SESSION_SECONDS } from '@ops-console/contract/access';
import type { EmbedSessions, SessionCheck } from '../embed-sessions.ts';
import type { activityInput, customerInput, deprecationInput, embedSessionInput, keyInput, rateLimitInput, versionInput, webhookInput } from '../ingest.ts';
import { endpointId, isoSeconds, parseEndpointLabel } from '../context.ts';
import { INGEST_LIMITS } from '../limits.ts';
import { ProblemError, notFound, unprocessable } from '../problem.ts';
import type { ActivityRecord, DeprecationRecord, KeyRecord, PublishedVersion, Stores } from '../store/types.ts';
import { CONSOLE_ACTOR, recordActivity } from '../domain/activity-log.ts';
import { deprecatedEndpoint } from './deprecations.ts';

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

/**
 * Deprecates an endpoint until its sunset. A new deprecation adds "deprecated …" to the activity
 * feed in the same transaction; once the sunset passes, the server adds "turned off …" itself.
 */
export async function putDeprecation(ctx: AdminContext, id: string, input: z.infer<typeof deprecationInput>) {
  const { method, route } = parseEndpointLabel(input.endpoint)!;
  const actor = input.actor ?? CONSOLE_ACTOR;
  const record: Omit<DeprecationRecord, 'turnedOffAt'> = {
    id,
    method,
    route,
    apiVersion: input.apiVersion ?? null,
    sunsetAt: input.sunsetAt,
    replacement: input.replacement ?? null,
    docsUrl: input.docsUrl ?? null,
    actor,
  };
  return ctx.stores.records.atomically(async (records) => {
    const outcome = await records.upsertDeprecation(ctx.accountId, record);
    if (outcome === 'created')
      await recordActivity({ ...ctx.stores, records }, ctx.accountId, {
        kind: 'endpoint-deprecated',
        actor,
        text: `deprecated the endpoint ${deprecatedEndpoint(record)}, to be turned off on ${dayLabel(record.sunsetAt, ctx.timeZone)}`,
        ts: ctx.now,
        subject: id,
        // A row of GET /endpoints is one version's: only a deprecation of one version has a row to lead to.
        target: record.apiVersion === null ? null : { kind: 'endpoint', id: endpointId(record.apiVersion, method, route) },
      });
    return { record: { ...record, sunsetAt: isoSeconds(record.sunsetAt) }, created: outcome === 'created' };
  });
}

/** Records that a version's documentation was published; the first time, the feed says so (at the time it was published, or now if that is later). */
export async function publishVersion(ctx: AdminContext, input: z.infer<typeof versionInput>) {
  const record: PublishedVersion = { version: input.version, publishedAt: input.publishedAt, docsUrl: input.docsUrl ?? null };
  return ctx.stores.records.atomically(async (records) => {
    const outcome = await records.publishVersion(ctx.accountId, record);
    if (outcome === 'created')
      await recordActivity({ ...ctx.stores, records }, ctx.accountId, {
        kind: 'docs-published',
        actor: input.actor ?? CONSOLE_ACTOR,
        // "version 3" for v3, as people say it; any other name as it is.
        text: `published documentation for version ${record.version.replace(/^v(?=\d)/, '')}`,
        ts: Math.min(record.publishedAt, ctx.now),
        subject: `version ${record.version}`,
      });
    return { record: { ...record, publishedAt: isoSeconds(record.publishedAt) }, created: outcome === 'created' };
  });
}

/** Sets a customer's rate limit; a raise (not a first limit, nor a lower one) tells the feed "raised the rate limit for <customer>". */
export async function putRateLimit(ctx: AdminContext, customerId: string, input: z.infer<typeof rateLimitInput>) {
  return ctx.stores.records.atomically(async (records) => {
    const customer = await records.customer(ctx.accountId, customerId);
    if (!customer) throw notFound(`No customer ${customerId} in this account: register it with PUT /admin/v1/customers/${customerId} first.`);
    const previous = await records.setRateLimit(ctx.accountId, customerId, input.requestsPerMinute);
    if (previous !== undefined && input.requestsPerMinute > previous)
      await recordActivity({ ...ctx.stores, records }, ctx.accountId, {
        kind: 'rate-limit-raised',
        actor: input.actor ?? CONSOLE_ACTOR,
        text: `raised the rate limit for ${customer.name}`,
        ts: ctx.now,
        subject: customerId,
        target: { kind: 'customer', id: customerId },
      });
    return { customerId, requestsPerMinute: input.requestsPerMinute, previous: previous ?? null };
  });
}

/**
 * Erases the headers and bodies kept of a customer's requests, registered or only seen in
 * traffic; the requests and figures stay. The feed says "erased the request payloads of <customer>".
 */
export async function erasePayloads(ctx: AdminContext, customerId: string) {
  const erased = await ctx.stores.telemetry.erasePayloads(ctx.accountId, customerId);
  const customer = await ctx.stores.records.customer(ctx.accountId, customerId);
  await recordActivity(ctx.stores, ctx.accountId, {
    kind: 'payloads-erased',
    actor: CONSOLE_ACTOR,
    text: `erased the request payloads of ${customer?.name ?? customerId}`,
    ts: ctx.now,
    subject: customerId,
    target: { kind: 'customer', id: customerId },
  });
  return { customerId, erased };
}

/**
 * Creates or replaces an API key of a registered customer. A new key tells the feed "<customer>
 * created a new API key", at the time it was created (or now, if that is later).
 */
export async function putKey(ctx: AdminContext, id: string, input: z.infer<typeof keyInput>) {
  // Traffic names a key in at most this many characters: a longer id could never be matched.
  if (id.length > INGEST_LIMITS.id)
    throw unprocessable('The key was not accepted.', [{ field: 'id', message: `must be text of 1 to ${INGEST_LIMITS.id} characters` }]);
  return ctx.stores.records.atomically(async (records) => {
    const customer = await records.customer(ctx.accountId, input.customerId);
    if (!customer) throw notFound(`No customer ${input.customerId} in this account: register it with PUT /admin/v1/customers/${input.customerId} first.`);
    const existing = await records.key(ctx.accountId, id);
    const record: KeyRecord = {
      id,
      name: input.name,
      customerId: input.customerId,
      createdAt: input.createdAt ?? existing?.createdAt ?? ctx.now,
      revokedAt: input.revokedAt === undefined ? (existing?.revokedAt ?? null) : input.revokedAt,
    };
    const outcome = await records.upsertKey(ctx.accountId, record);
    if (outcome === 'created')
      await recordActivity({ ...ctx.stores, records }, ctx.accountId, {
        kind: 'key-created',
        actor: { id: customer.id, name: customer.name },
        text: 'created a new API key',
        ts: Math.min(record.createdAt, ctx.now),
        subject: id,
        target: { kind: 'key', id },
      });
    return {
      record: { ...record, createdAt: isoSeconds(record.createdAt), revokedAt: record.revokedAt === null ? null : isoSeconds(record.revokedAt) },
      created: outcome === 'created',
    };
  });
}

/** Mints an embed session for one of the account's customers: its console, and only its, until the session expires. */
/** The longest a session lives, in ms: an end is kept that long, then no session it ends can still be valid. */
const SESSION_LIFE_MS = MAX_EMBED_SESSION_SECONDS * 1000;

/** Ends one session of the account. Its id is not looked up (sessions are not stored): an id of another account ends nothing of it. */
export async function endEmbedSession(ctx: AdminContext, id: string) {
  if (!/^es_[\w-]{1,64}$/.test(id)) throw notFound(`No embed session ${id}: session ids start with es_.`);
  await ctx.stores.records.endEmbedSessions(ctx.accountId, `session:${id}`, ctx.now, ctx.now + SESSION_LIFE_MS);
}

/** Ends every session of the customer minted until now. */
export async function endCustomerEmbedSessions(ctx: AdminContext, customerId: string) {
  const customer = await ctx.stores.records.customer(ctx.accountId, customerId);
  if (!customer) throw notFound(`No customer ${customerId} in this account.`);
  await ctx.stores.records.endEmbedSessions(ctx.accountId, `customer:${customerId}`, ctx.now, ctx.now + SESSION_LIFE_MS);
}

/** Whether a session still holds: its customer is Active, and neither it nor its customer's sessions were ended after it was minted. */
export const sessionCheck =
  (stores: Stores): SessionCheck =>
  async ({ accountId, customerId, id, issuedMs }) => {
    const [customer, ends] = await Promise.all([
      stores.records.customer(accountId, customerId),
      stores.records.embedSessionEnds(accountId, [`session:${id}`, `customer:${customerId}`]),
    ]);
    if (ends.has(`session:${id}`) || (ends.get(`customer:${customerId}`) ?? -1) >= issuedMs) return 'ended';
    return customer?.status === 'Active' ? undefined : 'inactive';
  };

export async function createEmbedSession(ctx: AdminContext, sessions: EmbedSessions, input: z.infer<typeof embedSessionInput>) {
  const customer = await ctx.stores.records.customer(ctx.accountId, input.customerId);
  if (!customer) throw notFound(`No customer ${input.customerId} in this account: create it with PUT /admin/v1/customers/{id} first.`);
  if (customer.status !== 'Active')
    throw new ProblemError(409, 'Conflict', `${customer.name} is ${customer.status}: embed sessions are for Active customers only.`);
  const views = input.views && [...new Set(input.views)];
  const session = await sessions.mint({ accountId: ctx.accountId, customer, views, seconds: input.expiresInSeconds });
  return { ...session, customerId: customer.id, views: views ?? null };
}
