// API keys through the admin API and the traffic: the list and a key's page, their figures
// checked against the events, statuses, use after revocation, and the feed's "created a new API key".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as schema from '@ops-console/contract/schemas';
import type { ConsoleServer } from '../src/index.ts';
import { NOW } from './events.ts';
import { call, ingest, nearestRankP95, pct1, startServer, type EventInput } from './harness.ts';

const owner = { id: 'u_lee', name: 'Lee Park' };
const DAY = 86_400_000;
const ago = (days: number, minutes = 0) => new Date(Date.parse(NOW) - days * DAY - minutes * 60_000).toISOString();
const request = (keyId: string, ts: string, extra: Partial<EventInput> = {}): EventInput => ({
  ts,
  method: 'GET',
  route: '/contacts',
  status: 200,
  durationMs: 20,
  keyId,
  customerId: 'cus_acme',
  ...extra,
});

const REVOKED_AT = ago(2);
const events: EventInput[] = [
  // The live key: two versions, three endpoints, server errors and 429s over the last days.
  ...Array.from({ length: 24 }, (_, i) =>
    request('key_live', ago(i % 6, i + 1), {
      method: i % 3 ? 'GET' : 'POST',
      apiVersion: i % 4 ? 'v3' : 'v2',
      route: i % 5 ? '/contacts' : '/contacts/{id}',
      status: i % 7 === 0 ? 500 : i % 8 === 0 ? 429 : 200,
      durationMs: 10 + i * 3,
    }),
  ),
  // The revoked key: before and after its revocation.
  ...[5, 4, 3].map((d) => request('key_revoked', ago(d), { durationMs: 40 })),
  ...[1, 0.5].map((d) => request('key_revoked', ago(d), { status: 401, durationMs: 5 })),
  // The idle key, last used two months ago; a key nobody registered, called three days ago.
  request('key_idle', ago(60), { customerId: 'cus_globex' }),
  ...[3, 3].map((d, i) => request('key_stray', ago(d, i), { customerId: undefined })),
];
const inWindow = (e: EventInput, window: { from: string; to: string }) =>
  Date.parse(e.ts) >= Date.parse(window.from) && Date.parse(e.ts) < Date.parse(window.to);

