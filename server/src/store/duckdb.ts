/**
 * The embedded default store: request telemetry and records in one DuckDB file (columnar, so
 * p95 and monthly series over millions of events answer in milliseconds). Writes go through
 * one connection, one transaction at a time, and a big batch part by part between the others;
 * reads open their own connections.
 */
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, resolve } from 'node:path';
import { accountWork, createFairShare } from '../fair-share.ts';
import { storeClosed } from './unavailable.ts';
import { duckDbIn, duckDbRecords, recordsIn } from './records/duckdb.ts';
import { migrate } from './records/migrate.ts';
import { duckDbTelemetry } from './telemetry/duckdb/telemetry.ts';
import { forDuckDb } from './sql.ts';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { eventPart, PART_ROWS, PAYLOAD_SEQ_COLUMN, SEQ_COLUMN, SOLO_PART_ROWS, type EventPart } from './telemetry/duckdb/event-part.ts';
import { rollUp, TELEMETRY_MIGRATIONS } from './telemetry/duckdb/schema.ts';
import { num, type Row } from './sql-rows.ts';
import type { RequestEvent, Stores } from './types.ts';

/**
 * Event bytes between the writer's checkpoints, about: each then takes some 30 ms, and makes a
 * row group of its own (8,000 events of 1 KB, or far more of the usual few hundred bytes).
 */
const CHECKPOINT_BYTES = 8 << 20;
/** How lately another account must have written for a batch to go in small parts. */
const SHARED_WITHIN_MS = 2_000;
/** A writer idle this long merges small row groups and reclaims deleted rows (DuckDB's vacuum). */
const VACUUM_AFTER_IDLE_MS = 30_000;
/** What one vacuum may do: DuckDB's default. Checkpoints under load do none (see openDuckDbStores). */
const VACUUM_TASKS = 100;

/**
 * Opens (or creates) the DuckDB database at `path` (`':memory:'` for a throwaway one), and the
 * folder it is in: `duckdb:./data/ops.duckdb` works in an empty directory.
 */
