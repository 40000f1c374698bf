// Ingest: good events kept, bad ones reported by index, nothing half-written; limits answered
// with 413; NDJSON. (What only the DuckDB file does is in duckdb.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { IDEMPOTENCY_TTL_MS, type ConsoleServer } from '../src/index.ts';
import { inColumns } from './column-form.ts';
import { eventWithSecrets, MASK_CONFIG, SECRETS } from './secrets.ts';
import { call, freshStoreConfig, goodEvent, openTestStores, startServer } from './harness.ts';
import { keptRequests } from './kept.ts';

const count = async (server: ConsoleServer) => (await call(server, '/console/v1/requests?limit=500', { token: 'token-a' })).json.items.length as number;

describe('ingest', () => {
  let server: ConsoleServer;
  before(async () => {
    server = await startServer({ clock: () => new Date('2026-09-14T09:45:00Z'), limits: { maxBodyBytes: 200_000, maxBatch: 100 } });
  });
  after(() => server.close());

  test('keeps the good events and reports each bad one with its index and reason', async () => {
    const events = [
      goodEvent(0),
      { ...goodEvent(1), status: 'ok' },
      { ...goodEvent(2), method: 'BREW' },
      goodEvent(3),
      { ...goodEvent(4), ts: 'yesterday' },
      { ...goodEvent(5), durationMs: -3 },
      null,
      { ...goodEvent(7), route: 'contacts' },
      { ...goodEvent(8), ts: '2026-09-14T10:00:00Z' },
      { ...goodEvent(9), route: '/contacts/{id} extra' },
      { ...goodEvent(10), bytes: 2 ** 41 },
      { ...goodEvent(11), ts: '1969-12-31T23:59:00Z' },
    ];
    const before = await count(server);
    const { status, json } = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events } });
    assert.equal(status, 202);
    assert.equal(json.accepted, 2);
    assert.deepEqual(
      json.rejected.map((r: { index: number }) => r.index),
      [1, 2, 4, 5, 6, 7, 8, 9, 10, 11],
    );
    assert.match(json.rejected[7].reason, /without spaces/, 'a route is read back from its "METHOD /route" label');
    assert.match(json.rejected[0].reason, /status/);
    assert.match(json.rejected[6].reason, /future/, 'the clock says 09:45; 10:00 is a clock problem');
    assert.equal(await count(server), before + 2);
  });

  test('keeps the headers a collector was allowed to send, and rejects names that are not header names', async () => {
    const events = [
      { ...goodEvent(1), path: '/contacts/h_1', headers: { 'x-request-id': 'req-1', 'user-agent': '<b>curl</b>' } },
      { ...goodEvent(2), path: '/contacts/h_2', headers: { 'X Request': 'a' } },
      { ...goodEvent(3), path: '/contacts/h_3', headers: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, 'v'])) },
    ];
    const { json } = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events } });
    assert.equal(json.accepted, 1);
    assert.deepEqual(
      json.rejected.map((r: { index: number; reason: string }) => [r.index, /^headers/.test(r.reason)]),
      [
        [1, true],
        [2, true],
      ],
    );
    const stored = await keptRequests(server.stores.telemetry, 'acct_a', { limit: 500, pathContains: '/contacts/h_' });
    assert.deepEqual(
      stored.map((e) => e.headers),
      [{ 'x-request-id': 'req-1', 'user-agent': '<b>curl</b>' }],
    );
  });

  test('accepts NDJSON, one event per line, and reports a line that is not JSON', async () => {
    const body = [JSON.stringify(goodEvent(1)), '{oops', JSON.stringify(goodEvent(2)), ''].join('\n');
    const { status, json } = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(status, 202);
    assert.equal(json.accepted, 2);
    assert.deepEqual(json.rejected, [{ index: 1, reason: 'line 2 is not JSON' }]);
  });

  test('answers HTML, a missing list and wrong types with a clear 400 and keeps nothing', async () => {
    const before = await count(server);
    for (const body of ['<html><body>Bad gateway</body></html>', '{"event": []}', '{"events": {"0": 1}}']) {
      const { status, headers, json } = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body });
      assert.equal(status, 400, body);
      assert.equal(headers.get('content-type'), 'application/problem+json');
      assert.ok(json.detail);
    }
    assert.equal(await count(server), before);
  });

  test('a body or batch over the limits is a 413 and nothing is kept', async () => {
    const before = await count(server);
    const tooMany = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: Array.from({ length: 101 }, (_, i) => goodEvent(i)) } });
    assert.equal(tooMany.status, 413);
    assert.match(tooMany.json.detail, /100 items/);
    const tooBig = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [{ ...goodEvent(0), path: `/${'x'.repeat(250_000)}` }] } });
    assert.equal(tooBig.status, 413);
    assert.equal(await count(server), before);
  });

  test('the column form keeps what the same events sent one by one keep, and rejects a bad one by its index', async () => {
    const events = [
      { ...goodEvent(1), path: '/columns/1', apiVersion: 'v2', keyId: 'key_1', customerId: 'cus_acme', bytes: 120, actor: { id: 'u_1', name: 'Zoë' } },
      { ...goodEvent(2), path: '/columns/2', apiVersion: 'v1', durationMs: 0.125, headers: { 'user-agent': 'agent/1 "x"' } },
      { ...goodEvent(3), path: '/columns/3', status: 700 },
      { ...goodEvent(4), path: '/columns/\ud800/4', method: 'POST', customerId: 'cus_acme' },
    ];
    const one = await call(server, '/ingest/v1/requests', { token: 'ingest-b', body: { events } });
    const columns = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: inColumns(events) });
    assert.equal(columns.status, 202);
    assert.deepEqual(columns.json, one.json);
    assert.deepEqual(
      columns.json.rejected.map((r: { index: number; reason: string }) => [r.index, r.reason]),
      [[2, 'status: must be an HTTP status from 100 to 599']],
    );
    const stored = async (accountId: string) =>
      (await keptRequests(server.stores.telemetry, accountId, { limit: 500, pathContains: '/columns/' })).map(({ accountId: _, seq: __, ...e }) => e);
    const kept = await stored('acct_a');
    assert.equal(kept.length, 3);
    assert.deepEqual(kept, await stored('acct_b'));
    assert.ok(
      kept.some((e) => e.path === '/columns/\ufffd/4'),
      'a lone surrogate becomes U+FFFD, as in the event form',
    );
  });

  test('a column form that cannot be read is a 400 that says why, and nothing is kept', async () => {
    const before = await count(server);
    const good = inColumns([goodEvent(1), goodEvent(2)]);
    const bodies: [unknown, RegExp][] = [
      [{ columns: { ...good.columns, route: [0] } }, /columns\.route: must have one entry per event \(count is 2\), not 1/],
      [{ columns: { ...good.columns, method: [0, 9] } }, /columns\.method\[1\]: must be an index into strings/],
      [{ columns: { ...good.columns, tsBase: 'today' } }, /columns\.tsBase/],
      [{ columns: 'GET /contacts' }, /column form/],
      [{ ...good, events: [goodEvent(3)] }, /either events or columns/],
    ];
    for (const [body, reason] of bodies) {
      const { status, json } = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body });
      assert.equal(status, 400, JSON.stringify(body));
      assert.match(json.detail, reason);
    }
    const tooMany = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: inColumns(Array.from({ length: 101 }, (_, i) => goodEvent(i))) });
    assert.equal(tooMany.status, 413);
    assert.equal(await count(server), before);
  });

  test('webhook deliveries: kept, or rejected with the reason (a wrong type, the future)', async () => {
    const deliveries = [
      { webhookId: 'wh_1', ts: '2026-09-14T09:00:00Z', delivered: true },
      { webhookId: 'wh_1', ts: '2026-09-14T09:01:00Z', delivered: 'yes' },
      { webhookId: 'wh_1', ts: '2026-09-15T09:00:00Z', delivered: true },
    ];
    const { status, json } = await call(server, '/ingest/v1/webhook-deliveries', { token: 'ingest-a', body: { deliveries } });
    assert.equal(status, 202);
    assert.equal(json.accepted, 1);
    assert.deepEqual(
      json.rejected.map((r: { index: number }) => r.index),
      [1, 2],
    );
    assert.match(json.rejected[1].reason, /future/);
  });

  test('refuses a missing or unknown ingest key', async () => {
    assert.equal((await call(server, '/ingest/v1/requests', { body: { events: [goodEvent(0)] } })).status, 401);
    assert.equal((await call(server, '/ingest/v1/requests', { token: 'ingest-z', body: { events: [goodEvent(0)] } })).status, 401);
  });

  test('strings from outside stay text: a path with markup is stored and answered as is', async () => {
    const path = '/contacts/<img src=x onerror=alert(1)>';
    await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [{ ...goodEvent(9), path, ts: '2026-09-14T09:44:00Z' }] } });
    const { json } = await call(server, '/console/v1/requests?limit=1', { token: 'token-a' });
    assert.equal(json.items[0].path, path);
  });

  test('an Idempotency-Key keeps a batch once: a repeat gets the first answer, another batch under the key a 422', async () => {
    const events = [goodEvent(1), { ...goodEvent(2), status: 'bad' }, goodEvent(3)].map((e, i) => ({ ...e, path: `/contacts/once_${i}` }));
    const send = (body: unknown) => call(server, '/ingest/v1/requests', { token: 'ingest-a', body, headers: { 'idempotency-key': 'batch-1' } });
    const stored = async () => (await keptRequests(server.stores.telemetry, 'acct_a', { limit: 500, pathContains: '/contacts/once_' })).length;
    const first = await send({ events });
    assert.equal(first.status, 202);
    assert.equal(first.json.accepted, 2);
    const again = await send({ events });
    assert.equal(again.status, 202);
    assert.deepEqual(again.json, first.json, 'the first answer, rejected events and all');
    assert.equal(await stored(), 2, 'one copy of each event');
    const other = await send({ events: [goodEvent(4)] });
    assert.equal(other.status, 422);
    const otherAccount = await call(server, '/ingest/v1/requests', { token: 'ingest-b', body: { events }, headers: { 'idempotency-key': 'batch-1' } });
    assert.equal(otherAccount.json.accepted, 2, 'keys are per account');
    assert.equal((await send({ events, headers: 1 })).status, 422);
    assert.equal(
      (await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events }, headers: { 'idempotency-key': 'k'.repeat(201) } })).status,
      400,
    );
  });
});

