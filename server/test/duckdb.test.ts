// The embedded DuckDB file: an acknowledged event survives kill -9 of the server, and events
// written straight into the file are counted when it opens. (The scale-out stores have their
// own such tests in scale-out.test.ts.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { call, goodEvent, startServer } from './harness.ts';

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
