/**
 * Records in the embedded DuckDB file. DuckDB has one writer: every write waits its turn on it,
 * each in a transaction of its own, or all of `atomically`'s in one. Nothing needs locking, since
 * no other writer can come between; reads outside a transaction open connections of their own.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { empty, forDuckDb, type Sql } from '../sql.ts';
import type { Row } from '../sql-rows.ts';
import type { RecordStore } from '../types.ts';
import type { RecordDb } from './record-db.ts';
import { sqlRecords } from './sql-records.ts';

/** Runs `work` on the writer connection, in a transaction, when the writes before it are done. */
export type Write = <T>(work: (c: DuckDBConnection) => Promise<T>) => Promise<T>;
/** Reads on a connection of its own. */
export type Read = (sql: string, params: (string | number)[]) => Promise<Row[]>;

const runOn = async (c: DuckDBConnection, statement: Sql) => {
  const { sql, params } = forDuckDb(statement);
  const reader = await c.runAndReadAll(sql, params);
  return { rows: reader.getRowObjectsJS(), changed: reader.rowsChanged };
};

/** The records database on the writer's connection `c`, inside the transaction it is in. */
export function duckDbIn(c: DuckDBConnection): RecordDb {
  return {
    read: async (statement) => (await runOn(c, statement)).rows,
    write: (statement) => runOn(c, statement),
    script: async (text) => {
      await c.run(text);
    },
    hold: () => Promise.resolve(),
    lockRows: empty,
  };
}

/** The records inside the writer's transaction on `c`: every write joins it, and reads see its writes. */
export function recordsIn(c: DuckDBConnection): RecordStore {
  const scoped: RecordStore = { ...sqlRecords(duckDbIn(c)), atomically: (work) => work(scoped) };
  return scoped;
}

/** The records of the store: each write its own transaction on the writer, each read a connection of its own. */
export function duckDbRecords(write: Write, read: Read): RecordStore {
  const db: RecordDb = {
    read: (statement) => {
      const { sql, params } = forDuckDb(statement);
      return read(sql, params);
    },
    write: (statement) => write((c) => runOn(c, statement)),
    script: (text) =>
      write(async (c) => {
        await c.run(text);
      }),
    hold: () => Promise.resolve(),
    lockRows: empty,
  };
  return { ...sqlRecords(db), atomically: (work) => write((c) => work(recordsIn(c))) };
}