test('the same Idempotency-Key sent to two servers of one store at once keeps the batch once', async () => {
  const config = freshStoreConfig();
  const first = await startServer({ ...config, clock: () => new Date('2026-09-14T09:45:00Z') });
  // DuckDB is one process's file: the second server shares its stores; ClickHouse + PostgreSQL are shared by their URLs.
  const second = await startServer({ ...(config.store ? { store: first.stores } : config), clock: () => new Date('2026-09-14T09:45:00Z') });
  try {
    const events = Array.from({ length: 20 }, (_, i) => ({ ...goodEvent(i), path: `/contacts/twice_${i}` }));
    const send = (server: ConsoleServer) =>
      call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events }, headers: { 'idempotency-key': 'both' } });
    const answers = await Promise.all([send(first), send(second), send(first), send(second)]);
    assert.deepEqual(
      answers.map((a) => [a.status, a.json.accepted]),
      Array.from({ length: 4 }, () => [202, 20]),
    );
    assert.equal((await keptRequests(first.stores.telemetry, 'acct_a', { limit: 500, pathContains: '/contacts/twice_' })).length, 20);
  } finally {
    if (config.store) await first.close();
    else await Promise.all([first.close(), second.close()]);
  }
});

test('per-account rate limits: 429 with Retry-After beyond them, other accounts unaffected; the console API too', async () => {
  const server = await startServer({ rateLimits: { ingest: { requests: 3, perSeconds: 60 }, console: { requests: 2, perSeconds: 60 } } });
  try {
    const send = (key: string) => call(server, '/ingest/v1/requests', { token: key, body: { events: [goodEvent(1)] } });
    for (let i = 0; i < 3; i++) assert.equal((await send('ingest-a')).status, 202);
    const refused = await send('ingest-a');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.match(refused.json.detail, /more than 3 ingest requests in 60 s/);
    assert.equal((await send('ingest-b')).status, 202, 'another account has its own count');
    const read = () => call(server, '/console/v1/activity', { token: 'token-a' });
    assert.deepEqual([(await read()).status, (await read()).status, (await read()).status], [200, 200, 429]);
    assert.equal((await call(server, '/console/v1/activity', { token: 'token-b' })).status, 200);
  } finally {
    await server.close();
  }
});

