// Headers and bodies: masked before they are kept, cut to size, searchable, expiring, erasable, and shown only to who may read them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ConsoleServer } from '../src/index.ts';
import { call, INGEST_KEYS, startServer, storeSetup, TOKENS } from './harness.ts';
import { inColumns } from './column-form.ts';

const NOW = new Date('2026-09-14T10:00:00Z');
const DAY = 86_400_000;

/** An order the customer sent, its secrets at several depths and in an array, with what must stay as sent. */
const ORDER = {
  orderId: 'ord_7Q2X9',
  customer: { email: 'ana@example.com', password: 'hunter2-secret', profile: { apiKey: 'ak_live_deep_0042' } },
  cards: [{ card_number: '4242424242424242', cvc: '123', label: 'work' }],
  note: 'paid with 4111 1111 1111 1111 today',
  amount: 4200,
  tags: ['gift', 'express'],
};
/** The same order as it must be kept: every secret `[masked]`, everything else as sent. */
const ORDER_KEPT = {
  ...ORDER,
  customer: { email: 'ana@example.com', password: '[masked]', profile: { apiKey: '[masked]' } },
  cards: [{ card_number: '[masked]', cvc: '[masked]', label: 'work' }],
  note: 'paid with [masked] today',
};
const SECRETS = ['hunter2-secret', 'ak_live_deep_0042', '4242424242424242', '4111 1111 1111 1111', 'sk_live_header_77', 'sess_cookie_99', 'tok_form_31337'];

const event = (i: number, customerId: string, extra: Record<string, unknown> = {}) => ({
  ts: new Date(NOW.getTime() - 60_000 * (i + 1)).toISOString(),
  method: 'POST',
  route: '/orders',
  path: `/orders?ref=${i}`,
  status: i === 0 ? 502 : 201,
  durationMs: 30 + i,
  customerId,
  headers: { authorization: 'Bearer sk_live_header_77', 'content-type': 'application/json', 'x-trace': `t${i}` },
  responseHeaders: { 'set-cookie': 'sid=sess_cookie_99', 'content-type': 'application/json' },
  requestBody: { contentType: 'application/json; charset=utf-8', size: JSON.stringify(ORDER).length, text: JSON.stringify(ORDER) },
  responseBody: { contentType: 'application/x-www-form-urlencoded', size: 41, text: `status=ok&access_token=tok_form_31337&n=${i}` },
  ...extra,
});

