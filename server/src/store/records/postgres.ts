/**
 * Records on PostgreSQL, for several console servers at once: migrations applied under an
 * advisory lock, every write of `atomically` in one transaction, rows and idempotency keys locked
 * while a transaction decides on them, and a version column for `If-Match`.
 */
import pg from 'pg';
import { empty, forPostgres, sql } from '../sql.ts';
import type { RecordStore } from '../types.ts';
import { migrate } from './migrate.ts';
import type { RecordDb } from './record-db.ts';
import { sqlRecords } from './sql-records.ts';

export interface PostgresRecords extends RecordStore {
  /** Resolves when PostgreSQL answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The records database over a pool (each statement on its own) or one checked-out client (inside its transaction). */
function postgresDb(on: pg.Pool | pg.PoolClient, inTransaction: boolean): RecordDb {
  const write = async (statement: Parameters<RecordDb['write']>[0]) => {
    const result = await on.query(forPostgres(statement));
    return { rows: result.rows as Record<string, unknown>[], changed: result.rowCount ?? 0 };
  };
  return {
    read: async (statement) => (await write(statement)).rows,
    write,
    async script(text) {
      await on.query(text);
    },
    async hold(...key) {
      if (inTransaction) await write(sql`SELECT pg_advisory_xact_lock(hashtext(${key[0] ?? ''}), hashtext(${key.slice(1).join(' ')}))`);
    },
    lockRows: inTransaction ? sql`FOR UPDATE` : empty,
  };
}

/** `postgres://user[:password]@host:port/database[?schema=name]`: a schema of its own keeps several consoles (or tests) apart in one database. */
export async function openPostgresRecords(url: string): Promise<PostgresRecords> {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? 'public';
  if (!/^\w+$/.test(schema)) throw new Error(`Unusable schema name "${schema}".`);
  parsed.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: 10,
    connectionTimeoutMillis: 5_000,
    // A half-open connection must not hang a request: its query fails after 30 s and counts as the database being away.
    query_timeout: 30_000,
    options: `-c search_path=${schema}`,
  });
  // A server that goes away breaks idle connections; the pool drops them, and the next query reports the outage.
  pool.on('error', () => undefined);

  /**
   * Runs `work` in a transaction on a connection of its own. The pool stops listening to a
   * connection it lends, so it gets a listener here: a server going away mid-transaction must
   * fail the transaction's next query, not the process with an unhandled 'error'.
   */
  const transaction = async <T>(work: (db: RecordDb) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    const ignore = () => undefined;
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(postgresDb(client, true));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((failure: unknown) => (broken = failure instanceof Error ? failure : new Error(String(failure))));
      throw error;
    } finally {
      client.off('error', ignore);
      // A connection that could not even roll back is broken: the pool closes it instead of lending it again.
      client.release(broken);
    }
  };

  try {
    await transaction(async (db) => {
      // Several console servers may start together: one migrates, the others wait and find it done.
      await db.hold('ops-console migrations', schema);
      // CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists: ask first.
      if (!(await db.read(sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`)).length) await db.script(`CREATE SCHEMA ${schema}`);
      await migrate(db);
    });
  } catch (error) {
    await pool.end();
    throw error;
  }

  const records: PostgresRecords = {
    ...sqlRecords(postgresDb(pool, false)),
    atomically: (work) =>
      transaction((db) => {
        const scoped: RecordStore = { ...sqlRecords(db), atomically: (inner) => inner(scoped) };
        return work(scoped);
      }),
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
  return records;
}
