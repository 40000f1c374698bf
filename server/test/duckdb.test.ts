// The embedded DuckDB file: an acknowledged event survives kill -9 of the server, events written
// straight into the file are counted when it opens, and a big batch is kept part by part. (The scale-out stores have their
// own such tests in scale-out.test.ts.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { call, goodEvent, startServer } from './harness.ts';
import { eventWithSecrets, MASK_CONFIG, SECRETS } from './secrets.ts';
import { accountWork } from '../src/fair-share.ts';
import { openDuckDbStores } from '../src/store/duckdb.ts';
import { PART_ROWS } from '../src/store/telemetry/duckdb/event-part.ts';
import type { RequestEvent, Stores } from '../src/store/types.ts';

/** Runs with a DuckDB file in a folder of its own, removed after. */
async function withFile(run: (file: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'ops-console-duckdb-'));
  try {
    await run(join(dir, 'console.duckdb'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('durability', () => {
  test('an event acknowledged with 202 survives kill -9 of the server and a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-console-durable-'));
    const file = join(dir, 'console.duckdb');
    const start = async () => {
      const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures/serve-file.ts'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      return { child, url: chunk.toString().trim() };
    };
    try {
      const first = await start();
      const events = Array.from({ length: 25 }, (_, i) => ({ ...goodEvent(i), ts: new Date(Date.now() - i * 1000).toISOString() }));
      const response = await fetch(`${first.url}/ingest/v1/requests`, {
        method: 'POST',
        headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      assert.equal(response.status, 202);
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const second = await start();
      try {
        const page = (await (await fetch(`${second.url}/console/v1/requests?limit=500`, { headers: { authorization: 'Bearer token-a' } })).json()) as {
          items: unknown[];
        };
        assert.equal(page.items.length, 25);
      } finally {
        second.child.kill('SIGKILL');
        await once(second.child, 'exit');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pre-counted totals', () => {
  test('events written straight into the table (an older version, a bulk load) are counted when the file opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-console-rollup-'));
    const file = join(dir, 'console.duckdb');
    try {
      const first = await startServer({ store: file, clock: () => new Date('2026-09-14T09:45:00Z') });
      await call(first, '/ingest/v1/requests', { token: 'ingest-a', body: { events: [goodEvent(1)] } });
      await first.close();
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const instance = await DuckDBInstance.create(file);
      const connection = await instance.connect();
      await connection.run(`INSERT INTO request_events (account_id, seq, ts, "method", route, path, status, duration_ms)
        SELECT 'acct_a', 100 + i, ${Date.parse('2026-07-10T12:00:00Z')} + i * 60000, 'GET', '/bulk', '/bulk', 200, 3 FROM range(7) t(i)`);
      connection.closeSync();
      instance.closeSync();
      const second = await startServer({ store: file, clock: () => new Date('2026-09-14T09:45:00Z') });
      try {
        const { json } = await call(second, '/console/v1/overview', { token: 'token-a' });
        const july = json.figures.requestsThisMonth.series.months.indexOf('2026-07');
        assert.equal(json.figures.requestsThisMonth.series.values[july], 7);
        assert.equal(json.figures.requestsThisMonth.value, 1);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('big batches, part by part', () => {
  const at = Date.parse('2026-09-14T09:00:00Z');
  const eventsOf = (accountId: string, count: number): RequestEvent[] =>
    Array.from({ length: count }, (_, i) => ({
      accountId,
      ts: at + i,
      method: 'GET',
      route: '/contacts/{id}',
      path: `/contacts/c_${i}`,
      status: 200,
      durationMs: 12,
      apiVersion: null,
      keyId: null,
      customerId: null,
      actor: null,
      bytes: null,
    }));
  const countOf = async (stores: Stores, accountId: string) =>
    (await stores.telemetry.counts(accountId, { periods: [{ from: at, to: at + 86_400_000 }] }))[0]?.requests[0] ?? 0;
  const answer = (fingerprint: string) => ({ fingerprint, status: 202, body: { accepted: 2_500 }, at });
  test('another account’s batch is kept between the parts of a big one, not after all of them', () =>
    withFile(async (file) => {
      const stores = await openDuckDbStores(file);
      try {
        const asB = () => accountWork.run('acct_b', () => stores.telemetry.append(eventsOf('acct_b', 1)));
        // B has written lately: A's batch goes in small parts.
        await asB();
        const done: string[] = [];
        const big = accountWork.run('acct_a', () => stores.telemetry.append(eventsOf('acct_a', 5_000))).then(() => done.push('A’s batch'));
        await asB().then(() => done.push('B'));
        await big;
        assert.deepEqual(done, ['B', 'A’s batch']);
        assert.equal(await countOf(stores, 'acct_a'), 5_000);
        assert.equal(await countOf(stores, 'acct_b'), 2);
      } finally {
        await stores.close();
      }
    }));

  test('the writer serves accounts in turn: another account’s write waits for one or two of a stream of writes, not all', () =>
    withFile(async (file) => {
      const stores = await openDuckDbStores(file);
      try {
        const done: string[] = [];
        const stream = Array.from({ length: 6 }, () =>
          accountWork.run('acct_a', () => stores.telemetry.append(eventsOf('acct_a', 10))).then(() => done.push('a')),
        );
        await accountWork.run('acct_b', () => stores.telemetry.append(eventsOf('acct_b', 1))).then(() => done.push('b'));
        await Promise.all(stream);
        // The first of A's was under way when B asked; then A and B in turn.
        assert.deepEqual(done, ['a', 'a', 'b', 'a', 'a', 'a', 'a']);
        assert.equal(await countOf(stores, 'acct_a'), 60);
      } finally {
        await stores.close();
      }
    }));

  test('a repeat of an Idempotency-Key while the first is under way keeps each part once, and gets the first answer', () =>
    withFile(async (file) => {
      const stores = await openDuckDbStores(file);
      try {
        const events = eventsOf('acct_a', 2_500);
        const [first, repeat] = await Promise.all([
          stores.appendOnce('acct_a', 'ingest k1', answer('f1'), events),
          stores.appendOnce('acct_a', 'ingest k1', answer('f1'), events),
        ]);
        assert.deepEqual([first.appended, repeat.appended].sort(), [false, true]);
        assert.deepEqual(repeat.answer.body, first.answer.body);
        assert.equal(await countOf(stores, 'acct_a'), 2_500);
      } finally {
        await stores.close();
      }
    }));

  test('a batch cut short when the store stopped is finished by its retry: the parts kept are not kept twice', () =>
    withFile(async (file) => {
      const events = eventsOf('acct_a', 2_500);
      const stores = await openDuckDbStores(file);
      const asB = () => accountWork.run('acct_b', () => stores.telemetry.append(eventsOf('acct_b', 1)));
      await asB();
      const cut = accountWork.run('acct_a', () => stores.appendOnce('acct_a', 'ingest k2', answer('f2'), events));
      // B's write is served after A's first part, and A's next part after B's: the store stops
      // while A's batch is under way.
      await asB();
      await stores.close();
      await assert.rejects(cut, /store is closed/);
      const reopened = await openDuckDbStores(file);
      try {
        const kept = await countOf(reopened, 'acct_a');
        assert.ok(kept > 0 && kept < 2_500 && kept % PART_ROWS === 0, `whole parts were kept before the store stopped, not all: ${kept}`);
        // On its own, the retry goes in one part; the markers of the parts kept are by event, not by part size.
        const retry = await reopened.appendOnce('acct_a', 'ingest k2', answer('f2'), events);
        assert.equal(retry.appended, true);
        assert.equal(await countOf(reopened, 'acct_a'), 2_500);
        const again = await reopened.appendOnce('acct_a', 'ingest k2', answer('f2'), events);
        assert.equal(again.appended, false);
        // A different batch under the key is told apart by its fingerprint (the handler answers 422).
        const other = await reopened.appendOnce('acct_a', 'ingest k2', answer('other'), events);
        assert.equal(other.answer.fingerprint, 'f2');
        assert.equal(await countOf(reopened, 'acct_a'), 2_500);
      } finally {
        await reopened.close();
      }
    }));
});

test('no secret a request carried is in the DuckDB file or its write-ahead log, before and after a checkpoint', () =>
  withFile(async (file) => {
    /** Every secret found in the folder's files, read as bytes. */
    const found = () => {
      const files = readdirSync(dirname(file)).map((name) => readFileSync(join(dirname(file), name)));
      return Object.entries(SECRETS).flatMap(([kind, secret]) => (files.some((bytes) => bytes.includes(secret)) ? [kind] : []));
    };
    const server = await startServer({ store: file, clock: () => new Date('2026-09-14T09:45:00Z'), capture: { mask: MASK_CONFIG } });
    try {
      const events = Array.from({ length: 20 }, (_, i) => eventWithSecrets(i));
      const answer = await call(server, '/ingest/v1/requests', { token: 'ingest-a', body: { events } });
      assert.equal(answer.json.accepted, 20);
      assert.deepEqual(found(), [], 'in the write-ahead log');
    } finally {
      await server.close();
    }
    assert.deepEqual(found(), [], 'in the file, once checkpointed');
  }));