test('bodies read at once are bounded: one more ingest is a 503 with Retry-After, and nothing is lost once the first is read', async () => {
  const server = await startServer({ maxConcurrentIngest: 1 });
  try {
    // A batch whose body arrives slowly: its first bytes now, the rest when the test says.
    const slow = trickle(
      server,
      'ingest-a',
      [goodEvent(1), goodEvent(2)].map((e, i) => ({ ...e, path: `/contacts/held_${i}` })),
    );
    const busy = await call(server, '/ingest/v1/requests', { token: 'ingest-b', body: { events: [goodEvent(3)] } });
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get('retry-after'), '1');
    slow.release();
    assert.equal((await slow.response).status, 202);
    assert.equal(
      (await call(server, '/ingest/v1/requests', { token: 'ingest-b', body: { events: [goodEvent(3)] } })).status,
      202,
      'taken once the first is read',
    );
    assert.equal((await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10, pathContains: '/contacts/held_' })).length, 2);
  } finally {
    await server.close();
  }
});

test('an Idempotency-Key is kept for a day, then forgotten: a repeat after that is a new batch', async () => {
  let now = Date.parse('2026-09-14T09:45:00Z');
  const server = await startServer({ clock: () => new Date(now) });
  try {
    const send = () => call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [goodEvent(1)] }, headers: { 'idempotency-key': 'daily' } });
    assert.equal((await send()).status, 202);
    const forgetOld = () => server.stores.records.forgetBefore(now - IDEMPOTENCY_TTL_MS);
    now += 23 * 3_600_000;
    await forgetOld();
    assert.ok(await server.stores.records.remembered('acct_a', 'ingest daily'), 'kept after 23 hours');
    now += 2 * 3_600_000;
    await forgetOld();
    assert.equal(await server.stores.records.remembered('acct_a', 'ingest daily'), undefined, 'forgotten after 25 hours');
    assert.equal((await send()).json.accepted, 1);
    assert.equal((await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10 })).length, 2);
  } finally {
    await server.close();
  }
});

