/**
 * The store setups the server bench compares: the embedded DuckDB file, ClickHouse (one shard)
 * + PostgreSQL, and two ClickHouse shards + PostgreSQL, with the real servers started for the run.
 * Each fills itself up to a number of events with rows shaped like the demo's, generated inside
 * the database (only the ingest rate needs the HTTP path).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { openStores, type StoreConfig } from '../src/index.ts';
import { TAGGED_FROM } from '../src/request-ids.ts';
import { searchWordsOf } from '../src/store/search-words.ts';
import { parseClickHouseUrl } from '../src/store/telemetry/clickhouse/schema.ts';
import { startClickHouse, startDatabases, startPostgres } from '../test/databases.ts';

const DAY = 86_400_000;
export const BENCH_ACCOUNT = 'acct_bench';

export interface Setup {
  name: string;
  config: StoreConfig;
  /** Tops the store up to `total` events of the bench account, in the past year. */
  fillTo(total: number): Promise<void>;
  /** Gives the newest `count` events of the last `days` a kept payload: headers, a 1 KB JSON request body and a small response body. */
  fillPayloads(count: number, days: number): Promise<void>;
  dispose(): Promise<void>;
}

/** The demo's endpoints: method, route, usual status, median ms, API version. */
const SHAPES = [
  ['POST', '/messages', 201, 150, 'v2'],
  ['GET', '/contacts/{id}', 200, 60, 'v2'],
  ['POST', '/webhooks', 200, 600, 'v2'],
  ['POST', '/auth/token', 200, 200, 'v2'],
  ['GET', '/usage', 200, 70, 'v2'],
  ['GET', '/usage', 200, 380, 'v1'],
  ['POST', '/messages', 201, 420, 'v1'],
  ['DELETE', '/contacts/{id}', 204, 90, 'v2'],
] as const;

export function duckDbSetup(dir: string): Setup {
  const file = join(dir, 'bench.duckdb');
  return {
    name: 'DuckDB',
    config: { store: file },
    async fillTo(total) {
      // The console's own schema first: a run of the routes alone (BENCH_PARTS=routes) starts from no file.
      await (await openStores({ store: file })).close();
      const instance = await DuckDBInstance.create(file);
      const c = await instance.connect();
      const current = Number((await c.runAndReadAll('SELECT count(*) AS n FROM request_events')).getRowObjectsJS()[0]!['n']);
      const missing = total - current;
      if (missing > 0) {
        const now = Date.now();
        const shapes = SHAPES.map(([method, route, ok, median, version], k) => `(${k}, '${method}', '${route}', ${ok}, ${median}, '${version}')`).join(', ');
        await c.run(`
          INSERT INTO request_events
          SELECT '${BENCH_ACCOUNT}', 1000000000 + i, ${now} - (hash(i) % ${365 * DAY})::BIGINT,
                 r.method, r.route, replace(r.route, '{id}', 'c_' || (i % 100000)::VARCHAR),
                 CASE WHEN hash(i * 7) % 100 < 2 THEN 500 ELSE r.ok END,
                 (r.median * exp(0.4 * ((hash(i * 3) % 1000) / 1000.0 - 0.5) * 4))::DOUBLE,
                 r.version, 'key_' || (hash(i * 11) % 400)::VARCHAR, 'cus_' || (hash(i * 13) % 50)::VARCHAR,
                 'cus_' || (hash(i * 13) % 50)::VARCHAR, 'Customer ' || (hash(i * 13) % 50)::VARCHAR, 1000 + hash(i) % 3000, NULL, NULL
          FROM range(${missing}) t(i)
          JOIN (VALUES ${shapes}) r(k, method, route, ok, median, version) ON r.k = i % 8
          -- Requests arrive in time order, so the table is stored that way too.
          ORDER BY 3`);
      }
      c.closeSync();
      instance.closeSync();
    },
    async fillPayloads(count, days) {
      const instance = await DuckDBInstance.create(file);
      const c = await instance.connect();
      await c.run(`
        CREATE TEMP TABLE picked AS SELECT * FROM request_events
        WHERE account_id = '${BENCH_ACCOUNT}' AND ts >= ${Date.now() - days * DAY} AND has_payload IS NOT TRUE ORDER BY ts DESC LIMIT ${count};
        INSERT INTO request_payloads SELECT account_id, ts, seq, customer_id, ${payloadSql('duckdb')} FROM picked ORDER BY ts;
        UPDATE request_events SET has_payload = true WHERE account_id = '${BENCH_ACCOUNT}' AND ts >= (SELECT min(ts) FROM picked);`);
      c.closeSync();
      instance.closeSync();
    },
    async dispose() {},
  };
}

