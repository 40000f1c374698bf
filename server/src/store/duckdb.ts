/**
 * The embedded default store: request telemetry and records in one DuckDB file (columnar, so
 * p95 and monthly series over millions of events answer in milliseconds). Writes go through
 * one connection, one transaction at a time; reads open their own connections.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { storeClosed } from './unavailable.ts';
import { duckDbIn, duckDbRecords, recordsIn } from './records/duckdb.ts';
import { migrate } from './records/migrate.ts';
import { duckDbTelemetry } from './telemetry/duckdb/telemetry.ts';
import { forDuckDb } from './sql.ts';
import { DuckDBDataChunk, DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { EVENT_COLUMN_TYPES, rollUp, SCHEMA, VECTOR_ROWS } from './telemetry/duckdb/schema.ts';
import { num, type Row } from './sql-rows.ts';
import type { RequestEvent, Stores } from './types.ts';

/**
 * Opens (or creates) the DuckDB database at `path` (`':memory:'` for a throwaway one), and the
 * folder it is in: `duckdb:./data/ops.duckdb` works in an empty directory.
 */
export async function openDuckDbStores(path: string): Promise<Stores> {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const instance = await DuckDBInstance.create(path);
  const writer = await instance.connect();
  await writer.run(SCHEMA);
  await writer.run('BEGIN TRANSACTION');
  await migrate(duckDbIn(writer));
  await writer.run('COMMIT');
  const last = await writer.runAndReadAll(
    'SELECT coalesce(max(seq), 0) AS seq, (SELECT coalesce(max(upto_seq), 0) FROM rollup_state) AS counted FROM request_events',
  );
  let seq = num(last.getRowObjectsJS()[0]?.['seq']);
  const counted = num(last.getRowObjectsJS()[0]?.['counted']);
  // Events written by an older version, or straight into the table, are counted now.
  if (seq > counted) await writer.run(`BEGIN TRANSACTION; ${rollUp(counted, seq)} COMMIT;`);

  /** Writes run one after another on the writer connection, each in its own transaction. */
  let queue: Promise<unknown> = Promise.resolve();
  const write = <T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await writer.run('BEGIN TRANSACTION');
      try {
        const result = await work(writer);
        await writer.run('COMMIT');
        return result;
      } catch (error) {
        await writer.run('ROLLBACK');
        throw error;
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
  let closed = false;
  const read = async (sql: string, params: DuckDBValue[] = []): Promise<Row[]> => {
    if (closed) throw storeClosed();
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS();
    } finally {
      connection.closeSync();
    }
  };

  /** Appends events inside the writer's transaction, with their rollup. */
  const appendIn = async (c: DuckDBConnection, events: readonly RequestEvent[]) => {
    if (!events.length) return;
    const appender = await c.createAppender('request_events');
    let next = seq;
    // Column by column, a vector (2,048 rows) at a time: far fewer calls than value by value.
    for (let start = 0; start < events.length; start += VECTOR_ROWS) {
      const slice = events.slice(start, start + VECTOR_ROWS);
      const chunk = DuckDBDataChunk.create(EVENT_COLUMN_TYPES);
      chunk.setColumns([
        slice.map((e) => e.accountId),
        slice.map(() => BigInt(++next)),
        slice.map((e) => BigInt(e.ts)),
        slice.map((e) => e.method),
        slice.map((e) => e.route),
        slice.map((e) => e.path),
        slice.map((e) => e.status),
        slice.map((e) => e.durationMs),
        slice.map((e) => e.apiVersion),
        slice.map((e) => e.keyId),
        slice.map((e) => e.customerId),
        slice.map((e) => e.actor?.id ?? null),
        slice.map((e) => e.actor?.name ?? null),
        slice.map((e) => (e.bytes === null ? null : BigInt(e.bytes))),
        slice.map((e) => (e.headers ? JSON.stringify(e.headers) : null)),
      ]);
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    await c.run(rollUp(seq, next));
    seq = next; // only once the rows are in the transaction
  };

  const telemetry = duckDbTelemetry(
    (query) => {
      const { sql, params } = forDuckDb(query);
      return read(sql, params);
    },
    (events) => write((c) => appendIn(c, events)),
    write,
  );

  const records = duckDbRecords(write, read);

  return {
    telemetry,
    records,
    // The events and the key's answer in one transaction of the one writer: a repeat waits its turn and finds the answer.
    appendOnce: (accountId, key, answer, events) =>
      write(async (c) => {
        const scoped = recordsIn(c);
        const seen = await scoped.remembered(accountId, key);
        if (seen) return { answer: seen, appended: false };
        await appendIn(c, events);
        await scoped.remember(accountId, key, answer);
        return { answer, appended: true };
      }),
    async ping() {
      await read('SELECT 1').catch((error: unknown) =>
        Promise.reject(new Error(`DuckDB does not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error })),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      writer.closeSync();
      instance.closeSync();
    },
  };
}
