// Every console route answers what the elements' own zod schemas accept; every route keeps
// accounts apart; writes are idempotent and guarded by If-Match; CORS by allowlist.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as schema from '@ops-console/contract/schemas';
import type { ConsoleServer } from '../src/index.ts';
import { knownEvents, NOW } from './events.ts';
import { call, freshStoreConfig, ingest, openTestStores, startServer } from './harness.ts';
import { keptRequests } from './kept.ts';

let server: ConsoleServer;
const owner = { id: 'u_ana', name: 'Ana Silva' };

before(async () => {
  server = await startServer({ clock: () => new Date(NOW) });
  await ingest(server, knownEvents());
  const admin = (path: string, body: unknown, method = 'PUT') => call(server, path, { token: 'admin-a', method, body });
  assert.equal((await admin('/admin/v1/customers/cus_acme', { name: 'Acme Ltd', createdAt: '2025-03-02', plan: 'Free', status: 'Active', owner })).status, 201);
  assert.equal(
    (
      await admin('/admin/v1/webhooks/wh_invoice_paid', {
        name: 'invoice.paid',
        customer: { id: 'cus_acme', name: 'Acme Ltd' },
        owner,
        endpoints: ['POST /webhooks'],
      })
    ).status,
    201,
  );
  const deliveries = [true, true, true, false].map((delivered, i) => ({ webhookId: 'wh_invoice_paid', ts: `2026-09-1${i}T10:00:00Z`, delivered }));
  assert.equal((await call(server, '/ingest/v1/webhook-deliveries', { token: 'ingest-a', body: { deliveries } })).json.accepted, 4);
  assert.equal(
    (await admin('/admin/v1/activity', { kind: 'key-created', actor: owner, text: 'created a key for Acme Ltd', at: '2026-09-14T09:30:00Z' }, 'POST')).status,
    201,
  );
});
after(() => server.close());

async function createError(token = 'token-a', key?: string, body: Record<string, unknown> = {}) {
  return call(server, '/console/v1/errors', {
    token,
    headers: key ? { 'idempotency-key': key } : {},
    body: { code: 500, endpoint: 'POST /messages', count: 2, firstSeen: '2026-09-01', status: 'Open', notes: 'After deploy 214.', ...body },
  });
}

describe('conformance: every route, checked with the elements’ schemas', () => {
  const routes: [string, { parse(value: unknown): unknown }][] = [
    ['/console/v1/overview', schema.overview],
    ['/console/v1/endpoints', schema.endpointPage],
    ['/console/v1/endpoints?status=Failing&sort=-errorPct&limit=1', schema.endpointPage],
    ['/console/v1/requests?limit=5', schema.requestPage],
    ['/console/v1/requests?customerId=cus_acme&limit=5', schema.requestPage],
    ['/console/v1/requests?status=5xx&method=POST', schema.requestPage],
    ['/console/v1/requests/summary', schema.requestSummary],
    ['/console/v1/traffic', schema.traffic],
    ['/console/v1/overview?range=24h', schema.overview],
    ['/console/v1/endpoints?range=1h', schema.endpointPage],
    ['/console/v1/requests?range=7d&limit=5', schema.requestPage],
    ['/console/v1/requests?from=2026-09-13T00:00:00Z&to=2026-09-14T00:00:00Z', schema.requestPage],
    ['/console/v1/requests/summary?range=30d', schema.requestSummary],
    ['/console/v1/traffic?range=7d', schema.traffic],
    ['/console/v1/traffic?range=30d&customerId=cus_acme', schema.traffic],
    ['/console/v1/webhooks/wh_invoice_paid?range=30d', schema.webhook],
    ['/console/v1/traffic?from=2026-09-01T00:00:00Z&to=2026-09-04T00:00:00Z', schema.traffic],
    ['/console/v1/customers', schema.customerPage],
    ['/console/v1/customers?q=acme&sort=-requests&limit=1', schema.customerPage],
    ['/console/v1/customers/cus_acme', schema.customer],
    ['/console/v1/webhooks', schema.webhookPage],
    ['/console/v1/webhooks?q=acme&sort=-deliveredPct&limit=1', schema.webhookPage],
    ['/console/v1/webhooks/wh_invoice_paid', schema.webhook],
    ['/console/v1/errors', schema.errorPage],
    ['/console/v1/errors/options', schema.errorOptions],
    ['/console/v1/activity', schema.activityPage],
    ['/console/v1/versions', schema.versions],
    ['/console/v1/versions?range=24h', schema.versions],
    ['/console/v1/versions?from=2026-09-01T00:00:00Z&to=2026-09-04T00:00:00Z', schema.versions],
  ];
  for (const [path, check] of routes) {
    test(`GET ${path}`, async () => {
      const { status, json, headers } = await call(server, path, { token: 'token-a' });
      assert.equal(status, 200, JSON.stringify(json));
      assert.match(headers.get('content-type') ?? '', /application\/json/);
      check.parse(json);
    });
  }

  test('GET /requests/{id} for each of the latest requests', async () => {
    const { json } = await call(server, '/console/v1/requests?limit=5', { token: 'token-a' });
    assert.equal(json.items.length, 5);
    for (const entry of json.items) {
      const detail = await call(server, `/console/v1/requests/${entry.id}`, { token: 'token-a' });
      assert.equal(detail.status, 200);
      assert.deepEqual(schema.requestEntry.parse(schema.requestDetail.parse(detail.json)), entry, 'the detail repeats the log’s entry');
    }
  });

  test('POST /errors, GET /errors/{id} and PATCH /errors/{id} answer error records', async () => {
    const created = await createError();
    assert.equal(created.status, 201);
    const record = schema.errorRecord.parse(created.json);
    assert.equal(record.count, 2, 'counted from the events: two 500s on POST /messages since 1 Sep');
    assert.equal(record.monthly.months.at(-1), '2026-09');
    assert.equal(record.monthly.values.at(-1), 2);
    assert.equal(
      record.monthly.values.reduce((a, b) => a + b, 0),
      2,
      'nothing before it was first seen',
    );
    assert.equal(record.title, 'Server error');
    assert.equal(record.relatedEndpoints[0]?.label, 'POST /messages');
    schema.errorRecord.parse((await call(server, `/console/v1/errors/${record.id}`, { token: 'token-a' })).json);
    const patched = await call(server, `/console/v1/errors/${record.id}`, {
      token: 'token-a',
      method: 'PATCH',
      body: { status: 'Fixed' },
      headers: { 'if-match': '"1"' },
    });
    assert.equal(patched.status, 200);
    assert.equal(schema.errorRecord.parse(patched.json).version, 2);
  });

  test('POST /customers/{id}/notes answers the note and the customer gains "Note added"', async () => {
    const { status, json } = await call(server, '/console/v1/customers/cus_acme/notes', { token: 'token-a', body: { text: 'Asked for a higher limit.' } });
    assert.equal(status, 201);
    assert.equal(schema.note.parse(json).author.name, 'Ana Silva');
    const customer = schema.customer.parse((await call(server, '/console/v1/customers/cus_acme', { token: 'token-a' })).json);
    assert.equal(customer.notes[0]?.text, 'Asked for a higher limit.');
    assert.equal(customer.history[0]?.kind, 'Note added');
  });

  test('customer figures come from its traffic; webhook figures from its deliveries', async () => {
    const customer = (await call(server, '/console/v1/customers/cus_acme', { token: 'token-a' })).json;
    const acme = knownEvents().filter((e) => e.customerId === 'cus_acme' && Date.parse(e.ts) >= Date.parse(NOW) - 30 * 86_400_000);
    assert.equal(customer.requests, acme.length);
    assert.equal(customer.errorPct, Math.round((acme.filter((e) => e.status >= 500).length / acme.length) * 1000) / 10);
    const hook = (await call(server, '/console/v1/webhooks/wh_invoice_paid', { token: 'token-a' })).json;
    assert.equal(hook.deliveredPct, 75);
    assert.equal(hook.lastSentAt, '2026-09-13');
    assert.equal(hook.activity.values.at(-1), 4);
  });
});