/**
 * A payload's columns after account, time, seq and customer, as SQL over the event's columns:
 * the headers, a 1 KB JSON order whose id is `ord_<seq % 1000000>`, the answer, which for a 5xx
 * says `upstream_timeout`, and their words as the store writes them (search-words.ts).
 */
const payloadSql = (dialect: 'duckdb' | 'clickhouse') => {
  const [id, no] = dialect === 'duckdb' ? ['CAST(seq % 1000000 AS VARCHAR)', 'false'] : ['toString(seq % 1000000)', '0'];
  // Written out, not repeat(): ClickHouse 18.16 has no such function.
  const order = (orderId: string) =>
    `{"orderId":"${orderId}","customer":{"email":"ana@example.com","password":"[masked]"},"items":[${'{"sku":"sku_1","name":"Item number one","quantity":2,"price":1999},'.repeat(14)}{}]}`;
  const [before, after] = order('\u0000').split('\u0000') as [string, string];
  const [failed, ok] = ['{"error":"upstream_timeout"}', '{"status":"ok"}'];
  const wordsOf = (answer: string) => {
    const words = searchWordsOf({
      headers: null,
      responseHeaders: null,
      requestBody: { contentType: 'application/json', size: 1024, truncated: false, text: order('ord_0') },
      responseBody: { contentType: 'application/json', size: 40, truncated: false, text: answer },
    });
    // Put together, not replace()d: 18.16 wants a constant replacement.
    const [head, tail] = words.split(' ord_0 ') as [string, string];
    return `concat('${head} ord_', ${id}, ' ${tail}')`;
  };
  return `'{"content-type":"application/json","user-agent":"acme-billing/2.4"}', '{"content-type":"application/json"}',
    'application/json', 1024, ${no}, concat('${before}', 'ord_', ${id}, '${after}'),
    'application/json', 40, ${no}, CASE WHEN status >= 500 THEN '${failed}' ELSE '${ok}' END,
    CASE WHEN status >= 500 THEN ${wordsOf(failed)} ELSE ${wordsOf(ok)} END`;
};