test('an answer lists the counts and the first 100 rejections, and the Idempotency-Key keeps only that and the body’s fingerprint', async () => {
  const server = await startServer({ clock: () => new Date('2026-09-14T09:45:00Z') });
  try {
    const events = [...Array.from({ length: 10_000 }, () => ({})), goodEvent(1)];
    events.splice(0, 1, goodEvent(2));
    const body = { events: events.slice(0, 10_000) };
    const send = () => call(server, '/ingest/v1/requests', { token: 'ingest-a', body, headers: { 'idempotency-key': 'many-empty' } });
    const first = await send();
    assert.equal(first.status, 202);
    assert.equal(first.json.accepted, 1);
    assert.equal(first.json.rejectedCount, 9_999);
    assert.deepEqual(
      first.json.rejected.map((r: { index: number }) => r.index),
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    const kept = await server.stores.records.remembered('acct_a', 'ingest many-empty');
    assert.ok(JSON.stringify(kept).length < 50_000, `what is remembered is about 100 reasons, whatever the batch (${JSON.stringify(kept).length} characters)`);
    assert.deepEqual((await send()).json, first.json, 'a repeat is the same answer');
    assert.equal((await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10 })).length, 1, 'and appends nothing');
  } finally {
    await server.close();
  }
});

test('each account’s remembered answers are bounded: the oldest keys go first, another account’s stay', async () => {
  const stores = await openTestStores();
  try {
    // Large answers: each is weighed against the budget as it is kept.
    const answer = (at: number) => ({ fingerprint: 'f', status: 202, body: { note: 'x'.repeat(9_000) }, at });
    await stores.records.remember('acct_b', 'other', answer(0), 30_000);
    for (let i = 0; i < 6; i++) await stores.records.remember('acct_a', `k${i}`, answer(1_000 + i), 30_000);
    const left = await Promise.all(Array.from({ length: 6 }, async (_, i) => (await stores.records.remembered('acct_a', `k${i}`)) !== undefined));
    assert.deepEqual(left, [false, false, false, true, true, true], 'the three newest fit in 30,000 characters');
    assert.ok(await stores.records.remembered('acct_b', 'other'));
  } finally {
    await stores.close();
  }
});