export async function openDuckDbStores(path: string): Promise<Stores> {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  // A checkpoint's vacuum merges the row groups before it, hundreds of milliseconds in one piece
  // that every write waits for: under load checkpoints do none, and an idle writer vacuums.
  const instance = await DuckDBInstance.create(path, { max_vacuum_tasks: '0' });
  const writer = await instance.connect();
  await writer.run('BEGIN TRANSACTION');
  await migrate(duckDbIn(writer), TELEMETRY_MIGRATIONS, 'telemetry_migrations');
  await migrate(duckDbIn(writer));
  await writer.run('COMMIT');
  const last = await writer.runAndReadAll(
    'SELECT coalesce(max(seq), 0) AS seq, (SELECT coalesce(max(upto_seq), 0) FROM rollup_state) AS counted FROM request_events',
  );
  let seq = num(last.getRowObjectsJS()[0]?.['seq']);
  const counted = num(last.getRowObjectsJS()[0]?.['counted']);
  // Events written by an older version, or straight into the table, are counted now.
  if (seq > counted) await writer.run(`BEGIN TRANSACTION; ${rollUp(counted, seq)} COMMIT;`);

  /**
   * Writer work runs one item at a time on the writer connection: each account's in the order it
   * was asked for, and the accounts with work waiting in turn (by `accountWork`), so one account's
   * stream of writes puts one of them, not all, before another account's.
   */
  const lane = createFairShare({ total: 1, perAccount: 1, queue: Number.MAX_SAFE_INTEGER });
  const underWay = new Set<Promise<unknown>>();
  let closed = false;
  /** When each account last asked the writer for something. */
  const lastAsked = new Map<string, number>();
  /** Whether an account other than this one used the writer lately: then a batch goes in small parts. */
  const shared = (accountId: string) => {
    const now = performance.now();
    for (const [other, at] of lastAsked) if (now - at > SHARED_WITHIN_MS) lastAsked.delete(other);
    return [...lastAsked.keys()].some((other) => other !== accountId && other !== '');
  };
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const accountId = accountWork.getStore() ?? '';
    lastAsked.set(accountId, performance.now());
    const run = lane(accountId, undefined).then(async (done) => {
      try {
        if (closed) throw storeClosed();
        return await work();
      } finally {
        done();
      }
    });
    const settled = run.catch(() => undefined);
    underWay.add(settled);
    void settled.then(() => underWay.delete(settled));
    return run;
  };
  /** A write in a transaction of its own. */
  const write = <T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T> =>
    exclusive(async () => {
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

  /**
   * The writer checkpoints itself (folds the write-ahead log into the file) after every few
   * megabytes of events, as an item of its own: DuckDB's own checkpoint, at 16 MB, would run in
   * whichever commit crossed it, and another account's small batch would wait for it.
   */
  let vacuum: ReturnType<typeof setTimeout> | undefined;
  /** Vacuums (DuckDB's merge of small row groups) once the writer has had no events for a while. */
  const vacuumWhenIdle = () => {
    clearTimeout(vacuum);
    vacuum = setTimeout(() => {
      exclusive(async () => {
        await writer.run(`SET max_vacuum_tasks = ${VACUUM_TASKS}`);
        try {
          await writer.run('CHECKPOINT');
        } finally {
          await writer.run('SET max_vacuum_tasks = 0');
        }
      }).catch(() => undefined);
    }, VACUUM_AFTER_IDLE_MS);
    vacuum.unref();
  };
  let sinceCheckpoint = 0;
  const checkpointAfter = (bytes: number) => {
    vacuumWhenIdle();
    sinceCheckpoint += bytes;
    if (sinceCheckpoint < CHECKPOINT_BYTES) return;
    sinceCheckpoint = 0;
    // One that cannot run now (a checkpoint needs no other write under way) is tried after the next part.
    exclusive(() => writer.run('CHECKPOINT')).catch(() => (sinceCheckpoint = CHECKPOINT_BYTES));
  };

  /** Appends one part's rows inside the writer's transaction, numbered there, with their rollup. */
  const appendIn = async (c: DuckDBConnection, part: EventPart) => {
    if (!part.rows) return;
    const appender = await c.createAppender('request_events');
    const from = seq;
    let next = from;
    for (const chunk of part.chunks) {
      chunk.setColumnValues(
        SEQ_COLUMN,
        Array.from({ length: chunk.rowCount }, () => BigInt(++next)),
      );
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    if (part.payloads) {
      const payloads = await c.createAppender('request_payloads');
      let row = 0;
      for (const chunk of part.payloads.chunks) {
        chunk.setColumnValues(
          PAYLOAD_SEQ_COLUMN,
          Array.from({ length: chunk.rowCount }, () => BigInt(from + 1 + part.payloads!.at[row++]!)),
        );
        payloads.appendDataChunk(chunk);
      }
      payloads.closeSync();
    }
    await c.run(rollUp(from, from + part.rows));
    seq = from + part.rows; // only once the rows are in the transaction
  };

  /**
   * Appends events part by part, in a transaction each: PART_ROWS while other accounts write,
   * so that their writes wait for one part, never a whole 10,000-event batch; SOLO_PART_ROWS
   * otherwise, as a transaction's own cost tells on a lone account's rate. `fixed`: always
   * PART_ROWS, for parts that must be the same on a retry. `keep` runs in each
   * part's transaction first and may skip it.
   */
  const appendInParts = async (
    events: readonly RequestEvent[],
    keep: (c: DuckDBConnection, index: number, count: number) => Promise<'append' | 'skip' | 'stop'>,
    { fixed = false } = {},
  ) => {
    // An empty batch is one (empty) part: with an Idempotency-Key its answer is still kept.
    const accountId = accountWork.getStore() ?? '';
    const rows = fixed || shared(accountId) ? PART_ROWS : SOLO_PART_ROWS;
    const count = Math.max(1, Math.ceil(events.length / rows));
    for (let index = 0; index < count; index++) {
      // Built before its turn at the writer, which then only numbers and appends it.
      const part = eventPart(events.slice(index * rows, (index + 1) * rows));
      const began = performance.now();
      const kept = await write(async (c) => {
        const decision = await keep(c, index, count);
        if (decision === 'append') await appendIn(c, part);
        return decision;
      });
      if (kept === 'stop') return;
      if (kept === 'append') checkpointAfter(part.bytes);
      // While other accounts write, a big batch's next part waits as long as this one took, so
      // that it takes at most half of the writer's time and of the cores its parts keep busy.
      if (index < count - 1 && shared(accountId)) await sleep(performance.now() - began);
    }
  };

  const telemetry = duckDbTelemetry(
    (query) => {
      const { sql, params } = forDuckDb(query);
      return read(sql, params);
    },
    (events) => appendInParts(events, () => Promise.resolve('append' as const)),
    write,
  );

  const records = duckDbRecords(write, read);

  return {
    telemetry,
    records,
    // The key's answer in the transaction of the batch's last part, and a marker in each other's
    // (parts of PART_ROWS, so a retry's parts are the first try's):
    // a repeat (even one that comes while the first is under way) appends only the parts not yet
    // kept, and finds the answer. The writer keeps each part's check and append together.
    async appendOnce(accountId, key, answer, events) {
      let outcome = { answer, appended: true };
      const markerOf = (index: number) => `${key} part ${index + 1}`;
      await appendInParts(
        events,
        async (c, index, count) => {
          const scoped = recordsIn(c);
          const seen = await scoped.remembered(accountId, key);
          if (seen) {
            outcome = { answer: seen, appended: false };
            return 'stop';
          }
          if (index === count - 1) {
            await scoped.remember(accountId, key, answer);
            return 'append';
          }
          const marker = await scoped.remembered(accountId, markerOf(index));
          if (!marker) {
            await scoped.remember(accountId, markerOf(index), { ...answer, body: null });
            return 'append';
          }
          // Kept by an earlier try of this batch; a different batch under the key is answered by the handler.
          if (marker.fingerprint === answer.fingerprint) return 'skip';
          outcome = { answer: marker, appended: false };
          return 'stop';
        },
        { fixed: true },
      );
      return outcome;
    },
    async ping() {
      await read('SELECT 1').catch((error: unknown) =>
        Promise.reject(new Error(`DuckDB does not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error })),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(vacuum);
      while (underWay.size) await Promise.all(underWay);
      writer.closeSync();
      instance.closeSync();
    },
  };
}