describe(`request payloads (${storeSetup})`, () => {
  let server: ConsoleServer;
  let clock = NOW;
  const tokens = {
    ...TOKENS,
    'viewer-a': { accountId: 'acct_a', user: { id: 'u_vi', name: 'Vi Ewer' }, role: 'viewer' as const },
    'acme-a': { accountId: 'acct_a', user: { id: 'cus_acme', name: 'Acme Ltd' }, customerId: 'cus_acme' },
    'acme-no-payloads': { accountId: 'acct_a', user: { id: 'cus_acme', name: 'Acme Ltd' }, customerId: 'cus_acme', views: ['requests' as const] },
  };
  const ids = async (token: string, query = '') =>
    ((await call(server, `/console/v1/requests?limit=50${query}`, { token })).json.items as { id: string; path: string }[]).map((r) => r.id);
  const detail = async (id: string, token = 'token-a') => call(server, `/console/v1/requests/${id}`, { token });

  before(async () => {
    server = await startServer({ clock: () => clock, auth: { tokens }, capture: { maxBodyBytes: 2_000 } });
    const sent = await call(server, '/ingest/v1/requests', {
      token: 'ingest-a',
      body: {
        events: [
          event(0, 'cus_acme'),
          event(1, 'cus_globex'),
          // Sent in the column form, as the collector sends.
          { ts: new Date(NOW.getTime() - 10 * 60_000).toISOString(), method: 'GET', route: '/plain', path: '/plain', status: 200, durationMs: 5 },
        ],
      },
    });
    assert.deepEqual([sent.status, sent.json.accepted], [202, 3]);
    const columns = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: inColumns([event(2, 'cus_acme', { path: '/orders?ref=columns' })]) });
    assert.deepEqual([columns.status, columns.json.accepted], [202, 1]);
  });
  after(() => server.close());

  test('an editor reads both sides’ headers and bodies, every secret masked and the JSON still JSON', async () => {
    const list = (await call(server, '/console/v1/requests?limit=50', { token: 'token-a' })).json.items as { id: string; path: string }[];
    const order = list.find((r) => r.path === '/orders?ref=0')!;
    const { status, json } = await detail(order.id);
    assert.equal(status, 200);
    assert.equal(json.payload, 'kept');
    assert.deepEqual(json.headers, [
      { name: 'authorization', value: '[masked]' },
      { name: 'content-type', value: 'application/json' },
      { name: 'x-trace', value: 't0' },
    ]);
    assert.deepEqual(json.responseHeaders, [
      { name: 'set-cookie', value: '[masked]' },
      { name: 'content-type', value: 'application/json' },
    ]);
    assert.equal(json.requestBody.contentType, 'application/json; charset=utf-8');
    assert.equal(json.requestBody.truncated, false);
    assert.deepEqual(JSON.parse(json.requestBody.text), ORDER_KEPT);
    assert.deepEqual(json.responseBody, {
      contentType: 'application/x-www-form-urlencoded',
      size: 41,
      truncated: false,
      text: 'status=ok&access_token=[masked]&n=0',
    });
    const columns = list.find((r) => r.path === '/orders?ref=columns')!;
    assert.deepEqual(JSON.parse((await detail(columns.id)).json.requestBody.text), ORDER_KEPT);
    const plain = list.find((r) => r.path === '/plain')!;
    const none = (await detail(plain.id)).json;
    assert.deepEqual([none.payload, none.headers, none.requestBody, none.responseBody], ['none', null, null, null]);
  });

  test('no secret is in any answer or in what the store keeps', async () => {
    const answers = [];
    for (const id of await ids('token-a')) answers.push((await detail(id)).text);
    const kept = [];
    for (const r of await server.stores.telemetry.requests('acct_a', { limit: 50 }))
      kept.push(JSON.stringify([r, await server.stores.telemetry.payload('acct_a', r)]));
    for (const secret of SECRETS) {
      assert.ok(!answers.join().includes(secret), `${secret} in an answer`);
      assert.ok(!kept.join().includes(secret), `${secret} in the store`);
    }
  });

  test('q finds requests by a word of a kept body, or part of one, in any case, never by a masked secret', async () => {
    const paths = async (q: string, token = 'token-a') =>
      ((await call(server, `/console/v1/requests?limit=50&q=${encodeURIComponent(q)}`, { token })).json.items as { path: string }[]).map((r) => r.path).sort();
    assert.deepEqual(await paths('ORD_7q2x9'), ['/orders?ref=0', '/orders?ref=1', '/orders?ref=columns']);
    assert.deepEqual(await paths('n=1'), ['/orders?ref=1']);
    // Words with separators between them are found where the body holds them in that order, in any case.
    assert.deepEqual(await paths('ANA@example.COM'), ['/orders?ref=0', '/orders?ref=1', '/orders?ref=columns']);
    assert.deepEqual(await paths('example@ana.com'), []);
    // Part of a word is found too, as in a path.
    assert.deepEqual(await paths('7q2x9'), ['/orders?ref=0', '/orders?ref=1', '/orders?ref=columns']);
    assert.deepEqual(await paths('ple.co'), ['/orders?ref=0', '/orders?ref=1', '/orders?ref=columns']);
    // Words may be in the path and in a body.
    assert.deepEqual(await paths('ref=1 express'), ['/orders?ref=1']);
    assert.deepEqual(await paths('hunter2-secret'), []);
    assert.deepEqual(await paths('plain'), ['/plain']);
    // A customer finds its own; a session without payloads cannot search what it may not read.
    assert.deepEqual(await paths('ord_7q2x9', 'acme-a'), ['/orders?ref=0', '/orders?ref=columns']);
    assert.deepEqual(await paths('ord_7q2x9', 'acme-no-payloads'), []);
  });

  test('a customer reads its own requests’ payloads, another customer’s request is not found, and a session without payloads sees none', async () => {
    const [acme] = (await call(server, '/console/v1/requests?limit=50&q=ref%3D0', { token: 'token-a' })).json.items as { id: string }[];
    const [globex] = (await call(server, '/console/v1/requests?limit=50&q=ref%3D1', { token: 'token-a' })).json.items as { id: string }[];
    const own = await detail(acme!.id, 'acme-a');
    assert.equal(own.json.payload, 'kept');
    assert.deepEqual(JSON.parse(own.json.requestBody.text), ORDER_KEPT);
    assert.equal((await detail(globex!.id, 'acme-a')).status, 404);
    const hidden = (await detail(acme!.id, 'acme-no-payloads')).json;
    assert.deepEqual([hidden.payload, hidden.headers, hidden.requestBody], ['hidden', null, null]);
    // Viewers read bodies by default.
    assert.equal((await detail(acme!.id, 'viewer-a')).json.payload, 'kept');
  });

  test('a body longer than capture.maxBodyBytes is kept cut, with its real size, and a type that is not text keeps only its size', async () => {
    const long = `{"items":[${Array.from({ length: 400 }, (_, i) => `{"n":${i},"name":"é${i}"}`).join(',')}]}`;
    const sent = await call(server, '/ingest/v1/requests', {
      token: 'ingest-a',
      body: {
        events: [
          { ...event(5, 'cus_acme'), path: '/long', requestBody: { contentType: 'application/json', size: Buffer.byteLength(long), text: long } },
          { ...event(6, 'cus_acme'), path: '/image', requestBody: { contentType: 'image/png', size: 52_000, text: '\u0089PNG…' } },
        ],
      },
    });
    assert.deepEqual([sent.status, sent.json.accepted], [202, 2]);
    const list = (await call(server, '/console/v1/requests?limit=50', { token: 'token-a' })).json.items as { id: string; path: string }[];
    const cut = (await detail(list.find((r) => r.path === '/long')!.id)).json.requestBody;
    assert.equal(cut.truncated, true);
    assert.equal(cut.size, Buffer.byteLength(long));
    assert.ok(Buffer.byteLength(cut.text) <= 2_000 && Buffer.byteLength(cut.text) > 1_990, `kept ${Buffer.byteLength(cut.text)} bytes`);
    assert.ok(long.startsWith(cut.text), 'the kept text is the body’s start, no character split');
    const image = (await detail(list.find((r) => r.path === '/image')!.id)).json.requestBody;
    assert.deepEqual(image, { contentType: 'image/png', size: 52_000, truncated: false, text: null });
  });

  test('a bad body is rejected by its index with the reason, and the rest of the batch is kept', async () => {
    const sent = await call(server, '/ingest/v1/requests', {
      token: 'ingest-a',
      body: {
        events: [
          { ...event(7, 'cus_acme'), requestBody: { size: -1, text: 3 } },
          { ...event(8, 'cus_acme'), path: '/fine' },
        ],
      },
    });
    assert.equal(sent.status, 202);
    assert.equal(sent.json.accepted, 1);
    assert.match(sent.json.rejected[0].reason, /requestBody\.contentType: must be a content type/);
  });

  test('q folds case one letter to one, as the stores do: İZMİR holds izmir, ΚΩΣΤΑΣ its own ΚΩΣ', async () => {
    const text = JSON.stringify({ city: 'İZMİR', driver: 'ΚΩΣΤΑΣ' });
    const cities = { ...event(7, 'cus_acme'), path: '/cities', requestBody: { contentType: 'application/json', size: Buffer.byteLength(text), text } };
    assert.equal((await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [cities] } })).status, 202);
    for (const q of ['izmir', 'İzmir', 'ΚΩΣ', 'κωστας', 'ΚΩΣΤΑΣ']) {
      const found = (await call(server, `/console/v1/requests?limit=50&q=${encodeURIComponent(q)}`, { token: 'token-a' })).json.items as { path: string }[];
      assert.deepEqual(
        found.map((r) => r.path),
        ['/cities'],
        q,
      );
    }
  });

  test('payloads past retention.payloadDays read “removed”; the requests stay in the log, and expiry removes them from the store', async () => {
    const before = await ids('token-a');
    clock = new Date(NOW.getTime() + 8 * DAY);
    try {
      const after = await ids('token-a', '&from=2026-09-01T00:00:00Z');
      assert.deepEqual(after, before);
      const order = (await detail(after[0]!)).json;
      assert.deepEqual([order.payload, order.headers, order.requestBody], ['removed', null, null]);
      await server.stores.telemetry.expirePayloads(NOW.getTime() + DAY);
      const [first] = await server.stores.telemetry.requests('acct_a', { limit: 1 });
      assert.equal(await server.stores.telemetry.payload('acct_a', first!), null);
    } finally {
      clock = NOW;
    }
  });
});