test('a body is counted before it is checked: nesting past 32 levels and NDJSON past the batch limit are 413s that say so', async () => {
  const server = await startServer({ limits: { maxBatch: 3 } });
  try {
    const deep = `{"events":[${'['.repeat(40)}${']'.repeat(40)}]}`;
    const nested = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: deep });
    assert.equal(nested.status, 413);
    assert.match(nested.json.detail, /deeper than 32 levels/);
    const lines = Array.from({ length: 4 }, (_, i) => JSON.stringify(goodEvent(i))).join('\n');
    const ndjson = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: lines, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(ndjson.status, 413);
    assert.match(ndjson.json.detail, /at most 3 items per batch/);
    // A line left inside a string, or closing more than it opened, hides nothing of the next line's nesting.
    const hiding = ['{"a":"', ']]]]', `{"b":${'['.repeat(40)}${']'.repeat(40)}}`].join('\n');
    const hidden = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: hiding, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(hidden.status, 413);
    assert.match(hidden.json.detail, /deeper than 32 levels/);
    assert.equal((await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10 })).length, 0);
  } finally {
    await server.close();
  }
});

test('a gzip body is unpacked through its limit: an ingest bomb is a 413, an honest gzip batch is kept', async () => {
  const server = await startServer({ clock: () => new Date('2026-09-14T09:45:00Z') });
  try {
    const post = (body: Uint8Array) =>
      server.fetch(
        new Request('http://console.test/ingest/v1/requests', {
          method: 'POST',
          headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body,
        }),
      );
    const bomb = gzipSync(`{"events":[${' '.repeat(9_000_000)}]}`);
    const refused = await post(bomb);
    assert.equal(refused.status, 413);
    assert.match(((await refused.json()) as { detail: string }).detail, /unpacks to more than/);
    const honest = await post(gzipSync(JSON.stringify({ events: [goodEvent(1), goodEvent(2)] })));
    assert.deepEqual([honest.status, ((await honest.json()) as { accepted: number }).accepted], [202, 2]);
  } finally {
    await server.close();
  }
});