describe('customer list', () => {
  test('lists every upserted customer with the figures of its recent requests, searched and sorted, paged by cursor', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(own, knownEvents());
      const upsert = (id: string, name: string, createdAt: string) =>
        call(own, `/admin/v1/customers/${id}`, { token: 'admin-a', method: 'PUT', body: { name, createdAt, plan: 'Free', status: 'Active', owner } });
      await upsert('cus_acme', 'Acme Ltd', '2025-03-02');
      await upsert('cus_globex', 'Globex Corp', '2026-09-01');
      await upsert('cus_quiet', 'Quiet Co', '2024-01-15');
      const recent = knownEvents().filter((e) => Date.parse(e.ts) >= Date.parse(NOW) - 30 * 86_400_000 && Date.parse(e.ts) <= Date.parse(NOW));
      const figures = (id: string) => {
        const mine = recent.filter((e) => e.customerId === id);
        return { requests: mine.length, errorPct: mine.length ? Math.round((mine.filter((e) => e.status >= 500).length / mine.length) * 1000) / 10 : 0 };
      };
      const list = async (query: string) => {
        const { status, json } = await call(own, `/console/v1/customers${query}`, { token: 'token-a' });
        assert.equal(status, 200);
        return schema.customerPage.parse(json);
      };
      const all = await list('');
      assert.deepEqual(
        all.items.map((c) => ({ id: c.id, requests: c.requests, errorPct: c.errorPct })),
        ['cus_acme', 'cus_globex', 'cus_quiet'].map((id) => ({ id, ...figures(id) })),
        'by name, A–Z; a customer without requests shows 0',
      );
      assert.ok(figures('cus_acme').requests > 0);
      assert.deepEqual(
        (await list('?q=GLOB')).items.map((c) => c.id),
        ['cus_globex'],
      );
      assert.deepEqual(
        (await list('?q=cus_q')).items.map((c) => c.id),
        ['cus_quiet'],
        'the id matches too',
      );
      const byRequests = ['cus_acme', 'cus_globex', 'cus_quiet'].sort((a, b) => figures(b).requests - figures(a).requests || a.localeCompare(b));
      assert.deepEqual(
        (await list('?sort=-requests')).items.map((c) => c.id),
        byRequests,
      );
      assert.deepEqual(
        (await list('?sort=createdAt')).items.map((c) => c.id),
        ['cus_quiet', 'cus_acme', 'cus_globex'],
      );
      const first = await list('?sort=-createdAt&limit=2');
      assert.deepEqual(
        first.items.map((c) => c.id),
        ['cus_globex', 'cus_acme'],
      );
      assert.deepEqual(
        (await list(`?sort=-createdAt&limit=2&cursor=${first.nextCursor}`)).items.map((c) => c.id),
        ['cus_quiet'],
      );
      assert.equal((await call(own, '/console/v1/customers?sort=plan', { token: 'token-a' })).status, 400);
      assert.deepEqual((await call(own, '/console/v1/customers', { token: 'token-b' })).json.items, [], 'another account sees none');
    } finally {
      await own.close();
    }
  });
});

describe('endpoint detail', () => {
  const nearestRank = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1] ?? 0;
  const recent = (e: { ts: string }) => Date.parse(e.ts) >= Date.parse(NOW) - 30 * 86_400_000 && Date.parse(e.ts) <= Date.parse(NOW);
  const isMessagesV1 = (e: { method: string; route: string; apiVersion?: string }) => e.method === 'POST' && e.route === '/messages' && e.apiVersion === 'v1';

  async function messagesRow() {
    const rows = schema.endpointPage.parse((await call(server, '/console/v1/endpoints?limit=500', { token: 'token-a' })).json).items;
    return rows.find((r) => r.method === 'POST' && r.path === '/messages' && r.apiVersion === 'v1')!;
  }

  test('is the row of GET /endpoints with its 30 days, status codes and busiest customers, computed from the events', async () => {
    const row = await messagesRow();
    const { status, json } = await call(server, `/console/v1/endpoints/${row.id}`, { token: 'token-a' });
    assert.equal(status, 200, JSON.stringify(json));
    const detail = schema.endpointDetail.parse(json);
    const mine = knownEvents().filter((e) => isMessagesV1(e) && recent(e));
    assert.ok(mine.length > 0);
    const { daily, statusCodes, topCustomers, ...figures } = detail;
    assert.deepEqual(figures, row, 'the same figures as its row');
    assert.equal(detail.requests, mine.length);
    assert.equal(
      detail.p95Ms,
      nearestRank(
        mine.map((e) => e.durationMs),
        0.95,
      ),
    );

    const days = Array.from({ length: 30 }, (_, i) => new Date(Date.parse('2026-09-14T00:00:00Z') - (29 - i) * 86_400_000).toISOString().slice(0, 10));
    assert.deepEqual(daily.days, days, 'the 30 calendar days ending today (UTC here)');
    const onDay = (day: string) => knownEvents().filter((e) => isMessagesV1(e) && e.ts.startsWith(day));
    assert.deepEqual(
      daily.requests,
      days.map((d) => onDay(d).length),
    );
    assert.deepEqual(
      daily.errors,
      days.map((d) => onDay(d).filter((e) => e.status >= 500).length),
    );
    assert.deepEqual(
      daily.p95Ms,
      days.map((d) =>
        onDay(d).length
          ? nearestRank(
              onDay(d).map((e) => e.durationMs),
              0.95,
            )
          : null,
      ),
      'a day without requests has no p95',
    );
    assert.ok(daily.p95Ms.includes(null));
    assert.ok(daily.requests.some((n) => n > 0));

    const codes = new Map<number, number>();
    for (const e of mine) codes.set(e.status, (codes.get(e.status) ?? 0) + 1);
    assert.deepEqual(
      statusCodes,
      [...codes].map(([code, requests]) => ({ status: code, requests })).sort((a, b) => b.requests - a.requests || a.status - b.status),
    );

    const perCustomer = new Map<string, number>();
    for (const e of mine) if (e.customerId) perCustomer.set(e.customerId, (perCustomer.get(e.customerId) ?? 0) + 1);
    assert.deepEqual(
      topCustomers,
      [...perCustomer]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([id, requests]) => ({ id, name: id === 'cus_acme' ? 'Acme Ltd' : id, requests })),
      "named from the customer's record, else by id",
    );
  });

  test('an unknown id, or another account’s, is a 404', async () => {
    const row = await messagesRow();
    assert.equal((await call(server, '/console/v1/endpoints/ep_nothing', { token: 'token-a' })).status, 404);
    assert.equal((await call(server, `/console/v1/endpoints/${row.id}`, { token: 'token-b' })).status, 404);
  });

  test('GET /requests lists one endpoint’s requests (endpointId) or one customer’s (customerId)', async () => {
    const row = await messagesRow();
    const list = async (query: string) =>
      schema.requestPage.parse((await call(server, `/console/v1/requests?limit=500&${query}`, { token: 'token-a' })).json).items;
    const isoOf = (ts: string) => new Date(ts).toISOString().replace('.000', '');
    const newestFirst = (events: { ts: string }[]) =>
      events
        .map((e) => isoOf(e.ts))
        .sort()
        .reverse();
    assert.deepEqual(
      (await list(`endpointId=${row.id}`)).map((r) => r.time),
      newestFirst(knownEvents().filter(isMessagesV1)),
    );
    assert.deepEqual(
      (await list('customerId=cus_acme')).map((r) => r.time),
      newestFirst(knownEvents().filter((e) => e.customerId === 'cus_acme')),
    );
    assert.deepEqual(await list(`endpointId=${row.id}&method=GET`), [], 'a method the endpoint does not have');
    assert.deepEqual(await list('endpointId=ep_nothing'), []);
  });

  test('GET /requests/summary sums one endpoint’s requests (endpointId) or one customer’s (customerId)', async () => {
    const row = await messagesRow();
    const summary = async (query: string) =>
      schema.requestSummary.parse((await call(server, `/console/v1/requests/summary?${query}`, { token: 'token-a' })).json).groups;
    const byStatus = (events: { status: number }[]) => {
      const counts = new Map<number, number>();
      for (const e of events) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
      return counts;
    };
    const ofEndpoint = await summary(`endpointId=${row.id}`);
    assert.ok(ofEndpoint.length > 0);
    assert.ok(ofEndpoint.every((g) => g.method === 'POST' && g.path === '/messages'));
    assert.deepEqual(new Set(ofEndpoint.map((g) => g.status)), new Set(byStatus(knownEvents().filter((e) => isMessagesV1(e) && recent(e))).keys()));
    const ofAcme = await summary('customerId=cus_acme');
    const acme = knownEvents().filter((e) => e.customerId === 'cus_acme' && recent(e));
    assert.deepEqual(ofAcme.map((g) => `${g.method} ${g.path} ${g.status}`).sort(), [...new Set(acme.map((e) => `${e.method} ${e.route} ${e.status}`))].sort());
    assert.deepEqual(await summary('endpointId=ep_nothing'), []);
  });

  test('GET /errors lists one endpoint’s records (endpoint)', async () => {
    await createError('token-a', undefined, { endpoint: 'GET /contacts/{id}', code: 404 });
    const all = schema.errorPage.parse((await call(server, '/console/v1/errors?limit=500', { token: 'token-a' })).json).items;
    const only = schema.errorPage.parse(
      (await call(server, `/console/v1/errors?limit=500&endpoint=${encodeURIComponent('GET /contacts/{id}')}`, { token: 'token-a' })).json,
    ).items;
    assert.ok(only.length > 0);
    assert.deepEqual(
      only,
      all.filter((r) => r.endpoint === 'GET /contacts/{id}'),
    );
  });
});