describe(`erasing a customer’s payloads (${storeSetup})`, () => {
  let server: ConsoleServer;
  before(async () => {
    server = await startServer({ clock: () => NOW });
    await call(server, '/admin/v1/customers/cus_acme', {
      token: 'admin-a',
      method: 'PUT',
      body: { name: 'Acme Ltd', plan: 'Scale', status: 'Active', owner: { id: 'u_ana', name: 'Ana Silva' } },
    });
    for (const key of Object.keys(INGEST_KEYS))
      assert.equal((await call(server, '/ingest/v1/requests', { token: key, body: { events: [event(0, 'cus_acme'), event(1, 'cus_globex')] } })).status, 202);
  });
  after(() => server.close());

  test('DELETE /admin/v1/customers/{id}/payloads erases that customer’s headers and bodies in its account only; requests, figures and others stay, and the feed says so', async () => {
    const countBefore = (await call(server, '/console/v1/requests/summary', { token: 'token-a' })).json;
    const erased = await call(server, '/admin/v1/customers/cus_acme/payloads', { token: 'admin-a', method: 'DELETE' });
    assert.deepEqual([erased.status, erased.json], [200, { customerId: 'cus_acme', erased: 1 }]);
    const list = (await call(server, '/console/v1/requests?limit=10', { token: 'token-a' })).json.items as { id: string; path: string }[];
    assert.equal(list.length, 2);
    const states = new Map<string, string>();
    for (const r of list) {
      const d = (await call(server, `/console/v1/requests/${r.id}`, { token: 'token-a' })).json;
      states.set(d.customer.id, d.payload);
    }
    assert.deepEqual(Object.fromEntries(states), { cus_acme: 'removed', cus_globex: 'kept' });
    assert.deepEqual((await call(server, '/console/v1/requests/summary', { token: 'token-a' })).json, countBefore);
    // The other account's Acme keeps its payloads.
    const [other] = (await call(server, '/console/v1/requests?limit=10&customerId=cus_acme', { token: 'token-b' })).json.items as { id: string }[];
    assert.equal((await call(server, `/console/v1/requests/${other!.id}`, { token: 'token-b' })).json.payload, 'kept');
    const feed = (await call(server, '/console/v1/activity?limit=10', { token: 'token-a' })).json.items as { text: string }[];
    assert.ok(
      feed.some((item) => item.text === 'erased the request payloads of Acme Ltd'),
      JSON.stringify(feed),
    );
    // Only an admin key erases.
    assert.equal((await call(server, '/admin/v1/customers/cus_globex/payloads', { token: 'token-a', method: 'DELETE' })).status, 403);
  });
});

test(`capture.payloadsFor: "editor" hides headers and bodies from viewers, and their search does not look in bodies (${storeSetup})`, async () => {
  const tokens = { ...TOKENS, 'viewer-a': { accountId: 'acct_a', user: { id: 'u_vi', name: 'Vi Ewer' }, role: 'viewer' as const } };
  const server = await startServer({ clock: () => NOW, auth: { tokens }, capture: { payloadsFor: 'editor' } });
  try {
    assert.equal((await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [event(0, 'cus_acme')] } })).status, 202);
    const [request] = (await call(server, '/console/v1/requests?q=ord_7q2x9', { token: 'token-a' })).json.items as { id: string }[];
    assert.equal((await call(server, `/console/v1/requests/${request!.id}`, { token: 'token-a' })).json.payload, 'kept');
    const seen = (await call(server, `/console/v1/requests/${request!.id}`, { token: 'viewer-a' })).json;
    assert.deepEqual([seen.payload, seen.headers, seen.requestBody, seen.responseBody], ['hidden', null, null, null]);
    assert.deepEqual((await call(server, '/console/v1/requests?q=ord_7q2x9', { token: 'viewer-a' })).json.items, []);
  } finally {
    await server.close();
  }
});
