/**
 * The console server reads every route's query with that route's schema in the contract
 * (ROUTE_QUERIES): each parameter the schema takes is taken, and each value it refuses is a 400
 * that names the parameter. Walked over the whole table, so a route or a parameter added later is held too.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ROUTE_QUERIES } from '@ops-console/contract/route-docs';
import { ROUTES, type ConsoleRouteName } from '@ops-console/contract/routes';
import type { ConsoleServer } from '../src/index.ts';
import { call, ingest, goodEvent, startServer } from './harness.ts';

let server: ConsoleServer;
/** Stands for a cursor the route itself gave out (asked for with limit=1 before the test's call). */
const cursorOf = '{cursor}';
before(async () => {
  server = await startServer({ clock: () => new Date('2026-09-14T10:00:00Z') });
  // Two of everything a list shows, so each list has a next page and so a cursor of its own.
  await ingest(
    server,
    [0, 1, 2, 3].map((i) => ({ ...goodEvent(i), route: `/contacts/${i % 2}`, status: 500 })),
  );
  const owner = { id: 'u_ana', name: 'Ana Silva' };
  const admin = (path: string, body: unknown, method = 'PUT') => call(server, `/admin/v1${path}`, { token: 'admin-a', method, body });
  for (const i of [1, 2]) {
    assert.equal((await admin(`/customers/cus_${i}`, { name: `Customer ${i}`, plan: 'Free', status: 'Active', owner })).status, 201);
    assert.equal((await admin(`/webhooks/wh_${i}`, { name: `hook.${i}`, customer: owner, owner })).status, 201);
    assert.equal((await admin(`/keys/key_${i}`, { name: `Key ${i}`, customerId: `cus_${i}` })).status, 201);
    assert.equal((await admin('/activity', { kind: 'key-created', actor: owner, text: `created key ${i}` }, 'POST')).status, 201);
    const created = await call(server, '/console/v1/errors', {
      token: 'token-a',
      headers: { 'idempotency-key': `k${i}` },
      body: { code: 500, endpoint: `GET /contacts/${i - 1}`, count: 1, firstSeen: '2026-09-14', status: 'Open' },
    });
    assert.equal(created.status, 201, created.text);
    // Two rules that fire at once: two alerts.
    const rule = await call(server, '/console/v1/alert-rules', {
      token: 'token-a',
      headers: { 'idempotency-key': `r${i}` },
      body: { name: `Traffic ${i}`, metric: 'requestsAbove', threshold: 0, window: '2h' },
    });
    assert.equal(rule.status, 201, rule.text);
  }
  await server.alerts.runOnce();
});
after(() => server.close());

type Field = { _zod: { def: { type: string; innerType?: Field; entries?: Record<string, string> } } };
const inner = (field: Field) => (field._zod.def.type === 'optional' ? field._zod.def.innerType! : field);

/** A value the parameter's schema takes, and one it refuses (none for free text). */
function samples(name: string, field: Field): { good: string; bad?: string } {
  const { type, entries } = inner(field)._zod.def;
  // Text the view reads further: a cursor is one the server gave out, a status a code or a class.
  if (name === 'cursor') return { good: cursorOf };
  if (name === 'status' && type === 'string') return { good: '5xx' };
  if (type === 'enum') return { good: Object.values(entries!)[0]!, bad: 'nope' };
  if (type === 'number') return { good: '7', bad: '0' };
  if (['from', 'to', 'since'].includes(name)) return { good: '2026-09-14T09:00:00Z', bad: 'soon' };
  return { good: 'x' };
}

/** A path of the route with an id that names nothing: a detail route answers 404 there, after reading its query. */
const pathOf = (name: ConsoleRouteName) => `/console/v1${ROUTES[name].path.replace('{id}', 'none')}`;

for (const [name, schema] of Object.entries(ROUTE_QUERIES) as [ConsoleRouteName, { _zod: { def: { shape: Record<string, Field> } } }][]) {
  const route = ROUTES[name];
  if (route.method !== 'GET') continue;
  for (const [parameter, field] of Object.entries(schema._zod.def.shape)) {
    const { good, bad } = samples(parameter, field);
    // A window's bounds go together; the request log's are bounds of their own.
    const pair = name !== 'requests' && (parameter === 'from' || parameter === 'to') ? '&from=2026-09-14T08:00:00Z&to=2026-09-14T10:00:00Z' : '';
    test(`GET ${route.path} takes ${parameter}=${good}`, async () => {
      let value = good;
      if (good === cursorOf) {
        const first = await call(server, `${pathOf(name)}?limit=1`, { token: 'token-a' });
        assert.equal(typeof first.json.nextCursor, 'string', 'the list has a second page');
        value = encodeURIComponent(first.json.nextCursor);
      }
      const { status, json } = await call(server, `${pathOf(name)}?${pair ? pair.slice(1) : `${parameter}=${value}`}`, { token: 'token-a' });
      assert.notEqual(status, 400, JSON.stringify(json));
      assert.ok([200, 404].includes(status), `${status} ${JSON.stringify(json)}`);
    });
    if (bad !== undefined)
      test(`GET ${route.path} refuses ${parameter}=${bad}, naming it`, async () => {
        const { status, json } = await call(server, `${pathOf(name)}?${parameter}=${bad}${pair.replace(new RegExp(`&${parameter}=[^&]*`), '')}`, {
          token: 'token-a',
        });
        assert.equal(status, 400);
        assert.deepEqual(
          json.errors.map((e: { field: string }) => e.field),
          [parameter],
        );
        assert.match(json.detail, new RegExp(`^${parameter} must be`));
      });
  }
}

test('an empty value is no value, and unknown parameters are ignored', async () => {
  const plain = await call(server, '/console/v1/endpoints', { token: 'token-a' });
  const empty = await call(server, '/console/v1/endpoints?status=&sort=&limit=&utm_source=mail', { token: 'token-a' });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.json, plain.json);
});

test('of a parameter given twice the first counts, an empty first one too', async () => {
  assert.equal((await call(server, '/console/v1/endpoints?sort=nope&sort=requests', { token: 'token-a' })).status, 400);
  assert.equal((await call(server, '/console/v1/endpoints?sort=requests&sort=nope', { token: 'token-a' })).status, 200);
  const plain = await call(server, '/console/v1/endpoints', { token: 'token-a' });
  assert.deepEqual((await call(server, '/console/v1/endpoints?sort=&sort=nope', { token: 'token-a' })).json, plain.json);
});

test('since reads any date the server can read, as it always has', async () => {
  const { status } = await call(server, '/console/v1/requests?since=2026-09-14', { token: 'token-a' });
  assert.equal(status, 200);
});

test('a number too long to be one is refused as a number, not read as another', async () => {
  const { status, json } = await call(server, '/console/v1/endpoints?limit=9999999999999999999', { token: 'token-a' });
  assert.equal(status, 400);
  assert.equal(json.detail, 'limit must be a whole number from 1 to 500.');
});
