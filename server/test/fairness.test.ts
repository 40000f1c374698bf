// Fair shares under load, by outcome: one tenant's heavy reads wait behind its own, never in
// front of another tenant's; the admin API and embed-session minting have limits of their own;
// and, against a real server, each attack of the bench's leaves another tenant's batches taken
// and kept and its reads answered.
// (How long the other tenant waits under each attack is measured by `BENCH_PARTS=fairness
// npm run bench:server`, not asserted here.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ATTACKS, KEYS } from '../bench/fairness.ts';
import { backgroundWork, createFairShare, fairTelemetry, QUERY_SHARE } from '../src/fair-share.ts';
import { openStores, type Stores } from '../src/index.ts';
import { toRequestEvent } from '@ops-console/contract/request-event';
import type { TelemetryStore } from '../src/store/types.ts';
import { call, goodEvent, openTestStores, startServer } from './harness.ts';

/** Stores whose telemetry reads of `held` wait until `release`, counting how many wait at once. */
function holding(stores: Stores, held: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen = { inside: 0, most: 0, other: 0 };
  const waiting: { count: number; resolve: () => void }[] = [];
  /** Resolves once `count` reads of `held` wait inside the store at once. */
  const reached = (count: number) => new Promise<void>((resolve) => (seen.inside >= count ? resolve() : waiting.push({ count, resolve })));
  const telemetry = new Proxy(stores.telemetry, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || name === 'append' || name === 'appendDeliveries') return value;
      return async (accountId: unknown, ...rest: unknown[]) => {
        if (accountId !== held) {
          seen.other++;
          return (value as (...args: unknown[]) => unknown).call(target, accountId, ...rest);
        }
        seen.most = Math.max(seen.most, ++seen.inside);
        for (const w of waiting.filter((w) => seen.inside >= w.count)) w.resolve();
        try {
          await gate;
          return await (value as (...args: unknown[]) => Promise<unknown>).call(target, accountId, ...rest);
        } finally {
          seen.inside--;
        }
      };
    },
  });
  return { stores: { ...stores, telemetry }, release, seen, reached };
}

test('a tenant’s heavy reads wait behind its own: another tenant reads meanwhile, and every held read is answered', { timeout: 30_000 }, async () => {
  const stores = await openTestStores();
  const held = holding(stores, 'acct_a');
  const server = await startServer({ store: held.stores, fairShare: { total: 3, perAccount: 2 } });
  try {
    const reads = Array.from({ length: 6 }, () => call(server, '/console/v1/requests?limit=5', { token: 'token-a' }));
    await held.reached(1);
    const other = await call(server, '/console/v1/requests?limit=5', { token: 'token-b' });
    assert.equal(other.status, 200, 'tenant B is answered while A’s reads are held');
    assert.ok(held.seen.other > 0);
    assert.equal(held.seen.most, 1, 'one of A’s queries at a time reached the store');
    held.release();
    assert.deepEqual(
      (await Promise.all(reads)).map((r) => r.status),
      Array(6).fill(200),
    );
  } finally {
    await server.close();
  }
});

test(
  'background work (alert evaluation) queries once the requests’ queries pause, or after its longest wait: late, never starved',
  { timeout: 30_000 },
  async () => {
    const stores = await openTestStores();
    try {
      await stores.telemetry.append([toRequestEvent('acct_a', { ...goodEvent(1), ts: Date.parse(goodEvent(1).ts) })]);
      const held = holding(stores, 'acct_b');
      const range = { periods: [{ from: 0, to: Date.parse('2027-01-01T00:00:00Z') }] };
      const requestsOf = (fair: TelemetryStore) => fair.counts('acct_a', range).then((c) => c.flatMap((row) => row.requests));
      // Waits for the requests as long as the test needs.
      const patient = fairTelemetry(held.stores.telemetry, createFairShare(QUERY_SHARE), { yieldAtMostMs: 600_000 });
      const request = patient.requests('acct_b', { limit: 5 });
      await held.reached(1);
      const order: string[] = [];
      const background = backgroundWork
        .run(true, () => requestsOf(patient))
        .then((counted) => {
          order.push('background');
          return counted;
        });
      // A foreground read of another account is not held back (one query per account, and the share has room).
      assert.deepEqual(await requestsOf(patient), [1]);
      await sleep(50);
      assert.equal(order.length, 0, 'the background query waits while a request’s query runs');
      held.release();
      await request;
      order.push('request');
      assert.deepEqual(await background, [1]);
      assert.deepEqual(order, ['request', 'background']);
      // Requests that never pause: the background query still runs, after its longest wait.
      const again = holding(stores, 'acct_b');
      const hurried = fairTelemetry(again.stores.telemetry, createFairShare(QUERY_SHARE), { yieldAtMostMs: 10 });
      const endless = hurried.requests('acct_b', { limit: 5 });
      await again.reached(1);
      assert.deepEqual(await backgroundWork.run(true, () => requestsOf(hurried)), [1]);
      again.release();
      await endless;
    } finally {
      await stores.close();
    }
  },
);