describe('webhook list', () => {
  test('lists every registered webhook with the figures of its deliveries, searched and sorted, paged by cursor', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      const register = (id: string, name: string, customer: { id: string; name: string }) =>
        call(own, `/admin/v1/webhooks/${id}`, { token: 'admin-a', method: 'PUT', body: { name, customer, owner, endpoints: ['POST /webhooks'] } });
      const acme = { id: 'cus_acme', name: 'Acme Ltd' };
      await register('wh_paid', 'invoice.paid', acme);
      await register('wh_failed', 'message.failed', { id: 'cus_globex', name: 'Globex Corp' });
      await register('wh_quiet', 'contact.created', acme);
      const outcomes: Record<string, boolean[]> = { wh_paid: [true, true, true, false], wh_failed: [true, false, false] };
      const deliveries = Object.entries(outcomes).flatMap(([webhookId, delivered]) =>
        delivered.map((ok, i) => ({ webhookId, ts: `2026-09-0${i + 1}T10:00:00Z`, delivered: ok })),
      );
      assert.equal((await call(own, '/ingest/v1/webhook-deliveries', { token: 'ingest-a', body: { deliveries } })).json.accepted, 7);
      const list = async (query: string) => {
        const { status, json } = await call(own, `/console/v1/webhooks${query}`, { token: 'token-a' });
        assert.equal(status, 200, JSON.stringify(json));
        return schema.webhookPage.parse(json);
      };
      const pct = (id: string) => {
        const sent = outcomes[id] ?? [];
        return sent.length ? Math.round((sent.filter(Boolean).length / sent.length) * 1000) / 10 : 100;
      };
      const today = new Date(NOW).toISOString().slice(0, 10);
      const all = await list('');
      assert.deepEqual(
        all.items.map((w) => ({ id: w.id, deliveredPct: w.deliveredPct, lastSentAt: w.lastSentAt, status: w.status, customer: w.customer.name })),
        [
          { id: 'wh_quiet', deliveredPct: pct('wh_quiet'), lastSentAt: today, status: 'Healthy', customer: 'Acme Ltd' },
          { id: 'wh_paid', deliveredPct: pct('wh_paid'), lastSentAt: '2026-09-04', status: 'Failing', customer: 'Acme Ltd' },
          { id: 'wh_failed', deliveredPct: pct('wh_failed'), lastSentAt: '2026-09-03', status: 'Failing', customer: 'Globex Corp' },
        ],
        'by name, A–Z; a webhook never called shows 100 % and the day it was registered',
      );
      assert.deepEqual(
        (await list('?q=GLOBEX')).items.map((w) => w.id),
        ['wh_failed'],
        "the customer's name matches",
      );
      assert.deepEqual(
        (await list('?q=wh_p')).items.map((w) => w.id),
        ['wh_paid'],
        'the id matches',
      );
      assert.deepEqual(
        (await list('?sort=deliveredPct')).items.map((w) => w.id),
        ['wh_failed', 'wh_paid', 'wh_quiet'].sort((a, b) => pct(a) - pct(b)),
      );
      assert.deepEqual(
        (await list('?sort=-lastSentAt')).items.map((w) => w.id),
        ['wh_quiet', 'wh_paid', 'wh_failed'],
      );
      const first = await list('?sort=-name&limit=2');
      assert.deepEqual(
        first.items.map((w) => w.id),
        ['wh_failed', 'wh_paid'],
      );
      assert.deepEqual(
        (await list(`?sort=-name&limit=2&cursor=${first.nextCursor}`)).items.map((w) => w.id),
        ['wh_quiet'],
      );
      assert.equal((await call(own, '/console/v1/webhooks?sort=status', { token: 'token-a' })).status, 400);
      assert.deepEqual((await call(own, '/console/v1/webhooks', { token: 'token-b' })).json.items, [], 'another account sees none');
    } finally {
      await own.close();
    }
  });
});

