// Roles, customer-scoped tokens and embed sessions: every route of the table × every kind of
// caller, allowed or refused as docs/console-api.md says; a customer's figures computed here
// from its own events; ids, filters, search and cursors that never cross customers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { ROUTES, fullPath, type RouteName } from '@ops-console/contract/routes';
import * as schema from '@ops-console/contract/schemas';
import type { ConsoleServer } from '../src/index.ts';
import { NOW } from './events.ts';
import { TOKENS, call, freshStoreConfig, ingest, nearestRankP95, pct1, startServer, type EventInput } from './harness.ts';

const JWT_SECRET = 'a-test-secret-of-enough-length-for-hs256';
const owner = { id: 'u_lee', name: 'Lee Park' };
const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.parse(NOW) - minutes * MINUTE).toISOString();

/** What a customer's token may call, written out here rather than read from the contract. */
const CUSTOMER_ROUTES: Partial<Record<RouteName, string>> = {
  overview: 'overview',
  traffic: 'traffic',
  endpoints: 'endpoints',
  endpoint: 'endpoints',
  requests: 'requests',
  requestSummary: 'requests',
  request: 'requests',
  keys: 'keys',
  key: 'keys',
  webhooks: 'webhooks',
  webhook: 'webhooks',
};
const WRITES: RouteName[] = [
  'addNote',
  'createError',
  'updateError',
  'createAlertChannel',
  'updateAlertChannel',
  'deleteAlertChannel',
  'testAlertChannel',
  'createAlertRule',
  'updateAlertRule',
  'deleteAlertRule',
  'createSlo',
  'updateSlo',
  'deleteSlo',
];

const request = (customerId: string | undefined, minutesAgo: number, extra: Partial<EventInput> = {}): EventInput => ({
  ts: ago(minutesAgo),
  method: 'GET',
  route: '/contacts',
  status: 200,
  durationMs: 10 + minutesAgo,
  customerId,
  ...extra,
});
const events: EventInput[] = [
  ...Array.from({ length: 30 }, (_, i) =>
    request('cus_acme', i * 7 + 1, {
      keyId: i % 3 ? 'key_acme_live' : 'key_acme_stray',
      route: i % 4 ? '/contacts' : '/invoices',
      status: i % 6 === 0 ? 500 : i % 5 === 0 ? 404 : 200,
      durationMs: 15 + ((i * 37) % 90),
    }),
  ),
  ...Array.from({ length: 20 }, (_, i) =>
    request('cus_globex', i * 11 + 2, { keyId: 'key_globex', route: i % 2 ? '/orders' : '/contacts', status: i % 4 ? 200 : 503, durationMs: 200 + i }),
  ),
  ...Array.from({ length: 5 }, (_, i) => request(undefined, i * 13 + 3, { route: '/health-check', durationMs: 3 })),
];
const acme = events.filter((e) => e.customerId === 'cus_acme');