export async function clickHouseSetup(shards: number): Promise<Setup> {
  const [clickhouse, postgres] = await startDatabases(startClickHouse({ shards }), startPostgres());
  const config = { telemetry: clickhouse.url, records: postgres.url };
  // The tables exist once a store has opened.
  await (await openStores(config)).close();
  const target = parseClickHouseUrl(clickhouse.url);
  const client = createClient({ url: `http://${target.hosts[0]}`, log: { level: ClickHouseLogLevel.OFF }, request_timeout: 600_000 });
  const events = `${target.database}.request_events${target.cluster ? '' : '_local'}`;
  const list = (i: number) => `[${SHAPES.map((s) => (typeof s[i] === 'number' ? s[i] : `'${s[i]}'`)).join(', ')}]`;
  return {
    name: shards === 1 ? 'ClickHouse + PostgreSQL' : `ClickHouse, ${shards} shards + PostgreSQL`,
    config,
    async fillTo(total) {
      const result = await client.query({ query: `SELECT count() AS n FROM ${events} WHERE account_id = '${BENCH_ACCOUNT}'`, format: 'JSONEachRow' });
      const missing = total - Number((await result.json<{ n: string }>())[0]!.n);
      if (missing <= 0) return;
      // Tags (server/src/request-ids.ts) in the range appends draw them from; salted so that each fill draws others.
      const salt = randomInt(2 ** 47);
      await client.command({
        query: `
          INSERT INTO ${events} (account_id, seq, ts, method, route, path, status, duration_ms, api_version, key_id, customer_id, actor_id, actor_name, bytes)
          SELECT '${BENCH_ACCOUNT}', ${TAGGED_FROM} + cityHash64(number, ${salt}) % ${TAGGED_FROM}, ${Date.now()} - toInt64(cityHash64(number) % ${365 * DAY}),
                 ${list(0)}[k], ${list(1)}[k], if(position(${list(1)}[k], '{id}') > 0, concat(substring(${list(1)}[k], 1, length(${list(1)}[k]) - 4), 'c_', toString(number % 100000)), ${list(1)}[k]),
                 if(cityHash64(number * 7) % 100 < 2, 500, ${list(2)}[k]),
                 ${list(3)}[k] * exp(0.4 * ((cityHash64(number * 3) % 1000) / 1000.0 - 0.5) * 4),
                 ${list(4)}[k], concat('key_', toString(cityHash64(number * 11) % 400)), concat('cus_', toString(cityHash64(number * 13) % 50)),
                 concat('cus_', toString(cityHash64(number * 13) % 50)), concat('Customer ', toString(cityHash64(number * 13) % 50)),
                 toInt64(1000 + cityHash64(number) % 3000)
          FROM (SELECT number, number % 8 + 1 AS k FROM numbers(${missing}))`,
        clickhouse_settings: target.cluster ? { insert_distributed_sync: 1 } : {},
      });
      // Merge the parts the inserts left, as a long-running server's background merges would have by now.
      for (const host of target.hosts) {
        const shard = createClient({ url: `http://${host}`, log: { level: ClickHouseLogLevel.OFF }, request_timeout: 600_000 });
        const { database } = target;
        const parts = await shard.query({
          query: `SELECT table, partition, count() AS n FROM system.parts WHERE database = '${database}' AND active GROUP BY table, partition HAVING n > 1`,
          format: 'JSONEachRow',
        });
        for (const { table, partition } of await parts.json<{ table: string; partition: string }>())
          await shard.command({ query: `OPTIMIZE TABLE ${database}.${table} PARTITION ${partition} FINAL` }).catch((error: unknown) => {
            console.error(`OPTIMIZE ${table} ${partition}: ${error instanceof Error ? error.message : String(error)}`);
          });
        await shard.close();
      }
    },
    async fillPayloads(count, days) {
      const payloads = `${target.database}.request_payloads${target.cluster ? '' : '_local'}`;
      await client.command({
        query: `INSERT INTO ${payloads} SELECT account_id, ts, seq, customer_id, ${payloadSql('clickhouse')}
                FROM ${events} WHERE account_id = '${BENCH_ACCOUNT}' AND ts >= ${Date.now() - days * DAY} ORDER BY ts DESC LIMIT ${count}`,
        clickhouse_settings: target.cluster ? { insert_distributed_sync: 1 } : {},
      });
      const result = await client.query({ query: `SELECT min(ts) AS since FROM ${payloads} WHERE account_id = '${BENCH_ACCOUNT}'`, format: 'JSONEachRow' });
      const since = Number((await result.json<{ since: string }>())[0]!.since);
      for (const host of target.hosts) {
        const shard = createClient({ url: `http://${host}`, log: { level: ClickHouseLogLevel.OFF }, request_timeout: 600_000 });
        await shard.command({
          query: `ALTER TABLE ${target.database}.request_events_local UPDATE has_payload = 1 WHERE account_id = '${BENCH_ACCOUNT}' AND ts >= ${since}`,
        });
        for (;;) {
          const pending = await shard.query({
            query: `SELECT count() AS n FROM system.mutations WHERE database = '${target.database}' AND is_done = 0`,
            format: 'JSONEachRow',
          });
          if (Number((await pending.json<{ n: string }>())[0]!.n) === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        await shard.close();
      }
    },
    async dispose() {
      await client.close();
      await Promise.all([clickhouse.dispose(), postgres.dispose()]);
    },
  };
}