describe('request detail', () => {
  test('is the request as the collector recorded it: route, version, key, customer, size and the kept headers', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      const sent = [
        {
          ts: '2026-09-14T09:41:00Z',
          method: 'POST',
          route: '/webhooks/{id}',
          path: '/webhooks/wh_9',
          status: 500,
          durationMs: 1240,
          apiVersion: 'v3',
          keyId: 'key_live_1',
          customerId: 'cus_acme',
          actor: { id: 'u_lee', name: 'Lee Park' },
          bytes: 214,
          headers: { 'user-agent': 'acme-billing/2.4', authorization: '[masked]' },
        },
        { ts: '2026-09-14T09:42:00Z', method: 'GET', route: '/usage', path: '/usage', status: 200, durationMs: 8, customerId: 'cus_unknown' },
        { ts: '2026-09-14T09:43:00Z', method: 'GET', route: '/health', path: '/health', status: 204, durationMs: 1 },
      ];
      await ingest(own, sent);
      await call(own, '/admin/v1/customers/cus_acme', {
        token: 'admin-a',
        method: 'PUT',
        body: { name: 'Acme Ltd', createdAt: '2025-03-02', plan: 'Free', status: 'Active', owner },
      });
      const log = (await call(own, '/console/v1/requests', { token: 'token-a' })).json.items as { id: string; time: string }[];
      const rows = (await call(own, '/console/v1/endpoints', { token: 'token-a' })).json.items as {
        id: string;
        method: string;
        path: string;
        apiVersion?: string;
      }[];
      const detailOf = async (ts: string) =>
        schema.requestDetail.parse(
          (await call(own, `/console/v1/requests/${log.find((r) => r.time === ts.replace('.000', ''))!.id}`, { token: 'token-a' })).json,
        );

      const full = await detailOf(sent[0]!.ts);
      assert.deepEqual(
        { ...full, id: undefined },
        {
          id: undefined,
          method: 'POST',
          path: '/webhooks/wh_9',
          route: '/webhooks/{id}',
          status: 500,
          durationMs: 1240,
          time: '2026-09-14T09:41:00Z',
          actor: { id: 'u_lee', name: 'Lee Park' },
          endpointId: rows.find((r) => r.method === 'POST' && r.path === '/webhooks/{id}' && r.apiVersion === 'v3')!.id,
          apiVersion: 'v3',
          keyId: 'key_live_1',
          customer: { id: 'cus_acme', name: 'Acme Ltd' },
          bytes: 214,
          headers: [
            { name: 'user-agent', value: 'acme-billing/2.4' },
            { name: 'authorization', value: '[masked]' },
          ],
          responseHeaders: null,
          requestBody: null,
          responseBody: null,
          payload: 'kept',
        },
      );
      // A customer the host never upserted is shown by its id; nothing recorded is null or empty, never made up.
      const usage = await detailOf(sent[1]!.ts);
      assert.deepEqual(usage.customer, { id: 'cus_unknown', name: 'cus_unknown' });
      assert.equal(usage.endpointId, rows.find((r) => r.path === '/usage')!.id);
      const bare = await detailOf(sent[2]!.ts);
      assert.deepEqual([bare.apiVersion, bare.keyId, bare.customer, bare.bytes, bare.headers, bare.payload], [null, null, null, null, null, 'none']);
      assert.deepEqual(bare.actor, { id: 'anonymous', name: 'Anonymous' });

      for (const id of ['rq_999999', 'rq_abc', 'summaryx', 'rq_1e3', 'rq_1', 'rq_0000000000000001']) {
        const missing = await call(own, `/console/v1/requests/${id}`, { token: 'token-a' });
        assert.equal(missing.status, 404, id);
        assert.match(missing.headers.get('content-type') ?? '', /application\/problem\+json/);
      }
    } finally {
      await own.close();
    }
  });
});

describe('writes with a bearer token', () => {
  test('are not refused for a cookie of the page beside it (analytics): the token is no ambient credential', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(own, knownEvents());
      const created = await call(own, '/console/v1/errors', {
        token: 'token-a',
        headers: { cookie: 'analytics=1', origin: 'https://elsewhere.example' },
        body: { code: 500, endpoint: 'POST /messages', count: 1, firstSeen: '2026-09-01', status: 'Open' },
      });
      assert.equal(created.status, 201, created.text);
    } finally {
      await own.close();
    }
  });
});