test('a small plain batch (read on the event loop) and the same batch packed or with many objects (read in a worker) get the same answer and keep the same events', async () => {
  const server = await startServer({ clock: () => new Date('2026-09-14T09:45:00Z') });
  try {
    const events = [
      { ...goodEvent(1), path: '/contacts/same_1', headers: { 'x-request-id': 'r1' } },
      { ...goodEvent(2), status: 'ok' },
      { ...goodEvent(3), path: '/contacts/same_3\u202e' },
      { ...goodEvent(4), ts: '2026-09-14T10:00:00Z' },
    ];
    const text = JSON.stringify({ events });
    // Padding of empty objects past the loop's count of objects, in a field the reader ignores.
    const manyObjects = JSON.stringify({ events, padding: Array.from({ length: 600 }, () => ({})) });
    const post = (body: string | Uint8Array, encoding?: string) =>
      server.fetch(
        new Request('http://console.test/ingest/v1/requests', {
          method: 'POST',
          headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) },
          body,
        }),
      );
    const answers: [number, { accepted: number; rejectedCount: number; rejected: unknown[] }][] = [];
    for (const sent of [post(text), post(gzipSync(text), 'gzip'), post(manyObjects)]) {
      const answer = await sent;
      answers.push([answer.status, (await answer.json()) as (typeof answers)[number][1]]);
    }
    assert.deepEqual(answers[0], [202, { accepted: 2, rejectedCount: 2, rejected: answers[0]![1].rejected }]);
    assert.equal(answers[0][1].rejected.length, 2);
    assert.deepEqual(answers[1], answers[0], 'packed: read in a worker');
    assert.deepEqual(answers[2], answers[0], 'many objects: read in a worker');
    const kept = await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10, pathContains: '/contacts/same_' });
    assert.deepEqual(
      kept.map((r) => [r.path, r.headers]),
      [...Array(3).fill(['/contacts/same_3\ufffd', null]), ...Array(3).fill(['/contacts/same_1', { 'x-request-id': 'r1' }])],
    );
  } finally {
    await server.close();
  }
});

test('secrets are masked before a request is kept, however the batch is sent: credential headers, secret query fields, card numbers, the config’s names and patterns', async () => {
  const server = await startServer({ clock: () => new Date('2026-09-14T09:45:00Z'), capture: { mask: MASK_CONFIG } });
  try {
    const events = [eventWithSecrets(1), eventWithSecrets(2), eventWithSecrets(3)];
    const bodies = [
      { body: JSON.stringify({ events: [events[0]] }), type: 'application/json' },
      { body: gzipSync(JSON.stringify({ events: [events[1]] })), type: 'application/json', encoding: 'gzip' },
      { body: JSON.stringify(inColumns([events[2]!])), type: 'application/json' },
    ];
    for (const { body, type, encoding } of bodies) {
      const answer = await server.fetch(
        new Request('http://console.test/ingest/v1/requests', {
          method: 'POST',
          headers: { authorization: 'Bearer ingest-a', 'content-type': type, ...(encoding ? { 'content-encoding': encoding } : {}) },
          body,
        }),
      );
      assert.deepEqual([answer.status, ((await answer.json()) as { accepted: number }).accepted], [202, 1]);
    }
    const kept = await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10, pathContains: '/pay/' });
    assert.equal(kept.length, 3);
    for (const request of kept) {
      assert.equal(request.path, '/pay/[masked]?card_number=[masked]&page=2&access_token=[masked]&order=4242424242424241');
      assert.deepEqual(request.headers, {
        authorization: '[masked]',
        cookie: '[masked]',
        'x-api-key': '[masked]',
        'x-tenant-secret': '[masked]',
        'x-note': 'paid with [masked]',
        'user-agent': 'curl/8.5',
      });
    }
    const list = await call(server, '/console/v1/requests?limit=10', { token: 'token-a' });
    const details = await Promise.all(list.json.items.map((r: { id: string }) => call(server, `/console/v1/requests/${r.id}`, { token: 'token-a' })));
    const answered = JSON.stringify([list.json, ...details.map((d) => d.json)]);
    for (const [kind, secret] of Object.entries(SECRETS)) assert.ok(!answered.includes(secret), `the ${kind} is in no answer`);
  } finally {
    await server.close();
  }
});

