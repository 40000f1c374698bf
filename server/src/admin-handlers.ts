/** What answers the admin API: the host's back office writes customers, keys, webhooks, activity and embed sessions. */
import type { Context, Handler } from 'hono';
import type { EmbedSessions } from './embed-sessions.ts';
import { activityInput, customerInput, deprecationInput, embedSessionInput, keyInput, rateLimitInput, versionInput, webhookInput } from './ingest.ts';
import { jsonBody, validate } from './json-body.ts';
import type { Stores } from './store/types.ts';
import * as admin from './views/admin.ts';
import type { AdminContext } from './views/admin.ts';

export interface AdminDependencies {
  stores: Stores;
  timeZone: string;
  now: () => number;
  embedSessions: EmbedSessions;
  /** Throws the 429 when the account minted too many sessions. */
  mintRate: (accountId: string) => Promise<void>;
}

type AdminRoute =
  | 'putCustomer'
  | 'putWebhook'
  | 'addActivity'
  | 'putRateLimit'
  | 'putKey'
  | 'putDeprecation'
  | 'addVersion'
  | 'endEmbedSession'
  | 'endCustomerEmbedSessions'
  | 'erasePayloads'
  | 'createEmbedSession';

export function createAdminHandlers<E extends { Variables: { accountId: string } }>({
  stores,
  timeZone,
  now,
  embedSessions,
  mintRate,
}: AdminDependencies): Record<AdminRoute, Handler<E>> {
  const context = (c: Context<E>): AdminContext => ({ stores, accountId: c.get('accountId'), timeZone, now: now() });
  /** The `{id}` of the route's path (every handler that reads it has one). */
  const idParam = (c: Context<E>): string => c.req.param('id') ?? '';
  const created = (c: Context<E>, { record, created }: { record: unknown; created: boolean }) => c.json(record, created ? 201 : 200);
  return {
    putCustomer: async (c) => created(c, await admin.putCustomer(context(c), idParam(c), validate(customerInput, await jsonBody(c.req.raw)))),
    putWebhook: async (c) => created(c, await admin.putWebhook(context(c), idParam(c), validate(webhookInput, await jsonBody(c.req.raw)))),
    addActivity: async (c) => c.json(await admin.addActivity(context(c), validate(activityInput, await jsonBody(c.req.raw))), 201),
    putRateLimit: async (c) => c.json(await admin.putRateLimit(context(c), idParam(c), validate(rateLimitInput, await jsonBody(c.req.raw)))),
    putKey: async (c) => created(c, await admin.putKey(context(c), idParam(c), validate(keyInput, await jsonBody(c.req.raw)))),
    putDeprecation: async (c) => created(c, await admin.putDeprecation(context(c), idParam(c), validate(deprecationInput, await jsonBody(c.req.raw)))),
    addVersion: async (c) => created(c, await admin.publishVersion(context(c), validate(versionInput, await jsonBody(c.req.raw)))),
    endEmbedSession: async (c) => {
      await admin.endEmbedSession(context(c), idParam(c));
      return c.body(null, 204);
    },
    endCustomerEmbedSessions: async (c) => {
      await admin.endCustomerEmbedSessions(context(c), idParam(c));
      return c.body(null, 204);
    },
    erasePayloads: async (c) => c.json(await admin.erasePayloads(context(c), idParam(c))),
    createEmbedSession: async (c) => {
      await mintRate(c.get('accountId'));
      return c.json(await admin.createEmbedSession(context(c), embedSessions, validate(embedSessionInput, await jsonBody(c.req.raw))), 201);
    },
  };
}