describe('request ids', () => {
  test('say nothing of another account’s traffic: opaque, per account, stable across servers of one store, in cursors too', async () => {
    const config = freshStoreConfig();
    const first = await startServer({ ...config, clock: () => new Date(NOW) });
    const second = await startServer({ ...(config.store ? { store: first.stores } : config), clock: () => new Date(NOW) });
    try {
      // A's second request a second later: on ClickHouse, requests of one millisecond from separate batches come in no particular order.
      const event = (path: string, ts = '2026-09-14T09:40:00Z') => ({ ts, method: 'GET', route: '/ids', path, status: 200, durationMs: 1 });
      await ingest(first, [event('/ids/a1')]);
      await ingest(
        first,
        Array.from({ length: 100 }, (_, i) => event(`/ids/b${i}`)),
        'ingest-b',
      );
      await ingest(first, [event('/ids/a2', '2026-09-14T09:40:01Z')]);
      const page = (server: ConsoleServer, query = '') => call(server, `/console/v1/requests?path=/ids/&limit=1${query}`, { token: 'token-a' });
      const newest = await page(first);
      const [a2] = newest.json.items;
      const [a1] = (await page(first, `&cursor=${newest.json.nextCursor}`)).json.items;
      assert.deepEqual([a2.path, a1.path], ['/ids/a2', '/ids/a1'], 'the cursor pages on');
      const [storedA2, storedA1] = await keptRequests(first.stores.telemetry, 'acct_a', { limit: 2, pathContains: '/ids/' });
      const asNumber = (id: string) => BigInt(`0x${id.slice(3)}`);
      if (config.store) {
        // DuckDB numbers every account's requests with one counter; the ids hide it.
        for (const id of [a1.id, a2.id]) assert.match(id, /^rq_[0-9a-f]{16}$/);
        assert.equal(storedA2!.seq - storedA1!.seq, 101, 'B’s hundred requests came between A’s two');
        assert.notEqual(asNumber(a1.id), BigInt(storedA1!.seq));
      } else {
        // ClickHouse has no counter: each id is the request's millisecond and a random tag.
        for (const [id, time] of [
          [a1.id, '2026-09-14T09:40:00Z'],
          [a2.id, '2026-09-14T09:40:01Z'],
        ]) {
          assert.match(id, /^rq_[0-9a-f]{25}$/);
          assert.equal(parseInt(id.slice(3, 15), 16), Date.parse(time), 'the request’s own time');
        }
        for (const stored of [storedA1!, storedA2!]) assert.ok(stored.seq >= 2 ** 52 && Number.isSafeInteger(stored.seq), `a tag: ${stored.seq}`);
        // The time in the id bounds the lookup: the same tag a millisecond later is no request.
        const later = `rq_${(parseInt(a1.id.slice(3, 15), 16) + 1).toString(16).padStart(12, '0')}${a1.id.slice(15)}`;
        assert.equal((await call(second, `/console/v1/requests/${later}`, { token: 'token-a' })).status, 404);
      }
      assert.notEqual(asNumber(a2.id) - asNumber(a1.id), 101n, 'the ids do not show the gap');
      assert.match(
        Buffer.from(newest.json.nextCursor, 'base64url').toString(),
        /^r:\d+:rq_(?:[0-9a-f]{16}|[0-9a-f]{25})$/,
        'the cursor holds the opaque id, not the position',
      );
      assert.equal((await page(second)).json.items[0].id, a2.id, 'another server of the store gives the same id');
      assert.equal((await call(second, `/console/v1/requests/${a1.id}`, { token: 'token-a' })).json.path, '/ids/a1');
      assert.equal((await call(first, `/console/v1/requests/${a1.id}`, { token: 'token-b' })).status, 404, 'not another account’s');
      // A cursor the server did not give out is refused, or, when its id happens to stand for a
      // place (any tag, and one position id in 2,048 under the store's secret), it pages this
      // account's own log from there: never an error, never another account's request.
      for (const id of ['rq_0000000000000005', `rq_${'0'.repeat(24)}5`]) {
        const forged = await page(first, `&cursor=${Buffer.from(`r:1789379999000:${id}`).toString('base64url')}`);
        assert.ok([200, 400].includes(forged.status), `${id}: ${forged.status}`);
        if (forged.status === 200)
          assert.deepEqual(
            (forged.json.items as { path: string }[]).map((r) => r.path),
            ['/ids/a2'],
            id,
          );
      }
    } finally {
      if (config.store) await first.close();
      else await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('error list sorting', () => {
  test('sorts by count or first seen, either way, ties in the default order, and pages through the sorted list', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(own, knownEvents());
      const created: { id: string; firstSeen: string }[] = [];
      for (const firstSeen of ['2026-09-01', '2026-09-12', '2026-08-15']) {
        const answer = await call(own, '/console/v1/errors', {
          token: 'token-a',
          headers: { 'idempotency-key': `sort-${firstSeen}` },
          body: { code: 500, endpoint: 'POST /messages', count: 1, firstSeen, status: 'Open' },
        });
        assert.equal(answer.status, 201, answer.text);
        created.push({ id: answer.json.id, firstSeen });
      }
      // Computed from the events: server errors on POST /messages since the day each was first seen.
      const countOf = (firstSeen: string) =>
        knownEvents().filter((e) => e.method === 'POST' && e.route === '/messages' && e.status === 500 && e.ts >= `${firstSeen}T00:00:00`).length;
      const [a, b, c] = created.map((r) => ({ ...r, count: countOf(r.firstSeen) }));
      assert.deepEqual([a!.count, b!.count, c!.count], [2, 0, 2]);
      const ids = async (sort: string, limit = 50) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { status: number; json: { items: { id: string }[]; nextCursor: string | null } } = await call(
            own,
            `/console/v1/errors?limit=${limit}${sort ? `&sort=${sort}` : ''}${cursor ? `&cursor=${cursor}` : ''}`,
            { token: 'token-a' },
          );
          assert.equal(page.status, 200);
          schema.errorPage.parse(page.json);
          seen.push(...page.json.items.map((r) => r.id));
          cursor = page.json.nextCursor;
        } while (cursor);
        return seen;
      };
      // Ties keep the default order (newest recorded first; under this fixed clock all were recorded at once).
      const unsorted = await ids('');
      const count = new Map([a!, b!, c!].map((r) => [r.id, r.count]));
      const stable = (compare: (x: string, y: string) => number) => [...unsorted].sort(compare);
      assert.deepEqual(
        await ids('-count'),
        stable((x, y) => count.get(y)! - count.get(x)!),
      );
      assert.deepEqual(
        await ids('count'),
        stable((x, y) => count.get(x)! - count.get(y)!),
      );
      assert.deepEqual(await ids('firstSeen'), [c!.id, a!.id, b!.id]);
      assert.deepEqual(await ids('-firstSeen', 1), [b!.id, a!.id, c!.id], 'one per page, following the cursor');
      const bad = await call(own, '/console/v1/errors?sort=title', { token: 'token-a' });
      assert.equal(bad.status, 400);
      assert.match(bad.json.detail, /count, -count, firstSeen, -firstSeen/);
    } finally {
      await own.close();
    }
  });
});

describe('paging', () => {
  test('request log pages follow nextCursor without a gap or a repeat, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page: { items: { id: string; time: string }[]; nextCursor: string | null } = (
        await call(server, `/console/v1/requests?limit=7${query}`, { token: 'token-a' })
      ).json;
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    const all = knownEvents().filter((e) => Date.parse(e.ts) <= Date.parse(NOW));
    assert.equal(seen.length, all.length);
    assert.equal(new Set(seen).size, seen.length);
  });

  test('the newest page and the next are exact when the newest requests lie minutes, hours and days apart', async () => {
    const local = await startServer();
    try {
      const ago = (minutes: number, i: number) => ({
        ts: new Date(Date.now() - minutes * 60_000).toISOString(),
        method: 'GET',
        route: '/spread',
        path: `/spread/${minutes}`,
        status: 200,
        durationMs: i + 1,
      });
      // 2 in the last hour, 3 a few hours back, 3 days back, 2 two months back.
      const minutes = [5, 20, 150, 200, 300, 3 * 1440, 3 * 1440 + 10, 3 * 1440 + 20, 60 * 1440, 61 * 1440];
      await ingest(local, minutes.map(ago));
      const page = async (query: string) => (await call(local, `/console/v1/requests?limit=4${query}`, { token: 'token-a' })).json;
      const first = await page('');
      assert.deepEqual(
        first.items.map((r: { path: string }) => r.path),
        ['/spread/5', '/spread/20', '/spread/150', '/spread/200'],
      );
      const second = await page(`&cursor=${encodeURIComponent(first.nextCursor)}`);
      assert.deepEqual(
        second.items.map((r: { path: string }) => r.path),
        ['/spread/300', '/spread/4320', '/spread/4330', '/spread/4340'],
      );
      const third = await page(`&cursor=${encodeURIComponent(second.nextCursor)}`);
      assert.deepEqual(
        third.items.map((r: { path: string }) => r.path),
        ['/spread/86400', '/spread/87840'],
      );
      assert.equal(third.nextCursor, null);
    } finally {
      await local.close();
    }
  });

  test('since returns only newer entries', async () => {
    const { json } = await call(server, '/console/v1/requests?since=2026-09-14T09:01:00Z', { token: 'token-a' });
    assert.deepEqual(
      json.items.map((r: { time: string }) => r.time),
      ['2026-09-14T09:03:00Z', '2026-09-14T09:02:00Z'],
    );
  });

  test('an unknown traffic range, however it is spelled, is a clear 400', async () => {
    for (const range of ['7y', 'constructor', '__proto__', 'toString']) {
      const { status, json } = await call(server, `/console/v1/traffic?range=${range}`, { token: 'token-a' });
      assert.equal(status, 400, range);
      assert.match(json.detail, /range must be one of/);
    }
  });

  test('a bad limit or cursor is a clear 400', async () => {
    for (const query of ['limit=0', 'limit=501', 'limit=abc', 'cursor=bm9wZQ']) {
      const { status, headers, json } = await call(server, `/console/v1/requests?${query}`, { token: 'token-a' });
      assert.equal(status, 400, query);
      assert.equal(headers.get('content-type'), 'application/problem+json');
      assert.ok(json.detail.length > 10);
    }
  });
});

describe('request search', () => {
  test('q finds requests whose path holds every word, any case and literally, with the log’s other filters and only in the token’s account', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      const at = (minute: number) => `2026-09-14T09:${String(minute).padStart(2, '0')}:00Z`;
      const event = (minute: number, path: string, status = 200) => ({ ts: at(minute), method: 'POST', route: '/orders/{id}', path, status, durationMs: 5 });
      await ingest(own, [
        event(1, '/orders/ORD-7731/refund', 500),
        event(2, '/orders/ord-7731'),
        event(3, '/orders/ORD-7732'),
        event(4, '/files/100%_done'),
        event(5, '/files/100x_done'),
        event(6, '/users/Åsa/ORD-7731'),
      ]);
      await ingest(own, [event(7, '/orders/ORD-7731')], 'ingest-b');
      const found = async (query: string, token = 'token-a') => {
        const { status, json } = await call(own, `/console/v1/requests?${query}`, { token });
        assert.equal(status, 200, query);
        return (json.items as { path: string }[]).map((r) => r.path);
      };
      assert.deepEqual(await found('q=ord-7731'), ['/users/Åsa/ORD-7731', '/orders/ord-7731', '/orders/ORD-7731/refund']);
      assert.deepEqual(await found(`q=${encodeURIComponent('  REFUND   ord-7731 ')}`), ['/orders/ORD-7731/refund']);
      assert.deepEqual(await found('q=ord-7731&status=5xx'), ['/orders/ORD-7731/refund']);
      assert.deepEqual(await found(`q=${encodeURIComponent('100%_')}`), ['/files/100%_done'], 'no wildcards');
      assert.deepEqual(await found(`q=${encodeURIComponent('åsa')}`), ['/users/Åsa/ORD-7731'], 'any case beyond ASCII');
      assert.deepEqual(await found('q=ord-7731', 'token-b'), ['/orders/ORD-7731'], 'another account’s search finds its own only');
      const many = await call(own, `/console/v1/requests?q=${Array.from({ length: 9 }, (_, i) => `w${i}`).join('+')}`, { token: 'token-a' });
      assert.equal(many.status, 400);
      assert.match(many.json.detail, /at most 8 words/);
    } finally {
      await own.close();
    }
  });
});