test('a tenant past its waiting reads gets 429 with Retry-After; its reads in turn still end', { timeout: 30_000 }, async () => {
  const stores = await openTestStores();
  const held = holding(stores, 'acct_a');
  const server = await startServer({ store: held.stores, fairShare: { total: 4, perAccount: 1, queue: 2 } });
  try {
    const reads = Array.from({ length: 3 }, () => call(server, '/console/v1/requests?limit=5', { token: 'token-a' }));
    await held.reached(1);
    const refused = await call(server, '/console/v1/requests?limit=5', { token: 'token-a' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    held.release();
    assert.deepEqual(
      (await Promise.all(reads)).map((r) => r.status),
      [200, 200, 200],
    );
  } finally {
    await server.close();
  }
});

test('the admin API and embed-session minting have limits of their own, per account', async () => {
  const server = await startServer({ rateLimits: { admin: { requests: 4, perSeconds: 600 }, embedSessions: { requests: 2, perSeconds: 600 } } });
  try {
    const owner = { id: 'u_ana', name: 'Ana Silva' };
    const put = (key: string, id: string) =>
      call(server, `/admin/v1/customers/${id}`, { token: key, method: 'PUT', body: { name: id, plan: 'Pro', status: 'Active', owner } });
    const mint = () => call(server, '/admin/v1/embed-sessions', { token: 'admin-a', body: { customerId: 'cus_1', expiresInSeconds: 60 } });
    assert.equal((await put('admin-a', 'cus_1')).status, 201);
    assert.deepEqual([(await mint()).status, (await mint()).status], [201, 201]);
    const third = await mint();
    assert.equal(third.status, 429);
    assert.match(third.json.detail, /more than 2 embed session requests in 600 s/);
    const over = await put('admin-a', 'cus_2');
    assert.equal(over.status, 429, 'the fifth admin request of the account');
    assert.match(over.json.detail, /more than 4 admin API requests/);
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    assert.equal((await put('admin-b', 'cus_1')).status, 201, 'another account has its own');
  } finally {
    await server.close();
  }
});

test(
  'each attack of tenant A, one at a time against a real server: tenant B’s batches are all taken and kept, and its reads all answered',
  { timeout: 180_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-fair-'));
    const file = join(dir, 'fair.duckdb');
    const bench = (name: string) => fileURLToPath(new URL(`../bench/${name}`, import.meta.url));
    const server = spawn(process.execPath, [bench('console-process.ts'), 'fair', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = ((await createInterface({ input: server.stdout })[Symbol.asyncIterator]().next()).value as string).trim();
    const send = async (path: string, key: string, init: RequestInit = {}) => {
      const response = await fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
      await response.arrayBuffer();
      return response.status;
    };
    let sent = 0;
    try {
      await send('/admin/v1/customers/cus_a', KEYS.a.admin, {
        method: 'PUT',
        body: JSON.stringify({ name: 'Customer of A', plan: 'Pro', status: 'Active', owner: { id: 'u', name: 'U' } }),
      });
      for (const [i, name] of ATTACKS.entries()) {
        const attacker = spawn(process.execPath, [bench('fairness.ts'), 'attack', name, url], { stdio: ['ignore', 'ignore', 'inherit'] });
        try {
          await sleep(1_000);
          const statuses = [];
          for (let round = 0; round < 4; round++) {
            const events = Array.from({ length: 20 }, (_, j) => ({ ...goodEvent(j), ts: new Date().toISOString(), path: `/fair/${i}/${round}/${j}` }));
            statuses.push(await send('/ingest/v1/requests', KEYS.b.ingest, { method: 'POST', body: JSON.stringify({ events }) }));
            sent += events.length;
            statuses.push(await send('/console/v1/endpoints', KEYS.b.token));
          }
          assert.deepEqual(statuses, [202, 200, 202, 200, 202, 200, 202, 200], `B while A runs “${name}”`);
        } finally {
          attacker.kill('SIGKILL');
          await once(attacker, 'exit');
        }
      }
    } finally {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    const stores = await openStores({ store: file });
    try {
      assert.equal((await stores.telemetry.requests('acct_b', { limit: 1_000, pathContains: '/fair/' })).length, sent, 'nothing of B’s is lost');
    } finally {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
