// Deprecations and published versions through the admin API: who still calls a deprecated
// endpoint (checked against the events), the endpoint rows' notices, the feed's items, and the
// sunset recorded once when it passes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as schema from '@ops-console/contract/schemas';
import type { ConsoleServer } from '../src/index.ts';
import { knownEvents, NOW } from './events.ts';
import { call, ingest, startServer, type EventInput } from './harness.ts';

const owner = { id: 'u_mia', name: 'Mia Wong' };
const events = knownEvents();

interface Caller {
  id: string;
  name?: string;
  requests: number;
  lastCallAt: string;
}

/** The callers the events say, busiest first, as GET /versions lists them. */
function callersOf(calls: EventInput[], idOf: (e: EventInput) => string | undefined, names: Record<string, string> = {}): Caller[] {
  const callers = new Map<string, { requests: number; last: number }>();
  for (const e of calls) {
    const id = idOf(e);
    if (!id) continue;
    const seen = callers.get(id) ?? { requests: 0, last: 0 };
    callers.set(id, { requests: seen.requests + 1, last: Math.max(seen.last, Date.parse(e.ts)) });
  }
  return [...callers]
    .sort(([a, x], [b, y]) => y.requests - x.requests || y.last - x.last || (a < b ? -1 : 1))
    .map(([id, c]) => ({
      id,
      ...(names[id] ? { name: names[id] } : {}),
      requests: c.requests,
      lastCallAt: new Date(c.last).toISOString().replace('.000Z', 'Z'),
    }));
}