describe('tenancy: a token of account B never reads or writes account A', () => {
  const readRoutes = [
    '/console/v1/overview',
    '/console/v1/endpoints',
    '/console/v1/requests',
    '/console/v1/requests/summary',
    '/console/v1/traffic',
    '/console/v1/errors',
    '/console/v1/errors/options',
    '/console/v1/activity',
  ];
  test('lists and figures of B show none of A’s data', async () => {
    const b = Object.fromEntries(await Promise.all(readRoutes.map(async (path) => [path, (await call(server, path, { token: 'token-b' })).json])));
    assert.equal(b['/console/v1/overview'].figures.requestsThisMonth.value, 0);
    assert.deepEqual(b['/console/v1/overview'].requestsByEndpoint, []);
    for (const path of ['/console/v1/endpoints', '/console/v1/requests', '/console/v1/errors', '/console/v1/activity'])
      assert.deepEqual(b[path].items, [], path);
    assert.deepEqual(b['/console/v1/requests/summary'].groups, []);
    assert.equal(b['/console/v1/traffic'].metrics.requests.value, 0);
    assert.deepEqual(b['/console/v1/errors/options'].endpoints, []);
  });

  test('A’s records are not found for B, and B cannot write to them', async () => {
    const created = await createError('token-a');
    const request = (await call(server, '/console/v1/requests?limit=1', { token: 'token-a' })).json.items[0].id;
    for (const path of [
      '/console/v1/customers/cus_acme',
      '/console/v1/webhooks/wh_invoice_paid',
      `/console/v1/errors/${created.json.id}`,
      `/console/v1/requests/${request}`,
    ]) {
      assert.equal((await call(server, path, { token: 'token-b' })).status, 404, path);
    }
    assert.equal((await call(server, '/console/v1/customers/cus_acme/notes', { token: 'token-b', body: { text: 'x' } })).status, 404);
    const patch = await call(server, `/console/v1/errors/${created.json.id}`, { token: 'token-b', method: 'PATCH', body: { status: 'Ignored' } });
    assert.equal(patch.status, 404);
    assert.equal((await call(server, `/console/v1/errors/${created.json.id}`, { token: 'token-a' })).json.status, 'Open');
  });

  test('B’s ingest key writes to B only', async () => {
    await ingest(server, [{ ts: '2026-09-14T09:40:00Z', method: 'GET', route: '/b-only', status: 200, durationMs: 1 }], 'ingest-b');
    const a = (await call(server, '/console/v1/endpoints?q=b-only', { token: 'token-a' })).json.items;
    const b = (await call(server, '/console/v1/endpoints?q=b-only', { token: 'token-b' })).json.items;
    assert.equal(a.length, 0);
    assert.equal(b.length, 1);
  });

  test('no token, a wrong token or an ingest key gets 401 on every console route', async () => {
    for (const token of [undefined, 'nope', 'ingest-a', '__proto__']) {
      for (const path of readRoutes) {
        const { status, headers } = await call(server, path, { token });
        assert.equal(status, 401, `${path} with ${token}`);
        assert.equal(headers.get('www-authenticate'), 'Bearer');
      }
    }
    assert.equal((await call(server, '/ingest/v1/requests', { token: 'token-a', body: { events: [] } })).status, 401, 'a console token is not an ingest key');
  });

  test('an ingest key cannot manage customers, webhooks or activity, and an admin key cannot ingest', async () => {
    const owner = { id: 'u_1', name: 'Ana' };
    const customer = { name: 'Mallory Inc', plan: 'Free', status: 'Active', owner };
    const byIngestKey = await call(server, '/admin/v1/customers/cus_mallory', { token: 'ingest-a', method: 'PUT', body: customer });
    assert.equal(byIngestKey.status, 401);
    assert.match(byIngestKey.json.detail, /admin key/);
    assert.equal((await call(server, '/admin/v1/activity', { token: 'ingest-a', body: { kind: 'key-created', actor: owner, text: 'x' } })).status, 401);
    assert.equal((await call(server, '/console/v1/customers/cus_mallory', { token: 'token-a' })).status, 404, 'nothing was written');
    assert.equal((await call(server, '/ingest/v1/requests', { token: 'admin-a', body: { events: [] } })).status, 401);
    assert.equal((await call(server, '/admin/v1/customers/cus_mallory', { token: 'admin-b', method: 'PUT', body: customer })).status, 201);
    assert.equal((await call(server, '/console/v1/customers/cus_mallory', { token: 'token-a' })).status, 404, 'admin-b writes to account B');
  });
});

describe('writes', () => {
  test('same Idempotency-Key and body → the first record; another body → 422; a new key → a new record', async () => {
    const first = await createError('token-a', 'key-1');
    const again = await createError('token-a', 'key-1');
    assert.equal(again.status, 201);
    assert.deepEqual(again.json, first.json);
    const other = await createError('token-a', 'key-1', { notes: 'corrected words' });
    assert.equal(other.status, 422);
    assert.match(other.json.detail, /different request/);
    const fresh = await createError('token-a', 'key-2', { notes: 'corrected words' });
    assert.notEqual(fresh.json.id, first.json.id);
    assert.equal(fresh.json.notes, 'corrected words');
  });

  test('concurrent repeats of one key create one record', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => createError('token-a', 'key-concurrent')));
    assert.equal(new Set(answers.map((a) => a.json.id)).size, 1);
  });

  test('If-Match with an older version → 412 and nothing changes; without If-Match the change applies', async () => {
    const { json: record } = await createError();
    const patch = (body: unknown, ifMatch?: string) =>
      call(server, `/console/v1/errors/${record.id}`, { token: 'token-a', method: 'PATCH', body, headers: ifMatch ? { 'if-match': ifMatch } : {} });
    assert.equal((await patch({ notes: 'mine' }, '"1"')).json.version, 2);
    const stale = await patch({ notes: 'theirs' }, '"1"');
    assert.equal(stale.status, 412);
    assert.match(stale.json.detail, /changed elsewhere/);
    assert.equal((await call(server, `/console/v1/errors/${record.id}`, { token: 'token-a' })).json.notes, 'mine');
    assert.equal((await patch({ status: 'Ignored' })).json.version, 3);
    assert.equal((await patch({ status: 'Gone' }, '"3"')).status, 422);
    assert.equal((await patch({ status: 'Fixed' }, 'banana')).status, 400);
    assert.equal((await patch({ status: 'Fixed' }, '*')).json.version, 4, 'If-Match: * asks only that it exists');
    const long = await patch({ notes: 'n'.repeat(60_000) });
    assert.equal(long.status, 422, 'PATCH keeps the notes limit POST keeps');
    assert.match(long.json.errors[0].message, /Keep notes under/);
    assert.equal((await call(server, `/console/v1/errors/${record.id}`, { token: 'token-a' })).json.notes, 'mine');
  });

  test('field-level 422s for invalid records and notes', async () => {
    const bad = await createError('token-a', undefined, { code: 418, endpoint: 'GET /nowhere', count: -1, firstSeen: '2026-02-30' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json.errors.map((e: { field: string }) => e.field).sort(), ['code', 'count', 'firstSeen']);
    const endpoint = await createError('token-a', undefined, { endpoint: 'GET /nowhere' });
    assert.deepEqual(endpoint.json.errors, [{ field: 'endpoint', message: 'Choose one of the offered endpoints.' }]);
    const note = await call(server, '/console/v1/customers/cus_acme/notes', { token: 'token-a', body: { text: '   ' } });
    assert.equal(note.status, 422);
    assert.equal(note.json.errors[0].message, 'Write a note first.');
  });

  test('writes record activity', async () => {
    const { json } = await call(server, '/console/v1/activity?limit=500', { token: 'token-a' });
    const kinds = new Set(json.items.map((a: { kind: string }) => a.kind));
    for (const kind of ['key-created', 'error-recorded', 'note-added', 'status-changed']) assert.ok(kinds.has(kind), kind);
  });

  test('each activity item leads to what it is about: the customer of a note, the record of an error write, the host’s target', async () => {
    const own = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(own, knownEvents());
      await call(own, '/admin/v1/customers/cus_acme', {
        token: 'admin-a',
        method: 'PUT',
        body: { name: 'Acme Ltd', createdAt: '2025-03-02', plan: 'Free', status: 'Active', owner },
      });
      const admin = (body: Record<string, unknown>) =>
        call(own, '/admin/v1/activity', { token: 'admin-a', method: 'POST', body: { actor: owner, at: '2026-09-14T09:00:00Z', ...body } });
      assert.equal((await admin({ kind: 'key-created', text: 'created a key for Acme Ltd', target: { kind: 'customer', id: 'cus_acme' } })).status, 201);
      assert.equal((await admin({ kind: 'docs-published', text: 'published the docs' })).status, 201);
      assert.equal(
        (await call(own, '/console/v1/customers/cus_acme/notes', { token: 'token-a', headers: { 'idempotency-key': 'n1' }, body: { text: 'Called them.' } }))
          .status,
        201,
      );
      const created = await call(own, '/console/v1/errors', {
        token: 'token-a',
        headers: { 'idempotency-key': 'e1' },
        body: { code: 500, endpoint: 'POST /messages', count: 1, firstSeen: '2026-09-01', status: 'Open' },
      });
      const patched = await call(own, `/console/v1/errors/${created.json.id}`, { token: 'token-a', method: 'PATCH', body: { status: 'Fixed' } });
      assert.equal(patched.status, 200);
      const { json } = await call(own, '/console/v1/activity?limit=50', { token: 'token-a' });
      const page = schema.activityPage.parse(json);
      const subjects = Object.fromEntries(page.items.map((a) => [a.kind, a.subject ?? null]));
      assert.deepEqual(subjects, {
        'key-created': { kind: 'customer', id: 'cus_acme' },
        'docs-published': null,
        'note-added': { kind: 'customer', id: 'cus_acme' },
        'error-recorded': { kind: 'error', id: created.json.id },
        'status-changed': { kind: 'error', id: created.json.id },
      });
      const badTarget = await admin({ kind: 'key-created', text: 'x', target: { kind: 'customer' } });
      assert.equal(badTarget.status, 422, 'a target without an id is refused');
      for (const kind of ['constructor', '__proto__', 'toString', 'planet']) {
        const odd = await admin({ kind: 'key-created', text: 'x', target: { kind, id: 'x' } });
        assert.equal(odd.status, 422, `target kind ${kind}`);
        assert.match(odd.json.errors[0].message, /endpoint, request, customer, webhook, error or key/);
      }
    } finally {
      await own.close();
    }
  });
});

