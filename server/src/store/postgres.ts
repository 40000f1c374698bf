/**
 * Records (customers, webhooks, error records, notes, history, activity, idempotency keys) on
 * PostgreSQL, for several console server processes at once: numbered migrations applied under an
 * advisory lock, every write in a transaction, unique constraints on ids and idempotency keys, and
 * a version column for `If-Match`. Also hands out request numbers for the telemetry store.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ActivityRecord, CustomerRecord, ErrorRecordRow, HistoryRecord, NoteRecord, RecordStore, Remembered, WebhookRecord } from './types.ts';

/** Applied in order, once each; a new version of the schema is a new entry, never an edit. */
const MIGRATIONS = [
  `CREATE TABLE customers (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
   CREATE TABLE webhooks (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
   CREATE TABLE notes (n bigserial PRIMARY KEY, account_id text NOT NULL, customer_id text NOT NULL, ts bigint NOT NULL, doc json NOT NULL);
   CREATE INDEX notes_by_customer ON notes (account_id, customer_id, ts);
   CREATE TABLE history (n bigserial PRIMARY KEY, account_id text NOT NULL, customer_id text NOT NULL, ts bigint NOT NULL, doc json NOT NULL);
   CREATE INDEX history_by_customer ON history (account_id, customer_id, ts);
   CREATE TABLE error_records (
     account_id text NOT NULL, id text NOT NULL, status text NOT NULL, endpoint text NOT NULL, created_ts bigint NOT NULL,
     version integer NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
   CREATE INDEX error_records_newest ON error_records (account_id, created_ts DESC, id DESC);
   CREATE TABLE activity (account_id text NOT NULL, id text NOT NULL, kind text NOT NULL, subject text, ts bigint NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
   CREATE INDEX activity_newest ON activity (account_id, ts DESC, id DESC);
   CREATE TABLE idempotency (account_id text NOT NULL, key text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, key));
   CREATE TABLE sequences (name text PRIMARY KEY, next bigint NOT NULL);`,
  `CREATE TABLE secrets (name text PRIMARY KEY, value text NOT NULL);`,
];

