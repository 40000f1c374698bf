/** The demo's data, put in the way a product would: over HTTP through the ingest, admin and console APIs. */
import { CUSTOMERS, REGISTERED_KEYS, demoEvent, random, requestsOnDay, type DemoEvent } from './traffic.ts';

export interface Api {
  origin: string;
  ingestKey: string;
  adminKey: string;
  token: string;
}

const DAY = 86_400_000;
const BATCH = 5_000;
const people = {
  ana: { id: 'u_ana', name: 'Ana Silva' },
  lee: { id: 'u_lee', name: 'Lee Park' },
  mia: { id: 'u_mia', name: 'Mia Chen' },
  omar: { id: 'u_omar', name: 'Omar Haddad' },
};

async function send(
  api: Api,
  path: string,
  body: unknown,
  { method = 'POST', token = path.startsWith('/admin/') ? api.adminKey : api.ingestKey, headers = {} } = {},
) {
  const response = await fetch(`${api.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

async function ingestAll(api: Api, events: DemoEvent[]) {
  for (let i = 0; i < events.length; i += BATCH) {
    const answer = await send(api, '/ingest/v1/requests', { events: events.slice(i, i + BATCH) });
    if ((answer['rejected'] as unknown[]).length) throw new Error(`backfill: ${JSON.stringify(answer['rejected']).slice(0, 300)}`);
  }
}

/** Fills a new database; answers undefined when it already holds data (a restart keeps what it has). */
export async function seed(api: Api, { perDay }: { perDay: number }): Promise<{ events: number } | undefined> {
  const existing = await (await fetch(`${api.origin}/console/v1/requests?limit=1`, { headers: { authorization: `Bearer ${api.token}` } })).json();
  if ((existing as { items: unknown[] }).items.length) return undefined;

  const rand = random(20260914);
  const now = Date.now();
  let total = 0;
  for (let daysAgo = 395; daysAgo >= 0; daysAgo--) {
    const dayStart = Math.floor(now / DAY) * DAY - daysAgo * DAY;
    const span = daysAgo === 0 ? now - dayStart : DAY;
    const count = Math.round(requestsOnDay(new Date(dayStart), daysAgo, perDay) * (span / DAY));
    const events = Array.from({ length: count }, () => demoEvent(rand, dayStart + Math.floor(rand() * span)));
    await ingestAll(api, events);
    total += count;
  }

  const created = { acme: '2025-03-02', globex: new Date(now - 70 * DAY).toISOString().slice(0, 10) };
  await send(
    api,
    '/admin/v1/customers/cus_acme',
    // Active: its own console (the customer page) runs on embed sessions, which a customer that is not Active is refused.
    { name: 'Acme Ltd', createdAt: created.acme, plan: 'Free', status: 'Active', owner: people.ana },
    { method: 'PUT' },
  );
  await send(
    api,
    '/admin/v1/customers/cus_globex',
    { name: 'Globex Corp', createdAt: created.globex, plan: 'Pro', status: 'Active', owner: people.mia },
    { method: 'PUT' },
  );
  for (const c of CUSTOMERS.slice(2))
    await send(
      api,
      `/admin/v1/customers/${c.id}`,
      { name: c.name, plan: 'Pro', status: c.id === 'cus_umbrella' ? 'Expired' : 'Active', owner: people.lee },
      { method: 'PUT' },
    );
  await send(
    api,
    '/admin/v1/webhooks/wh_invoice_paid',
    { name: 'invoice.paid', customer: { id: 'cus_acme', name: 'Acme Ltd' }, owner: people.ana, endpoints: ['POST /webhooks'] },
    { method: 'PUT' },
  );
  await send(
    api,
    '/admin/v1/webhooks/wh_message_failed',
    { name: 'message.failed', customer: { id: 'cus_globex', name: 'Globex Corp' }, owner: people.mia, endpoints: ['POST /messages'] },
    { method: 'PUT' },
  );
  const paid = [];
  const failed = [];
  for (let daysAgo = 365; daysAgo >= 1; daysAgo--) {
    for (let i = 0; i < 25; i++) paid.push({ webhookId: 'wh_invoice_paid', ts: now - daysAgo * DAY + i * 3_000_000, delivered: rand() > 0.008 });
    // Globex's receiver has been failing since last month: about one delivery in eight is lost.
    for (let i = 0; i < 6; i++)
      failed.push({ webhookId: 'wh_message_failed', ts: now - daysAgo * DAY + i * 9_000_000, delivered: rand() > (daysAgo < 40 ? 0.13 : 0.01) });
  }
  // One batch per webhook: the ingest API takes at most 10,000 items at once.
  for (const deliveries of [paid, failed]) await send(api, '/ingest/v1/webhook-deliveries', { deliveries });
  await send(
    api,
    '/console/v1/customers/cus_acme/notes',
    { text: 'Asked for a higher limit.' },
    { token: api.token, headers: { 'idempotency-key': 'seed-note-1' } },
  );
  const firstSeen = new Date(now - 40 * DAY).toISOString().slice(0, 10);
  await send(
    api,
    '/console/v1/errors',
    { code: 500, endpoint: 'POST /webhooks', count: 1, firstSeen, status: 'Open', notes: 'Retries pile up after the invoice run.' },
    { token: api.token, headers: { 'idempotency-key': 'seed-error-1' } },
  );
  // Through the admin API, as a product would: each adds its own activity item; the sunset's comes when it passes.
  await send(
    api,
    '/admin/v1/deprecations/dep_contacts_delete',
    {
      endpoint: 'DELETE /contacts',
      sunsetAt: now + 30 * DAY,
      replacement: 'POST /contacts/archive',
      docsUrl: 'https://docs.example.com/changelog/contacts-archive',
      actor: people.mia,
    },
    { method: 'PUT' },
  );
  await send(api, '/admin/v1/versions', { version: 'v2', publishedAt: now - 400 * DAY, docsUrl: 'https://docs.example.com/v2', actor: people.mia });
  await send(api, '/admin/v1/versions', { version: 'v3', publishedAt: now - 48 * 60_000, docsUrl: 'https://docs.example.com/v3', actor: people.mia });
  // The limits the sample API holds customers to; Acme's was raised from 600, which the feed says.
  await send(api, '/admin/v1/customers/cus_acme/limits', { requestsPerMinute: 600 }, { method: 'PUT' });
  for (const c of CUSTOMERS)
    await send(api, `/admin/v1/customers/${c.id}/limits`, { requestsPerMinute: c.requestsPerMinute, actor: people.lee }, { method: 'PUT' });
  // The keys, as the API's back office registers them: each new one tells the feed "<customer> created a new API key".
  for (const { id, createdDaysAgo, revokedDaysAgo, ...key } of REGISTERED_KEYS)
    await send(
      api,
      `/admin/v1/keys/${id}`,
      { ...key, createdAt: now - createdDaysAgo * DAY, ...(revokedDaysAgo === undefined ? {} : { revokedAt: now - revokedDaysAgo * DAY }) },
      { method: 'PUT' },
    );
  await send(api, '/admin/v1/activity', {
    actor: people.mia,
    kind: 'endpoint-deprecated',
    text: 'turned off the deprecated endpoint GET /v1/usage',
    at: now - 95 * 60_000,
  });
  await seedAlerts(api);
  return { events: total };
}

/** The demo receiver's secret: it checks each delivery's signature with it. */
export const DEMO_RECEIVER_SECRET = 'demo-receiver-secret-0123';

/**
 * Through the console API, as an editor would: a webhook channel to the demo's own receiver, a
 * rule on POST /webhooks's error rate (the live traffic's spike every ten minutes fires it, and
 * it resolves two minutes after), and the SLO of the whole API: 99.5 % available over 28 days.
 */
async function seedAlerts(api: Api) {
  const write = (path: string, body: unknown, key: string) => send(api, `/console/v1${path}`, body, { token: api.token, headers: { 'idempotency-key': key } });
  const endpoints = await (
    await fetch(`${api.origin}/console/v1/endpoints?q=/webhooks&sort=-requests`, { headers: { authorization: `Bearer ${api.token}` } })
  ).json();
  const webhooks = (endpoints as { items: { id: string; method: string; path: string }[] }).items.find((e) => e.method === 'POST' && e.path === '/webhooks');
  const channel = await write(
    '/alert-channels',
    { kind: 'webhook', name: 'Demo receiver', url: `${api.origin}/demo/alert-receiver`, secret: DEMO_RECEIVER_SECRET },
    'seed-channel-1',
  );
  if (webhooks)
    await write(
      '/alert-rules',
      {
        name: 'POST /webhooks failing',
        metric: 'errorRate',
        scope: { endpointId: webhooks.id },
        threshold: 15,
        window: '2m',
        for: '0m',
        channelIds: [channel['id']],
      },
      'seed-rule-1',
    );
  await write('/slos', { name: 'API available', objective: 'availability', targetPct: 99.5, period: '28d', channelIds: [channel['id']] }, 'seed-slo-1');
}