describe('access: roles, customer scope and embed sessions', () => {
  let server: ConsoleServer;
  let now = Date.parse(NOW);
  const tokens: Record<string, string> = {};
  const get = (path: string, token: string) => call(server, `/console/v1${path}`, { token });
  const mint = (body: unknown, token = 'admin-a') => call(server, '/admin/v1/embed-sessions', { token, body });

  before(async () => {
    server = await startServer({
      clock: () => new Date(now),
      // Every route is asked with each credential: that is no guessing to throttle, nor a customer's
      // busy page (auth.test.ts tests the throttle, the describe below the customers' share).
      authFailures: false,
      rateLimits: { customer: false },
      auth: {
        tokens: {
          ...TOKENS,
          'token-viewer': { accountId: 'acct_a', user: { id: 'u_vi', name: 'Vi Nguyen' }, role: 'viewer' },
          'token-admin': { accountId: 'acct_a', user: { id: 'u_ad', name: 'Ad Min' }, role: 'admin' },
          'token-globex': { accountId: 'acct_a', user: { id: 'cus_globex', name: 'Globex Corp' }, customerId: 'cus_globex' },
        },
        jwt: { secret: JWT_SECRET, issuer: 'https://portal.example.com', audience: 'ops-console', roleClaim: 'role' },
      },
    });
    await ingest(server, events);
    // The other account names the same customer id: none of it may show.
    await ingest(server, [request('cus_acme', 5, { keyId: 'key_acme_live', route: '/elsewhere' })], 'ingest-b');
    const put = (path: string, body: unknown) => call(server, `/admin/v1${path}`, { token: 'admin-a', method: 'PUT', body });
    for (const [id, name] of [
      ['cus_acme', 'Acme Ltd'],
      ['cus_globex', 'Globex Corp'],
    ])
      assert.equal((await put(`/customers/${id}`, { name, plan: 'Pro', status: 'Active', owner })).status, 201);
    await put('/keys/key_acme_live', { name: 'Production', customerId: 'cus_acme' });
    await put('/keys/key_globex', { name: 'Globex prod', customerId: 'cus_globex' });
    await put('/webhooks/wh_acme', { name: 'invoice.paid', customer: { id: 'cus_acme', name: 'Acme Ltd' }, owner });
    await put('/webhooks/wh_globex', { name: 'order.created', customer: { id: 'cus_globex', name: 'Globex Corp' }, owner });
    const session = await mint({ customerId: 'cus_acme', expiresInSeconds: 600 });
    assert.equal(session.status, 201, session.text);
    tokens['acme'] = session.json.token;
    tokens['keys-only'] = (await mint({ customerId: 'cus_acme', expiresInSeconds: 600, views: ['keys'] })).json.token;
    tokens['expired'] = (await mint({ customerId: 'cus_acme', expiresInSeconds: 60 }, 'token-admin')).json.token;
  });
  after(() => server.close());

  test('an embed session answers its token, its expiry and its scope', async () => {
    const { status, json } = await mint({ customerId: 'cus_acme', expiresInSeconds: 3600, views: ['overview', 'requests'] });
    assert.equal(status, 201);
    assert.equal(json.expiresAt, new Date(now + 3_600_000).toISOString().replace('.000Z', 'Z'));
    assert.equal(json.customerId, 'cus_acme');
    assert.deepEqual(json.views, ['overview', 'requests']);
    assert.match(json.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  test('a session is for a customer of the account, for at most an hour, with views the console knows', async () => {
    assert.equal((await mint({ customerId: 'cus_nobody', expiresInSeconds: 60 })).status, 404);
    assert.equal((await mint({ customerId: 'cus_acme', expiresInSeconds: 60 }, 'admin-b')).status, 404, 'another account’s admin key');
    for (const body of [
      { customerId: 'cus_acme', expiresInSeconds: 3601 },
      { customerId: 'cus_acme', expiresInSeconds: 0 },
      { customerId: 'cus_acme', expiresInSeconds: 60, views: ['customers'] },
      { customerId: 'cus_acme' },
    ]) {
      const { status, json } = await mint(body);
      assert.equal(status, 422, JSON.stringify(body));
      assert.ok(json.errors?.length || json.detail, 'says why');
    }
  });

  /** Every console and admin route, called by one caller: the status it got. */
  async function statusOf(name: RouteName, token: string): Promise<number> {
    const route = ROUTES[name];
    const path = fullPath(route).replace('{id}', 'x_unknown');
    const body = route.method === 'GET' ? undefined : {};
    return (await call(server, path, { token, method: route.method, body })).status;
  }

  const callers: Record<string, (name: RouteName) => 'allowed' | 'refused' | 'unauthenticated'> = {
    'token-viewer': (name) => (ROUTES[name].group === 'admin' || WRITES.includes(name) ? 'refused' : 'allowed'),
    'token-a': (name) => (ROUTES[name].group === 'admin' ? 'refused' : 'allowed'),
    'token-admin': () => 'allowed',
    'admin-a': (name) => (ROUTES[name].group === 'admin' ? 'allowed' : 'unauthenticated'),
    acme: (name) => (CUSTOMER_ROUTES[name] ? 'allowed' : 'refused'),
    'token-globex': (name) => (CUSTOMER_ROUTES[name] ? 'allowed' : 'refused'),
    'keys-only': (name) => (CUSTOMER_ROUTES[name] === 'keys' ? 'allowed' : 'refused'),
    expired: () => 'unauthenticated',
  };

  test('every route × every caller: allowed, refused (403) or not signed in (401), as documented', async () => {
    // The expired session was minted a minute ago: now it is past.
    now += 61_000;
    try {
      const names = (Object.keys(ROUTES) as RouteName[]).filter((name) => ROUTES[name].group === 'console' || ROUTES[name].group === 'admin');
      const wrong: string[] = [];
      for (const [caller, expected] of Object.entries(callers))
        for (const name of names) {
          const status = await statusOf(name, tokens[caller] ?? caller);
          const got = status === 401 ? 'unauthenticated' : status === 403 ? 'refused' : 'allowed';
          if (got !== expected(name)) wrong.push(`${caller} ${name}: ${status}, expected ${expected(name)}`);
        }
      assert.deepEqual(wrong, []);
    } finally {
      now -= 61_000;
    }
  });

  test('a refusal says why, as problem+json', async () => {
    const refused = await call(server, '/console/v1/customers', { token: tokens['acme'] });
    assert.equal(refused.status, 403);
    assert.match(refused.headers.get('content-type')!, /problem\+json/);
    assert.match(refused.json.detail, /only its own usage.*\/console\/v1\/customers is for the API’s operators/);
    assert.match((await call(server, '/console/v1/errors', { token: 'token-viewer', body: {} })).json.detail, /needs the editor role; this token has viewer/);
    assert.match((await get('/overview', tokens['keys-only']!)).json.detail, /covers keys; .*belongs to overview/);
    now += 61_000;
    try {
      const expired = await get('/overview', tokens['expired']!);
      assert.equal(expired.status, 401);
      assert.match(expired.json.detail, /expired/);
      assert.equal(expired.headers.get('www-authenticate'), 'Bearer');
    } finally {
      now -= 61_000;
    }
  });

  test('a customer token cannot mint sessions or use the admin API; an admin’s token can', async () => {
    for (const token of [tokens['acme']!, 'token-globex', 'token-a', 'token-viewer']) {
      assert.equal((await mint({ customerId: 'cus_acme', expiresInSeconds: 60 }, token)).status, 403, token);
      assert.equal(
        (await call(server, '/admin/v1/customers/cus_acme', { token, method: 'PUT', body: { name: 'X', plan: 'P', status: 'Active', owner } })).status,
        403,
      );
    }
    assert.equal((await mint({ customerId: 'cus_globex', expiresInSeconds: 60 }, 'token-admin')).status, 201);
  });

  test('the overview under a customer’s token is that customer’s alone, greeting it by name', async () => {
    const { status, json } = await get('/overview', tokens['acme']!);
    assert.equal(status, 200);
    assert.ok(schema.overview.safeParse(json).success);
    assert.deepEqual(json.owner, { id: 'cus_acme', name: 'Acme Ltd' });
    const month = acme.filter((e) => e.ts.slice(0, 7) === NOW.slice(0, 7));
    assert.equal(json.figures.requestsThisMonth.value, month.length);
    assert.equal(json.figures.errorRate.valuePct, pct1(month.filter((e) => e.status >= 500).length, month.length));
    assert.equal(json.figures.p95Latency.valueMs, nearestRankP95(month.map((e) => e.durationMs)));
    assert.equal(json.figures.activeKeys.value, new Set(acme.map((e) => e.keyId)).size);
    const invoices = acme.filter((e) => e.route === '/invoices').length;
    assert.deepEqual(json.requestsByEndpoint, [
      { group: '/contacts', sharePct: pct1(acme.length - invoices, acme.length) },
      { group: '/invoices', sharePct: pct1(invoices, acme.length) },
    ]);
  });

  test('traffic, endpoints and the request summary count the customer’s events only', async () => {
    const traffic = await get('/traffic?range=24h', tokens['acme']!);
    assert.equal(traffic.status, 200);
    assert.equal(traffic.json.metrics.requests.value, acme.length);
    assert.equal(traffic.json.metrics.errorRate.value, pct1(acme.filter((e) => e.status >= 500).length, acme.length));
    const endpoints = await get('/endpoints', tokens['acme']!);
    const byRoute = Object.fromEntries(endpoints.json.items.map((r: { path: string; requests: number }) => [r.path, r.requests]));
    assert.deepEqual(byRoute, {
      '/contacts': acme.filter((e) => e.route === '/contacts').length,
      '/invoices': acme.filter((e) => e.route === '/invoices').length,
    });
    const summary = await get('/requests/summary', tokens['acme']!);
    assert.equal(
      summary.json.groups.reduce((sum: number, g: { thisWeek: number }) => sum + g.thisWeek, 0),
      acme.length,
    );
    // The same token asking for another customer's figures finds no such customer.
    assert.equal((await get('/traffic?customerId=cus_globex', tokens['acme']!)).status, 404);
    assert.equal((await get('/requests/summary?customerId=cus_globex', tokens['acme']!)).status, 404);
  });

  test('the request log pages through the customer’s requests only, whatever the cursor, filter or id', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof get>> = await get(`/requests?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, tokens['acme']!);
      assert.equal(page.status, 200);
      for (const item of page.json.items) seen.push(item.id);
      cursor = page.json.nextCursor;
    } while (cursor);
    assert.equal(seen.length, acme.length);
    for (const id of seen.slice(0, 3)) assert.equal((await get(`/requests/${id}`, tokens['acme']!)).json.customer.id, 'cus_acme');

    // An operator's cursor into the whole log, and ids of other customers' requests.
    const all = await get('/requests?limit=3', 'token-a');
    const fromOperatorCursor = await get(`/requests?limit=100&cursor=${encodeURIComponent(all.json.nextCursor)}`, tokens['acme']!);
    assert.ok(fromOperatorCursor.json.items.length > 0);
    for (const item of fromOperatorCursor.json.items) assert.equal((await get(`/requests/${item.id}`, 'token-a')).json.customer?.id, 'cus_acme');
    const others = (await get('/requests?customerId=cus_globex&limit=3', 'token-a')).json.items;
    for (const item of others) assert.equal((await get(`/requests/${item.id}`, tokens['acme']!)).status, 404);
    assert.equal((await get('/requests?customerId=cus_globex', tokens['acme']!)).status, 404);
    assert.equal((await get('/requests?customerId=cus_acme&limit=100', tokens['acme']!)).json.items.length, acme.length);
    assert.deepEqual((await get('/requests?path=orders', tokens['acme']!)).json.items, []);
  });

  test('keys and webhooks: the customer’s own, searched and opened; another’s answers 404', async () => {
    const keys = await get('/keys', tokens['acme']!);
    assert.deepEqual(keys.json.items.map((k: { id: string }) => k.id).sort(), ['key_acme_live', 'key_acme_stray']);
    const live = keys.json.items.find((k: { id: string }) => k.id === 'key_acme_live');
    assert.equal(live.requests, acme.filter((e) => e.keyId === 'key_acme_live').length);
    assert.deepEqual((await get('/keys?q=globex', tokens['acme']!)).json.items, []);
    assert.equal((await get('/keys/key_acme_live', tokens['acme']!)).status, 200);
    assert.equal((await get('/keys/key_acme_stray', tokens['acme']!)).status, 200);
    assert.equal((await get('/keys/key_globex', tokens['acme']!)).status, 404);
    assert.equal((await get('/keys/key_globex', 'token-globex')).status, 200);
    assert.equal((await get('/keys/key_acme_stray', 'token-globex')).status, 404);

    const webhooks = await get('/webhooks', tokens['acme']!);
    assert.deepEqual(
      webhooks.json.items.map((w: { id: string }) => w.id),
      ['wh_acme'],
    );
    assert.deepEqual((await get('/webhooks?q=order', tokens['acme']!)).json.items, []);
    const own = await get('/webhooks/wh_acme', tokens['acme']!);
    assert.equal(own.status, 200);
    // The API company's person in charge is the operators' to know.
    assert.equal(own.json.owner, undefined);
    assert.equal(webhooks.json.items[0].owner, undefined);
    assert.deepEqual((await get('/webhooks/wh_acme', 'token-a')).json.owner, owner);
    assert.equal((await get('/webhooks/wh_globex', tokens['acme']!)).status, 404);
  });

  test('a JWT with a customer claim is scoped like an embed session; its role claim sets an operator’s role', async () => {
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('https://portal.example.com')
        .setAudience('ops-console')
        .setSubject('u_portal')
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(now / 1000) + 300)
        .sign(new TextEncoder().encode(JWT_SECRET));
    const customer = await sign({ account: 'acct_a', customer: 'cus_acme', name: 'Acme Ltd', views: ['requests'] });
    const log = await get('/requests?limit=100', customer);
    assert.equal(log.status, 200, log.text);
    assert.equal(log.json.items.length, acme.length);
    assert.equal((await get('/overview', customer)).status, 403, 'only the views it names');
    const viewer = await sign({ account: 'acct_a', role: 'viewer' });
    assert.equal((await get('/customers', viewer)).status, 200);
    assert.equal((await call(server, '/console/v1/customers/cus_acme/notes', { token: viewer, body: { text: 'hi' } })).status, 403);
    assert.equal((await get('/overview', await sign({ account: 'acct_a', role: 'owner' }))).status, 401, 'a role this server does not know');
  });
});

describe('access: customers’ consoles spend their account’s budget, each within a share', () => {
  let server: ConsoleServer;
  before(async () => {
    server = await startServer({
      rateLimits: { console: { requests: 5, perSeconds: 600 }, customer: { requests: 2, perSeconds: 600 } },
      auth: {
        tokens: {
          ...TOKENS,
          'token-acme': { accountId: 'acct_a', user: { id: 'cus_acme', name: 'Acme Ltd' }, customerId: 'cus_acme' },
        },
      },
    });
    const owner = { id: 'u_ana', name: 'Ana Silva' };
    for (const [id, name] of [
      ['cus_acme', 'Acme Ltd'],
      ['cus_globex', 'Globex Corp'],
    ])
      await call(server, `/admin/v1/customers/${id}`, { token: 'admin-a', method: 'PUT', body: { name, plan: 'Pro', status: 'Active', owner } });
  });
  after(() => server.close());

  test('a customer past its share is refused; a new session is no new budget; past the account’s, everyone of it waits', async () => {
    const read = async (token: string) => (await call(server, '/console/v1/overview', { token })).status;
    const session = async (customerId: string) =>
      (await call(server, '/admin/v1/embed-sessions', { token: 'admin-a', body: { customerId, expiresInSeconds: 600 } })).json.token as string;
    assert.deepEqual([await read('token-acme'), await read(await session('cus_acme')), await read(await session('cus_acme'))], [200, 200, 429]);
    assert.equal(await read('token-a'), 200, 'the operators still read');
    const globex = await session('cus_globex');
    assert.deepEqual([await read(globex), await read(globex)], [200, 200], 'another customer has its own share');
    const spent = await call(server, '/console/v1/overview', { token: 'token-a' });
    assert.equal(spent.status, 429, 'five reads spent the account’s budget');
    assert.match(spent.json.detail, /This account sent more than 5 console API requests in 600 s/);
    assert.equal(await read('token-b'), 200, 'another account is untouched');
  });
});

describe('access: what fails closed', () => {
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u_portal')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JWT_SECRET));

  test('a JWT’s role claim is read only where roleClaim names it: a host’s own “role: admin” grants nothing', async () => {
    const server = await startServer({ auth: { jwt: { secret: JWT_SECRET } } });
    try {
      const token = await sign({ account: 'acct_a', role: 'admin' });
      assert.equal((await call(server, '/admin/v1/embed-sessions', { token, body: { customerId: 'cus_acme', expiresInSeconds: 60 } })).status, 403);
      // As before roles: an editor, whatever else its role claim says.
      const other = await sign({ account: 'acct_a', role: 'authenticated' });
      assert.equal((await call(server, '/console/v1/customers/cus_x/notes', { token: other, body: { text: 'Hello' } })).status, 404);
    } finally {
      await server.close();
    }
  });

  test('the admin API takes bearer credentials only: a cookie an authenticate hook accepts is not enough there', async () => {
    const server = await startServer({
      auth: {
        authenticate: (request) =>
          request.headers.get('cookie') === 'session=admin' ? { accountId: 'acct_a', user: { id: 'u_ad', name: 'Ad Min' }, role: 'admin' } : undefined,
      },
    });
    try {
      const forged = await call(server, '/admin/v1/activity', {
        body: JSON.stringify({ kind: 'key-created', text: 'pwned', actor: owner }),
        headers: { cookie: 'session=admin', 'content-type': 'text/plain', origin: 'https://evil.example' },
      });
      assert.equal(forged.status, 401);
      assert.equal((await call(server, '/console/v1/activity', { headers: { cookie: 'session=admin' } })).json.items.length, 0, 'nothing was recorded');
    } finally {
      await server.close();
    }
  });

  test('an empty customer id is refused, never read as an operator’s token', async () => {
    await assert.rejects(
      startServer({ auth: { tokens: { 'token-empty': { accountId: 'acct_a', user: { id: 'u', name: 'U' }, customerId: '' } } } }),
      /empty customerId/,
    );
    const server = await startServer({
      auth: { authenticate: () => ({ accountId: 'acct_a', user: { id: 'u', name: 'U' }, customer: { id: '' } }) },
    });
    try {
      assert.equal((await call(server, '/console/v1/keys')).status, 401);
    } finally {
      await server.close();
    }
  });
});

describe('access: embed sessions can be ended, and their signing key rotates', () => {
  let now = Date.parse(NOW);
  const config = freshStoreConfig();
  let server: ConsoleServer;
  const owner = { id: 'u_ana', name: 'Ana Silva' };
  const customer = (status: string) => ({ name: 'Acme Ltd', plan: 'Pro', status, owner });
  const mint = async (on = server) => {
    const { status, json } = await call(on, '/admin/v1/embed-sessions', { token: 'admin-a', body: { customerId: 'cus_acme', expiresInSeconds: 600 } });
    assert.equal(status, 201);
    return json as { id: string; token: string };
  };
  const read = async (token: string, on = server) => {
    const { status, json } = await call(on, '/console/v1/overview', { token });
    return status === 200 ? 200 : `${status} ${json.detail}`;
  };
  before(async () => {
    server = await startServer({ ...config, clock: () => new Date(now) });
    await call(server, '/admin/v1/customers/cus_acme', { token: 'admin-a', method: 'PUT', body: customer('Active') });
  });
  after(() => server.close());

  test('one session ends by its id; the customer’s other sessions go on; another account’s admin ends nothing of ours', async () => {
    const [first, second] = [await mint(), await mint()];
    assert.match(first.id, /^es_/);
    assert.equal((await call(server, `/admin/v1/embed-sessions/${first.id}`, { token: 'admin-b', method: 'DELETE' })).status, 204);
    assert.equal(await read(first.token), 200, 'another account’s end is its own');
    assert.equal((await call(server, `/admin/v1/embed-sessions/${first.id}`, { token: 'admin-a', method: 'DELETE' })).status, 204);
    assert.equal(await read(first.token), '401 The embed session was ended: ask your backend for a new one.');
    assert.equal(await read(second.token), 200);
    assert.equal((await call(server, `/admin/v1/embed-sessions/${first.id}`, { token: 'token-a', method: 'DELETE' })).status, 403, 'an editor may not');
  });

  test('every session of a customer ends at once; one minted after works', async () => {
    const sessions = [await mint(), await mint()];
    assert.equal((await call(server, '/admin/v1/customers/cus_acme/embed-sessions', { token: 'admin-a', method: 'DELETE' })).status, 204);
    for (const { token } of sessions) assert.match(String(await read(token)), /^401 The embed session was ended/);
    now += 1_000;
    assert.equal(await read((await mint()).token), 200);
    assert.equal((await call(server, '/admin/v1/customers/cus_nobody/embed-sessions', { token: 'admin-a', method: 'DELETE' })).status, 404);
  });

  test('a customer that is not Active has its sessions refused and none minted', async () => {
    const session = await mint();
    await call(server, '/admin/v1/customers/cus_acme', { token: 'admin-a', method: 'PUT', body: customer('Expired') });
    assert.equal(await read(session.token), '401 The customer of this embed session is not Active: its console is closed.');
    const refused = await call(server, '/admin/v1/embed-sessions', { token: 'admin-a', body: { customerId: 'cus_acme', expiresInSeconds: 600 } });
    assert.deepEqual([refused.status, refused.json.detail], [409, 'Acme Ltd is Expired: embed sessions are for Active customers only.']);
    await call(server, '/admin/v1/customers/cus_acme', { token: 'admin-a', method: 'PUT', body: customer('Active') });
    assert.equal(await read(session.token), 200, 'Active again, its unended sessions hold again');
  });

  test('the signing key rotates: tokens name their key, two keys verify during a rotation, a removed key’s tokens are refused', async () => {
    const shared = { ...(config.store ? { store: server.stores } : config), clock: () => new Date(now) };
    const old = await mint();
    const rotating = await startServer({ ...shared, embedSessionKeys: [{ id: 'k2', secret: 'a-new-signing-key-of-32-bytes-or-more' }, { id: 'stored' }] });
    const rotated = await startServer({ ...shared, embedSessionKeys: [{ id: 'k2', secret: 'a-new-signing-key-of-32-bytes-or-more' }] });
    try {
      const fresh = await mint(rotating);
      assert.equal(JSON.parse(Buffer.from(fresh.token.split('.')[0]!, 'base64url').toString()).kid, 'k2');
      assert.deepEqual([await read(old.token, rotating), await read(fresh.token, rotating)], [200, 200], 'both keys verify during the rotation');
      assert.equal(await read(fresh.token, rotated), 200);
      assert.equal(await read(old.token, rotated), '401 The token is not valid for this console.', 'the removed key’s tokens');
    } finally {
      if (!config.store) await Promise.all([rotating.close(), rotated.close()]);
    }
  });
});