describe('API keys', () => {
  let server: ConsoleServer;
  const admin = (path: string, body: unknown, token = 'admin-a') => call(server, `/admin/v1${path}`, { token, method: 'PUT', body });
  const get = (path: string, token = 'token-a') => call(server, `/console/v1${path}`, { token });

  before(async () => {
    server = await startServer({ clock: () => new Date(NOW) });
    await ingest(server, events);
    await ingest(server, [request('key_live', ago(1), { customerId: 'cus_other' })], 'ingest-b');
    for (const [id, name] of [
      ['cus_acme', 'Acme Ltd'],
      ['cus_globex', 'Globex Corp'],
    ])
      await admin(`/customers/${id}`, { name, plan: 'Pro', status: 'Active', owner });
    for (const [id, body] of Object.entries({
      key_live: { name: 'Production', customerId: 'cus_acme', createdAt: ago(40) },
      key_revoked: { name: 'Old laptop', customerId: 'cus_acme', createdAt: ago(50), revokedAt: REVOKED_AT },
      key_idle: { name: 'Batch jobs', customerId: 'cus_globex', createdAt: ago(90) },
      key_new: { name: 'Staging', customerId: 'cus_globex' },
    }))
      assert.equal((await admin(`/keys/${id}`, body)).status, 201, id);
  });
  after(() => server.close());

  test('the list holds every registered key and every key the traffic named, with its status', async () => {
    // A key without a name sorts under its id.
    const { status, json } = await get('/keys?sort=name');
    assert.equal(status, 200);
    assert.ok(schema.keyPage.safeParse(json).success, 'the answer is the contract’s');
    const rows = json.items as schema.KeySummary[];
    assert.deepEqual(
      rows.map((r) => [r.id, r.name, r.customer?.name ?? null, r.status]),
      [
        ['key_idle', 'Batch jobs', 'Globex Corp', 'Idle'],
        ['key_stray', null, null, 'Unregistered'],
        ['key_revoked', 'Old laptop', 'Acme Ltd', 'Revoked'],
        ['key_live', 'Production', 'Acme Ltd', 'Active'],
        ['key_new', 'Staging', 'Globex Corp', 'Idle'],
      ],
    );
    const lastUsed = (id: string) => {
      const times = events.filter((e) => e.keyId === id).map((e) => Date.parse(e.ts));
      return times.length ? new Date(Math.max(...times)).toISOString().replace('.000Z', 'Z') : null;
    };
    for (const row of rows) {
      const mine = events.filter((e) => e.keyId === row.id && inWindow(e, json.window));
      assert.equal(row.requests, mine.length, row.id);
      assert.equal(row.errorPct, pct1(mine.filter((e) => e.status >= 500).length, mine.length), row.id);
      assert.equal(row.p95Ms, mine.length ? nearestRankP95(mine.map((e) => e.durationMs)) : null, row.id);
      assert.equal(row.throttled, mine.filter((e) => e.status === 429).length, row.id);
      assert.equal(row.lastUsedAt, lastUsed(row.id), row.id);
    }
    assert.equal(rows.find((r) => r.id === 'key_revoked')!.revokedAt, REVOKED_AT.replace('.000Z', 'Z'));
    assert.ok(rows.find((r) => r.id === 'key_live')!.throttled > 0, 'the live key ran into its limit');
  });

  test('the list is searched, filtered, sorted and paged', async () => {
    const ids = async (query: string) => ((await get(`/keys?${query}`)).json.items as { id: string }[]).map((r) => r.id);
    assert.deepEqual(await ids('q=GLOBEX&sort=name'), ['key_idle', 'key_new'], 'by customer name');
    assert.deepEqual(await ids('q=stray'), ['key_stray'], 'by id');
    assert.deepEqual(await ids('customerId=cus_acme&sort=name'), ['key_revoked', 'key_live']);
    assert.deepEqual(await ids('status=Active'), ['key_live']);
    assert.deepEqual(await ids('status=Unregistered'), ['key_stray']);
    assert.deepEqual(await ids(''), ['key_live', 'key_revoked', 'key_stray', 'key_idle', 'key_new'], 'busiest first, ties by id');
    assert.deepEqual(await ids('sort=-lastUsedAt'), ['key_live', 'key_revoked', 'key_stray', 'key_idle', 'key_new'], 'never used last');
    const first = await get('/keys?limit=2');
    assert.deepEqual(
      first.json.items.map((r: { id: string }) => r.id),
      ['key_live', 'key_revoked'],
    );
    const second = await get(`/keys?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    assert.deepEqual(
      second.json.items.map((r: { id: string }) => r.id),
      ['key_stray', 'key_idle'],
    );
    assert.equal((await get('/keys?sort=bogus')).status, 400);
    assert.equal((await get('/keys?status=Sleeping')).status, 400);
  });

  test('a range narrows the figures, not the keys', async () => {
    const { json } = await get('/keys?range=24h&sort=name');
    const live = (json.items as schema.KeySummary[]).find((r) => r.id === 'key_live')!;
    assert.equal(live.requests, events.filter((e) => e.keyId === 'key_live' && inWindow(e, json.window)).length);
    assert.equal(json.items.length, 5);
  });

  test('a key’s page: its buckets, endpoints and versions with shares to 100.0, and its latest requests', async () => {
    const { status, json } = await get('/keys/key_live');
    assert.equal(status, 200);
    assert.ok(schema.apiKey.safeParse(json).success, 'the answer is the contract’s');
    const mine = events.filter((e) => e.keyId === 'key_live' && inWindow(e, json.window));
    assert.equal(json.requests, mine.length);
    assert.equal(
      json.overTime.requests.reduce((a: number, b: number) => a + b, 0),
      mine.length,
    );
    assert.equal(
      json.overTime.errors.reduce((a: number, b: number) => a + b, 0),
      mine.filter((e) => e.status >= 500).length,
    );
    const perEndpoint = new Map<string, number>();
    for (const e of mine) perEndpoint.set(`${e.apiVersion} ${e.method} ${e.route}`, (perEndpoint.get(`${e.apiVersion} ${e.method} ${e.route}`) ?? 0) + 1);
    assert.deepEqual(
      Object.fromEntries(json.endpoints.map((r: { apiVersion: string; label: string; requests: number }) => [`${r.apiVersion} ${r.label}`, r.requests])),
      Object.fromEntries(perEndpoint),
    );
    const sum = (rows: { sharePct: number }[]) => Math.round(rows.reduce((a, r) => a + r.sharePct, 0) * 10) / 10;
    assert.equal(sum(json.endpoints), 100);
    assert.deepEqual(
      json.versions.map((v: { version: string; requests: number }) => [v.version, v.requests]),
      [
        ['v3', mine.filter((e) => e.apiVersion === 'v3').length],
        ['v2', mine.filter((e) => e.apiVersion === 'v2').length],
      ],
    );
    assert.equal(sum(json.versions), 100);
    const newest = [...events.filter((e) => e.keyId === 'key_live')].sort((a, b) => Date.parse(b.ts) - Date.parse(a.ts)).slice(0, 10);
    assert.deepEqual(
      json.latestRequests.map((r: { time: string; afterRevocation: boolean }) => [r.time, r.afterRevocation]),
      newest.map((e) => [e.ts.replace('.000Z', 'Z'), false]),
    );
    assert.equal(json.afterRevocation, null);
  });

  test('a revoked key’s requests after its revocation are counted and flagged', async () => {
    const { json } = await get('/keys/key_revoked');
    const late = events.filter((e) => e.keyId === 'key_revoked' && Date.parse(e.ts) >= Date.parse(REVOKED_AT));
    assert.equal(late.length, 2);
    assert.deepEqual(json.afterRevocation, { requests: late.length, lastAt: late.at(-1)!.ts.replace('.000Z', 'Z') });
    assert.deepEqual(
      json.latestRequests.map((r: { status: number; afterRevocation: boolean }) => [r.status, r.afterRevocation]),
      [
        [401, true],
        [401, true],
        [200, false],
        [200, false],
        [200, false],
      ],
    );
  });

  test('an unregistered key has a page; an unknown one, or another account’s, has none', async () => {
    const stray = await get('/keys/key_stray');
    assert.equal(stray.status, 200);
    assert.equal(stray.json.status, 'Unregistered');
    assert.equal(stray.json.requests, 2);
    assert.equal((await get('/keys/key_nobody')).status, 404);
    assert.equal((await get('/keys/key_idle', 'token-b')).status, 404);
    const other = await get('/keys/key_live', 'token-b');
    assert.equal(other.json.requests, 1, 'the other account sees its own key_live only');
    assert.equal(other.json.status, 'Unregistered');
  });

  test('the request log and its summary filter by key', async () => {
    const log = await get('/requests?keyId=key_revoked');
    assert.equal(log.json.items.length, events.filter((e) => e.keyId === 'key_revoked').length);
    const summary = await get('/requests/summary?keyId=key_revoked');
    assert.deepEqual(summary.json.groups.map((g: { method: string; path: string; status: number }) => `${g.method} ${g.path} ${g.status}`).sort(), [
      'GET /contacts 200',
      'GET /contacts 401',
    ]);
  });

  test('a new key tells the feed; a change, a bad body, an unknown customer or another account does not', async () => {
    const feed = async () =>
      ((await get('/activity?kind=key-created')).json.items as { actor: { name: string }; text: string; subject?: unknown }[]).map((i) => [
        i.actor.name,
        i.text,
        i.subject,
      ]);
    const before = await feed();
    assert.equal(before.length, 4);
    assert.deepEqual(before[0], ['Globex Corp', 'created a new API key', { kind: 'key', id: 'key_new' }]);
    const renamed = await admin('/keys/key_new', { name: 'Staging 2', customerId: 'cus_globex' });
    assert.equal(renamed.status, 200);
    const revoked = await admin('/keys/key_live', { name: 'Production', customerId: 'cus_acme', revokedAt: NOW });
    assert.equal(revoked.json.createdAt, ago(40).replace('.000Z', 'Z'), 'a replacement keeps the creation time');
    for (const body of [{}, { name: '', customerId: 'cus_acme' }, { name: 'x', customerId: 'cus_acme', revokedAt: 'yesterday' }])
      assert.equal((await admin('/keys/key_x', body)).status, 422, JSON.stringify(body));
    assert.equal((await admin(`/keys/${'k'.repeat(129)}`, { name: 'x', customerId: 'cus_acme' })).status, 422);
    assert.equal((await admin('/keys/key_x', { name: 'x', customerId: 'cus_nobody' })).status, 404);
    assert.equal((await admin('/keys/key_x', { name: 'x', customerId: 'cus_acme' }, 'admin-b')).status, 404);
    assert.deepEqual(await feed(), before);
    assert.equal((await get('/keys/key_live')).json.status, 'Revoked');
    assert.equal((await admin('/keys/key_live', { name: 'Production', customerId: 'cus_acme', revokedAt: null })).status, 200);
    assert.equal((await get('/keys/key_live')).json.status, 'Active', 'null lifts the revocation');
  });
});