export interface PostgresRecords extends RecordStore {
  /** Reserves `count` consecutive numbers of the named sequence, across every process sharing the database; answers the first. */
  reserve(name: string, count: number): Promise<number>;
  /** Resolves when PostgreSQL answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;

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
   * A connection of its own (for a transaction). The pool stops listening to a connection it lends,
   * so it gets a listener here: a server going away mid-transaction must fail the transaction's
   * next query, not the process with an unhandled 'error'.
   */
  const checkout = async () => {
    const client = await pool.connect();
    const ignore = () => undefined;
    client.on('error', ignore);
    return {
      client,
      release: (broken?: Error) => {
        client.off('error', ignore);
        // A connection that could not even roll back is broken: the pool closes it instead of lending it again.
        client.release(broken);
      },
    };
  };
  const migrate = async () => {
    const { client, release } = await checkout();
    let failure: Error | undefined;
    try {
      await client.query('BEGIN');
      // Several console servers may start together: one migrates, the others wait and find it done.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ops-console migrations ${schema}`]);
      // CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists: ask first.
      const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (!rowCount) await client.query(`CREATE SCHEMA ${schema}`);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)');
      const { rows } = await client.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM schema_migrations');
      for (let version = rows[0]!.version + 1; version <= MIGRATIONS.length; version++) {
        await client.query(MIGRATIONS[version - 1]!);
        await client.query('INSERT INTO schema_migrations VALUES ($1)', [version]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch((broken: unknown) => (failure = broken instanceof Error ? broken : new Error(String(broken))));
      throw error;
    } finally {
      release(failure);
    }
  };
  try {
    await migrate();
  } catch (error) {
    await pool.end();
    throw error;
  }

  const docs = async <T>(query: Query, sql: string, params: unknown[]) => (await query(sql, params)).rows.map((r: { doc: T }) => r.doc);

  const makeRecords = (query: Query, inTransaction: boolean): Omit<RecordStore, 'atomically'> => {
    const upsert = (table: 'customers' | 'webhooks') => async (accountId: string, doc: { id: string }) => {
      // xmax is 0 on a row this statement inserted, and set on one it updated.
      const { rows } = await query(
        `INSERT INTO ${table} VALUES ($1, $2, $3) ON CONFLICT (account_id, id) DO UPDATE SET doc = excluded.doc RETURNING (xmax = 0) AS inserted`,
        [accountId, doc.id, JSON.stringify(doc)],
      );
      return (rows[0] as { inserted?: boolean } | undefined)?.inserted ? ('created' as const) : ('updated' as const);
    };
    /** A customer's notes and history: appended, read newest first (in insertion order within one instant). */
    const addTo = (table: 'notes' | 'history') => async (accountId: string, item: { customerId: string; ts: number }) => {
      await query(`INSERT INTO ${table} (account_id, customer_id, ts, doc) VALUES ($1, $2, $3, $4)`, [
        accountId,
        item.customerId,
        item.ts,
        JSON.stringify(item),
      ]);
    };
    const listOf = <T>(table: 'notes' | 'history', accountId: string, customerId: string) =>
      docs<T>(query, `SELECT doc FROM ${table} WHERE account_id = $1 AND customer_id = $2 ORDER BY ts DESC, n DESC`, [accountId, customerId]);
    return {
      upsertCustomer: upsert('customers'),
      async customer(accountId, id) {
        return (await docs<CustomerRecord>(query, 'SELECT doc FROM customers WHERE account_id = $1 AND id = $2', [accountId, id]))[0];
      },
      customers: (accountId) => docs<CustomerRecord>(query, 'SELECT doc FROM customers WHERE account_id = $1 ORDER BY id COLLATE "C"', [accountId]),
      addNote: addTo('notes'),
      notes: (accountId, customerId) => listOf<NoteRecord>('notes', accountId, customerId),
      addHistory: addTo('history'),
      history: (accountId, customerId) => listOf<HistoryRecord>('history', accountId, customerId),
      upsertWebhook: upsert('webhooks'),
      async webhook(accountId, id) {
        return (await docs<WebhookRecord>(query, 'SELECT doc FROM webhooks WHERE account_id = $1 AND id = $2', [accountId, id]))[0];
      },
      webhooks: (accountId) => docs<WebhookRecord>(query, 'SELECT doc FROM webhooks WHERE account_id = $1 ORDER BY id COLLATE "C"', [accountId]),
      async createError(accountId, record) {
        await query('INSERT INTO error_records VALUES ($1, $2, $3, $4, $5, $6, $7)', [
          accountId,
          record.id,
          record.status,
          record.endpoint,
          record.createdTs,
          record.version,
          JSON.stringify(record),
        ]);
      },
      async error(accountId, id) {
        return (await docs<ErrorRecordRow>(query, 'SELECT doc FROM error_records WHERE account_id = $1 AND id = $2', [accountId, id]))[0];
      },
      errors: (accountId, { status, endpoint, limit, offset }) =>
        docs<ErrorRecordRow>(
          query,
          `SELECT doc FROM error_records WHERE account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR endpoint = $3)
           ORDER BY created_ts DESC, id COLLATE "C" DESC LIMIT $4 OFFSET $5`,
          [accountId, status || null, endpoint || null, limit, offset],
        ),
      async updateError(accountId, id, change, expectedVersion) {
        // In a transaction the row stays locked until it ends: a change through another server waits instead of turning this one into a conflict.
        const [current] = await docs<ErrorRecordRow>(
          query,
          `SELECT doc FROM error_records WHERE account_id = $1 AND id = $2${inTransaction ? ' FOR UPDATE' : ''}`,
          [accountId, id],
        );
        if (!current) return 'missing';
        if (expectedVersion !== undefined && expectedVersion !== current.version) return 'conflict';
        const next: ErrorRecordRow = { ...current, ...change, version: current.version + 1 };
        // Optimistic: the row changes only if nobody changed it since it was read.
        const { rowCount } = await query('UPDATE error_records SET status = $1, version = $2, doc = $3 WHERE account_id = $4 AND id = $5 AND version = $6', [
          next.status,
          next.version,
          JSON.stringify(next),
          accountId,
          id,
          current.version,
        ]);
        return rowCount ? next : 'conflict';
      },
      async addActivity(accountId, item) {
        await query('INSERT INTO activity VALUES ($1, $2, $3, $4, $5, $6)', [accountId, item.id, item.kind, item.subject, item.ts, JSON.stringify(item)]);
      },
      activity: (accountId, { kind, limit, offset }) =>
        docs<ActivityRecord>(
          query,
          'SELECT doc FROM activity WHERE account_id = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY ts DESC, id COLLATE "C" DESC LIMIT $3 OFFSET $4',
          [accountId, kind || null, limit, offset],
        ),
      async latestActivity(accountId, kind, subject) {
        // In a transaction, a second look at the same subject (from another server) waits until this one ends.
        if (inTransaction) await query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [accountId, `${kind} ${subject}`]);
        return (
          await docs<ActivityRecord>(query, 'SELECT doc FROM activity WHERE account_id = $1 AND kind = $2 AND subject = $3 ORDER BY ts DESC LIMIT 1', [
            accountId,
            kind,
            subject,
          ])
        )[0];
      },
      async remembered(accountId, key) {
        // Two console servers given the same key at once: the second waits here until the first commits, then finds its answer.
        if (inTransaction) await query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [accountId, key]);
        return (await docs<Remembered>(query, 'SELECT doc FROM idempotency WHERE account_id = $1 AND key = $2', [accountId, key]))[0];
      },
      async remember(accountId, key, value) {
        // No ON CONFLICT: a second answer for one key is a fault, and the unique key makes its transaction fail.
        await query('INSERT INTO idempotency VALUES ($1, $2, $3)', [accountId, key, JSON.stringify(value)]);
      },
      async secret(name) {
        await query('INSERT INTO secrets VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, randomBytes(32).toString('hex')]);
        const { rows } = await query('SELECT value FROM secrets WHERE name = $1', [name]);
        return String((rows as { value: string }[])[0]?.value);
      },
      async forgetBefore(ts) {
        await query("DELETE FROM idempotency WHERE coalesce((doc->>'at')::bigint, 0) < $1", [ts]);
      },
    };
  };

  const poolQuery: Query = (sql, params) => pool.query(sql, params);
  const records: PostgresRecords = {
    ...makeRecords(poolQuery, false),
    async atomically(work) {
      const { client, release } = await checkout();
      let failure: Error | undefined;
      try {
        await client.query('BEGIN');
        const clientQuery: Query = (sql, params) => client.query(sql, params);
        const scoped: RecordStore = { ...makeRecords(clientQuery, true), atomically: (inner) => inner(scoped) };
        const result = await work(scoped);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((broken: unknown) => (failure = broken instanceof Error ? broken : new Error(String(broken))));
        throw error;
      } finally {
        release(failure);
      }
    },
    async reserve(name, count) {
      const { rows } = await pool.query<{ first: string }>(
        `INSERT INTO sequences VALUES ($1, $2::bigint + 1) ON CONFLICT (name) DO UPDATE SET next = sequences.next + $2::bigint RETURNING next - $2::bigint AS first`,
        [name, count],
      );
      return Number(rows[0]!.first);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
  return records;
}