describe('deprecations and published versions', () => {
  let now = Date.parse(NOW);
  let server: ConsoleServer;
  const admin = (path: string, body: unknown, method = 'PUT', token = 'admin-a') => call(server, `/admin/v1${path}`, { token, method, body });
  const feed = async (token = 'token-a') =>
    (await call(server, '/console/v1/activity?limit=100', { token })).json.items as { kind: string; text: string; at: string; actor: { name: string } }[];

  before(async () => {
    server = await startServer({ clock: () => new Date(now) });
    await ingest(server, events);
    await admin('/customers/cus_acme', { name: 'Acme Ltd', createdAt: '2025-03-02', plan: 'Free', status: 'Active', owner });
  });
  after(() => server.close());

  test('a deprecation lists the customers and keys still calling, with counts and last calls from the events', async () => {
    const sunset = '2026-10-14T09:45:00Z';
    const created = await admin('/deprecations/dep_messages', {
      endpoint: 'POST /messages',
      sunsetAt: sunset,
      replacement: 'POST /v2/messages',
      docsUrl: 'https://docs.example.com/messages',
      actor: owner,
    });
    assert.equal(created.status, 201);
    const { status, json } = await call(server, '/console/v1/versions', { token: 'token-a' });
    assert.equal(status, 200);
    assert.ok(schema.versions.safeParse(json).success, 'the answer is the contract’s');
    const from = Date.parse(json.window.from);
    const calls = events.filter((e) => e.method === 'POST' && e.route === '/messages' && Date.parse(e.ts) >= from && Date.parse(e.ts) <= now);
    assert.ok(calls.length > 0);
    assert.deepEqual(json.deprecations, [
      {
        id: 'dep_messages',
        endpoint: 'POST /messages',
        apiVersion: null,
        sunsetAt: sunset,
        turnedOff: false,
        replacement: 'POST /v2/messages',
        docsUrl: 'https://docs.example.com/messages',
        daysToSunset: 30,
        requests: calls.length,
        customers: callersOf(calls, (e) => e.customerId, { cus_acme: 'Acme Ltd' }),
        keys: callersOf(calls, (e) => e.keyId),
      },
    ]);
    const items = (await feed()).filter((i) => i.kind === 'endpoint-deprecated');
    assert.deepEqual(
      items.map((i) => [i.actor.name, i.text]),
      [['Mia Wong', 'deprecated the endpoint POST /messages, to be turned off on 2026-10-14']],
    );
  });

  test('replacing a deprecation adds no second item; the endpoint rows of its version carry the notice', async () => {
    const sunset = '2026-09-20T00:00:00Z';
    assert.equal((await admin('/deprecations/dep_contacts', { endpoint: 'GET /contacts/{id}', apiVersion: 'v2', sunsetAt: sunset })).status, 201);
    assert.equal((await admin('/deprecations/dep_contacts', { endpoint: 'GET /contacts/{id}', apiVersion: 'v2', sunsetAt: sunset })).status, 200);
    const texts = (await feed()).filter((i) => i.kind === 'endpoint-deprecated').map((i) => `${i.actor.name} ${i.text}`);
    assert.equal(texts.filter((t) => t.includes('GET /contacts/{id}')).length, 1);
    assert.ok(texts.includes('Ops Console deprecated the endpoint GET /contacts/{id} in version v2, to be turned off on 2026-09-20'));

    const { json } = await call(server, '/console/v1/endpoints?limit=100', { token: 'token-a' });
    assert.ok(schema.endpointPage.safeParse(json).success);
    const notices = Object.fromEntries(
      (json.items as { method: string; path: string; apiVersion?: string; deprecation?: { id: string } }[]).map((r) => [
        `${r.apiVersion ?? ''} ${r.method} ${r.path}`,
        r.deprecation?.id ?? null,
      ]),
    );
    assert.equal(notices['v1 POST /messages'], 'dep_messages', 'every version of a route deprecated without one');
    assert.equal(notices['v2 GET /contacts/{id}'], 'dep_contacts');
    assert.equal(notices['v1 GET /contacts/{id}'], null, 'only the deprecated version');
    assert.equal(notices[' POST /auth/token'], null);

    const row = (json.items as { id: string; apiVersion?: string; path: string }[]).find((r) => r.apiVersion === 'v2' && r.path === '/contacts/{id}')!;
    const detail = await call(server, `/console/v1/endpoints/${row.id}`, { token: 'token-a' });
    assert.deepEqual(detail.json.deprecation, { id: 'dep_contacts', sunsetAt: sunset, turnedOff: false, replacement: null, docsUrl: null });
  });

  test('once the sunset passes, the feed says it was turned off, once, at the sunset', async () => {
    const before = (await feed()).filter((i) => i.text.startsWith('turned off'));
    assert.deepEqual(before, []);
    now = Date.parse('2026-09-21T08:00:00Z');
    // Two readers at once record it once.
    const [a, b] = await Promise.all([feed(), feed()]);
    for (const items of [a, b, await feed()]) {
      const off = items.filter((i) => i.text.startsWith('turned off'));
      assert.deepEqual(
        off.map((i) => [i.actor.name, i.text, i.at]),
        [['Ops Console', 'turned off the deprecated endpoint GET /contacts/{id} in version v2', '2026-09-20T00:00:00Z']],
      );
    }
    const { json } = await call(server, '/console/v1/versions', { token: 'token-a' });
    assert.deepEqual(
      json.deprecations.map((d: { id: string }) => d.id),
      ['dep_messages', 'dep_contacts'],
      'those still to come before those turned off',
    );
    const contacts = json.deprecations.find((d: { id: string }) => d.id === 'dep_contacts');
    assert.equal(contacts.turnedOff, true);
    assert.equal(contacts.daysToSunset, 0);
    // A sunset moved later answers again until then.
    await admin('/deprecations/dep_contacts', { endpoint: 'GET /contacts/{id}', apiVersion: 'v2', sunsetAt: '2026-09-25T00:00:00Z' });
    const moved = (await call(server, '/console/v1/versions', { token: 'token-a' })).json.deprecations.find((d: { id: string }) => d.id === 'dep_contacts');
    assert.deepEqual([moved.turnedOff, moved.daysToSunset], [false, 4]);
    now = Date.parse(NOW);
  });

  test('a published version is a row of GET /versions, and the feed says so once', async () => {
    assert.equal((await admin('/versions', { version: '3', publishedAt: '2026-09-14T09:00:00Z', docsUrl: 'https://docs.example.com/v3' }, 'POST')).status, 201);
    assert.equal(
      (await admin('/versions', { version: '3', publishedAt: '2026-09-14T09:00:00Z', docsUrl: 'https://docs.example.com/v3/' }, 'POST')).status,
      200,
    );
    const published = (await feed()).filter((i) => i.kind === 'docs-published');
    assert.deepEqual(
      published.map((i) => [i.text, i.at]),
      [['published documentation for version 3', '2026-09-14T09:00:00Z']],
    );
    const { json } = await call(server, '/console/v1/versions', { token: 'token-a' });
    const three = json.versions.find((v: { version: string | null }) => v.version === '3');
    assert.deepEqual(three, {
      version: '3',
      requests: 0,
      sharePct: 0,
      perBucket: json.starts.map(() => 0),
      publishedAt: '2026-09-14T09:00:00Z',
      docsUrl: 'https://docs.example.com/v3/',
    });
    assert.equal(json.versions.at(-1).version, '3', 'a version without requests comes last');
    await admin('/versions', { version: 'v5', publishedAt: '2026-09-14T09:10:00Z' }, 'POST');
    assert.ok(
      (await feed()).some((i) => i.text === 'published documentation for version 5'),
      'v5 reads as version 5',
    );
  });

  test('bad bodies are refused with the field, and another account sees none of it', async () => {
    const refused = [
      { endpoint: 'contacts', sunsetAt: NOW },
      { endpoint: 'DELETE /contacts', sunsetAt: 'soon' },
      { endpoint: 'DELETE /contacts', sunsetAt: NOW, docsUrl: 'javascript:alert(1)' },
      { endpoint: 'DELETE /con tacts', sunsetAt: NOW },
    ];
    for (const body of refused) {
      const answer = await admin('/deprecations/dep_bad', body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.ok(Array.isArray(answer.json.errors) && answer.json.errors.length > 0);
    }
    assert.equal((await admin('/versions', { version: '', publishedAt: NOW }, 'POST')).status, 422);
    assert.equal((await admin('/deprecations/dep_x', { endpoint: 'DELETE /contacts', sunsetAt: NOW }, 'PUT', 'ingest-a')).status, 401);

    const other = await call(server, '/console/v1/versions', { token: 'token-b' });
    assert.deepEqual(other.json.deprecations, []);
    assert.deepEqual(
      (await feed('token-b')).filter((i) => i.kind === 'endpoint-deprecated' || i.kind === 'docs-published'),
      [],
    );
  });
});