/** An ingest request whose body sends its first bytes now and the rest when `release` is called (or never). */
function trickle(server: ConsoleServer, key: string, events: unknown[]) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const body = JSON.stringify({ events });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(body.slice(0, 10)));
      await held;
      controller.enqueue(new TextEncoder().encode(body.slice(10)));
      controller.close();
    },
  });
  const response = server.fetch(
    new Request('http://console.test/ingest/v1/requests', {
      method: 'POST',
      body: stream,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      duplex: 'half',
    }),
  );
  return { response, release };
}

test('upload slots are shared fairly: two accounts trickling bodies leave the last slot to a third, and nothing held is lost', async () => {
  const server = await startServer({
    ingestKeys: { 'ingest-a': 'acct_a', 'ingest-b': 'acct_b', 'ingest-c': 'acct_c' },
    maxConcurrentIngest: 4,
    uploadPace: { graceSeconds: 600 },
  });
  try {
    const held = [
      trickle(server, 'ingest-a', [{ ...goodEvent(1), path: '/contacts/slot_a1' }]),
      trickle(server, 'ingest-b', [{ ...goodEvent(2), path: '/contacts/slot_b1' }]),
      trickle(server, 'ingest-a', [{ ...goodEvent(3), path: '/contacts/slot_a2' }]),
    ];
    const fourth = await call(server, '/ingest/v1/requests', { token: 'ingest-b', body: { events: [goodEvent(4)] } });
    assert.equal(fourth.status, 503, 'an account already reading may not take the last free slot');
    const third = await call(server, '/ingest/v1/requests', { token: 'ingest-c', body: { events: [goodEvent(5)] } });
    assert.deepEqual([third.status, third.json.accepted], [202, 1], 'an account reading none gets it');
    for (const { release } of held) release();
    assert.deepEqual(await Promise.all(held.map(async ({ response }) => (await response).status)), [202, 202, 202]);
    const kept = async (account: string) => (await keptRequests(server.stores.telemetry, account, { limit: 10, pathContains: '/contacts/slot_' })).length;
    assert.deepEqual([await kept('acct_a'), await kept('acct_b')], [2, 1]);
  } finally {
    await server.close();
  }
});

test('a body that arrives slower than the pace is cut with a 408, nothing of it is kept, and its slot is free again', async () => {
  const server = await startServer({ maxConcurrentIngest: 1, uploadPace: { graceSeconds: 0.2, minBytesPerSecond: 1_000 } });
  try {
    const slow = trickle(server, 'ingest-a', [{ ...goodEvent(1), path: '/contacts/slow_1' }]);
    const cut = await slow.response;
    assert.equal(cut.status, 408);
    assert.match(((await cut.json()) as { detail: string }).detail, /slower than 1,000 bytes a second/);
    slow.release();
    assert.equal((await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [goodEvent(2)] } })).status, 202);
    assert.equal((await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10, pathContains: '/contacts/slow_' })).length, 0);
  } finally {
    await server.close();
  }
});

test('a rejection’s reason names at most three problems and is at most 300 characters, however many the event has', async () => {
  const server = await startServer({ clock: () => new Date('2026-09-14T09:45:00Z') });
  try {
    const headers = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`Bad Name ${i}`, '']));
    const answer = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [{ ...goodEvent(1), headers }, {}] } });
    assert.equal(answer.status, 202);
    const [many, empty] = answer.json.rejected as { reason: string }[];
    assert.ok(many!.reason.length <= 300, `${many!.reason.length} characters`);
    assert.equal(empty!.reason.split('; ').length, 4, 'three problems and how many more');
    assert.match(empty!.reason, /; and \d+ more$/);
    assert.ok(answer.text.length < 2_000, 'the answer is small');
  } finally {
    await server.close();
  }
});