describe('CORS', () => {
  test('answers a preflight from an allowed origin, never with a wildcard', async () => {
    const { status, headers } = await call(server, '/console/v1/overview', {
      method: 'OPTIONS',
      headers: { origin: 'https://portal.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(status, 204);
    assert.equal(headers.get('access-control-allow-origin'), 'https://portal.example.com');
    assert.match(headers.get('access-control-allow-headers') ?? '', /Authorization/i);
  });

  test('gives another origin no CORS headers', async () => {
    const { headers } = await call(server, '/console/v1/overview', { token: 'token-a', headers: { origin: 'https://evil.example' } });
    assert.equal(headers.get('access-control-allow-origin'), null);
  });
});

describe('a write that fails part way', () => {
  test('leaves nothing behind, and a retry with the same key creates exactly one record', async () => {
    const inner = await openTestStores();
    let failOnce = true;
    // The store fails while recording the key's answer, after the record and its activity were written.
    const failing = {
      ...inner,
      records: {
        ...inner.records,
        atomically: <T>(work: (records: typeof inner.records) => Promise<T>) =>
          inner.records.atomically((records) =>
            work({
              ...records,
              remember: async (...args: Parameters<typeof records.remember>) => {
                if (failOnce) {
                  failOnce = false;
                  throw new Error('disk full');
                }
                return records.remember(...args);
              },
            }),
          ),
      },
    };
    const server = await startServer({ store: failing, clock: () => new Date(NOW) });
    try {
      await ingest(server, knownEvents());
      const post = () =>
        call(server, '/console/v1/errors', {
          token: 'token-a',
          headers: { 'idempotency-key': 'k-partial' },
          body: { code: 500, endpoint: 'POST /messages', count: 2, firstSeen: '2026-09-01', status: 'Open' },
        });
      const failed = await post();
      assert.equal(failed.status, 500);
      assert.equal(failed.headers.get('content-type'), 'application/problem+json');
      assert.deepEqual((await call(server, '/console/v1/errors', { token: 'token-a' })).json.items, [], 'the record was rolled back');
      assert.deepEqual((await call(server, '/console/v1/activity?kind=error-recorded', { token: 'token-a' })).json.items, [], 'and its activity');
      const retried = await post();
      assert.equal(retried.status, 201);
      assert.equal((await call(server, '/console/v1/errors', { token: 'token-a' })).json.items.length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('text from outside is data, never SQL', () => {
  test('quotes, backslashes, wildcards and SQL in paths, searches and records are stored and matched literally', async () => {
    const local = await startServer();
    try {
      const tricky = ["/q/it's", '/q/back\\slash', '/q/100%_done', "/q/x' OR '1'='1", '/q/drop;--', '/q/ünï€ode', '/q/?what', "/q/$'$&"];
      await ingest(
        local,
        tricky.map((path, i) => ({
          ts: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
          method: 'GET',
          route: '/q/{name}',
          path,
          status: 200,
          durationMs: 5,
        })),
      );
      const paths = async (text: string) =>
        (await call(local, `/console/v1/requests?path=${encodeURIComponent(text)}`, { token: 'token-a' })).json.items
          .map((r: { path: string }) => r.path)
          .sort();
      for (const path of tricky) assert.deepEqual(await paths(path), [path], path);
      assert.deepEqual(await paths("'"), ["/q/$'$&", "/q/it's", "/q/x' OR '1'='1"].sort());
      assert.deepEqual(await paths('%'), ['/q/100%_done'], 'no LIKE wildcards');
      assert.deepEqual(await paths('\\'), ['/q/back\\slash']);
      const owner = { id: "u_o'neil", name: 'Pat O\'Neil \\ "Ops"' };
      const put = await call(local, "/admin/v1/customers/cus_o'neil", {
        token: 'admin-a',
        method: 'PUT',
        body: { name: "O'Neil & Sons \\ <b>Ltd</b>", plan: "Pro'", status: 'Active', owner },
      });
      assert.equal(put.status, 201);
      const customer = await call(local, `/console/v1/customers/${encodeURIComponent("cus_o'neil")}`, { token: 'token-a' });
      assert.equal(customer.json.name, "O'Neil & Sons \\ <b>Ltd</b>");
      assert.deepEqual(customer.json.owner, owner);
      const found = await call(local, `/console/v1/customers?q=${encodeURIComponent("o'neil")}`, { token: 'token-a' });
      assert.deepEqual(
        found.json.items.map((c: { id: string }) => c.id),
        ["cus_o'neil"],
      );
    } finally {
      await local.close();
    }
  });
});

describe('control characters', () => {
  test('a NUL in an id or a query is refused with a clear 400; in an event or a record it is stored as U+FFFD on every store', async () => {
    const local = await startServer();
    try {
      const owner = { id: 'u_1', name: 'Ana' };
      const put = await call(local, '/admin/v1/customers/cus_%00x', {
        token: 'admin-a',
        method: 'PUT',
        body: { name: 'N', plan: 'P', status: 'Active', owner },
      });
      assert.equal(put.status, 400);
      assert.match(put.json.detail, /control characters/);
      const search = await call(local, '/console/v1/requests?path=%00', { token: 'token-a' });
      assert.equal(search.status, 400);
      const event = { ts: new Date().toISOString(), method: 'GET', route: '/a', path: '/a', status: 200, durationMs: 1 };
      const batch = await call(local, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [{ ...event, customerId: 'c\u0000' }, event] } });
      assert.deepEqual([batch.status, batch.json.accepted, batch.json.rejected], [202, 2, []]);
      const customers = (await keptRequests(local.stores.telemetry, 'acct_a', { limit: 5 })).map((r) => r.customerId);
      assert.deepEqual(customers.sort(), ['c\ufffd', null]);
      const activity = await call(local, '/admin/v1/activity', {
        token: 'admin-a',
        body: { kind: 'key-created', actor: owner, text: 'x', subject: 's\u0000' },
      });
      assert.equal(activity.status, 201);
      assert.equal(activity.json.subject, 's\ufffd');
    } finally {
      await local.close();
    }
  });

  test('a body whose only unsafe characters are raw (bidi, C1) or the \\b and \\f escapes is cleaned too, in JSON and NDJSON', async () => {
    const local = await startServer();
    try {
      // Each alone in its body: no \\u escape to mark the body as one to clean.
      const paths = { '/b/a\\bb\\fc': '/b/a\ufffdb\ufffdc', '/r/\u202egnp.exe': '/r/\ufffdgnp.exe', '/c/x\u0085y': '/c/x\ufffdy' };
      // Each a second newer than the last, so that the newest request is the one just sent on every store.
      let sentAt = Date.now() - 60_000;
      for (const [sent, stored] of Object.entries(paths))
        for (const ndjson of [false, true]) {
          const ts = new Date((sentAt += 1000)).toISOString();
          const event = `{"ts":"${ts}","method":"GET","route":"/p","path":"${sent}","status":200,"durationMs":1}`;
          const batch = await call(local, '/ingest/v1/requests', {
            token: 'ingest-a',
            body: ndjson ? event : `{"events":[${event}]}`,
            headers: ndjson ? { 'content-type': 'application/x-ndjson' } : {},
          });
          assert.deepEqual([batch.status, batch.json.accepted], [202, 1], batch.text);
          const [kept] = await keptRequests(local.stores.telemetry, 'acct_a', { limit: 1 });
          assert.equal(kept!.path, stored, `${JSON.stringify(sent)} ${ndjson ? 'as NDJSON' : 'as JSON'}`);
        }
    } finally {
      await local.close();
    }
  });

  test('lone surrogates, control and bidi characters become U+FFFD in events, OTLP spans and records alike, on every store; tab and newline stay', async () => {
    const local = await startServer();
    try {
      const ts = new Date(Date.now() - 60_000).toISOString();
      // Written as JSON by hand: JSON.stringify would keep a lone surrogate escaped the same way.
      const body = `{"events":[{"ts":"${ts}","method":"GET","route":"/s","path":"/s/\\ud800x\\u202egnp.exe\\u0001\\u007f","status":500,"durationMs":1,"customerId":"cus_\\udc00","headers":{"user-agent":"a\\ud83d"}}]}`;
      const batch = await call(local, '/ingest/v1/requests', { token: 'ingest-a', body });
      assert.deepEqual([batch.status, batch.json.accepted], [202, 1], batch.text);
      const [stored] = await keptRequests(local.stores.telemetry, 'acct_a', { limit: 1 });
      assert.equal(stored!.path, '/s/\ufffdx\ufffdgnp.exe\ufffd\ufffd');
      assert.equal(stored!.customerId, 'cus_\ufffd');
      assert.deepEqual(stored!.headers, { 'user-agent': 'a\ufffd' });
      const filtered = await call(local, `/console/v1/requests?customerId=${encodeURIComponent('cus_\ufffd')}`, { token: 'token-a' });
      assert.equal(filtered.json.items.length, 1, 'the stored customer can be filtered on');
      const owner = { id: 'u_1', name: 'Ana' };
      await call(local, '/admin/v1/customers/cus_1', { token: 'admin-a', method: 'PUT', body: { name: 'N', plan: 'P', status: 'Active', owner } });
      const note = await call(local, '/console/v1/customers/cus_1/notes', { token: 'token-a', body: '{"text":"line one\\nline\\ttwo \\ud800 \\u202e"}' });
      assert.equal(note.status, 201, note.text);
      assert.equal(note.json.text, 'line one\nline\ttwo \ufffd \ufffd');
      const span = {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    name: 'GET /o',
                    kind: 2,
                    startTimeUnixNano: String(BigInt(Date.now() - 60_000) * 1_000_000n),
                    endTimeUnixNano: String(BigInt(Date.now() - 59_000) * 1_000_000n),
                    attributes: [
                      { key: 'http.request.method', value: { stringValue: 'GET' } },
                      { key: 'http.response.status_code', value: { intValue: 200 } },
                      { key: 'url.path', value: { stringValue: '/o/PLACEHOLDER' } },
                      { key: 'ops.customer_id', value: { stringValue: 'PLACEHOLDER' } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      };
      const otlp = await call(local, '/v1/traces', { token: 'ingest-a', body: JSON.stringify(span).replaceAll('PLACEHOLDER', '\\udfff\\u0002') });
      assert.equal(otlp.status, 200, otlp.text);
      const [fromSpan] = await keptRequests(local.stores.telemetry, 'acct_a', { limit: 1, pathContains: '/o/' });
      assert.equal(fromSpan!.path, '/o/\ufffd\ufffd');
      assert.equal(fromSpan!.customerId, '\ufffd\ufffd');
    } finally {
      await local.close();
    }
  });
});

describe('record writes and ingest', () => {
  test('an error record being created while its figures are slow to read holds no other account’s ingest', async () => {
    const inner = await openTestStores();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let waiting = 0;
    /** Account A's reads of per-route counts wait at the gate, as under a heavy query. */
    const slowFor =
      <A extends unknown[], R>(read: (accountId: string, ...rest: A) => Promise<R>) =>
      async (accountId: string, ...rest: A): Promise<R> => {
        if (accountId === 'acct_a') {
          waiting++;
          await gate;
        }
        return read(accountId, ...rest);
      };
    const slow = {
      ...inner,
      telemetry: {
        ...inner.telemetry,
        counts: slowFor(inner.telemetry.counts.bind(inner.telemetry)),
      },
    };
    const server = await startServer({ store: slow, clock: () => new Date(NOW) });
    try {
      await ingest(server, knownEvents());
      const creates = Array.from({ length: 10 }, (_, i) =>
        call(server, '/console/v1/errors', {
          token: 'token-a',
          headers: { 'idempotency-key': `slow-${i}` },
          body: { code: 500, endpoint: 'POST /messages', count: 1, firstSeen: '2026-09-01', status: 'Open' },
        }),
      );
      // One of A's queries at a time reaches the store (its fair share); the other creates wait behind it.
      while (waiting < 1) await new Promise((resolve) => setImmediate(resolve));
      // The creates are reading; B's batch is answered all the same.
      assert.equal((await ingest(server, [{ ts: '2026-09-14T09:40:00Z', method: 'GET', route: '/b', status: 200, durationMs: 1 }], 'ingest-b')).accepted, 1);
      open();
      assert.deepEqual(
        (await Promise.all(creates)).map((r) => r.status),
        Array(10).fill(201),
      );
    } finally {
      open();
      await server.close();
    }
  });
});
