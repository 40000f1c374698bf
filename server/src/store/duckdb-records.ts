/**
 * The DuckDB store's records (customers, notes, history, webhooks, error records, activity,
 * idempotency keys, secrets), each a JSON document beside the columns it is looked up by.
 */
import { randomBytes } from 'node:crypto';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { text } from './sql-rows.ts';
import type { ActivityRecord, CustomerRecord, ErrorRecordRow, HistoryRecord, NoteRecord, RecordStore, Remembered, WebhookRecord } from './types.ts';

export type Write = <T>(work: (c: DuckDBConnection) => Promise<T>) => Promise<T>;
export type Docs = <T>(sql: string, params: DuckDBValue[]) => Promise<T[]>;

/**
 * The record operations over a way to write and a way to read: on their own each write is its
 * own transaction; inside `atomically` all of them share one, and reads see its writes.
 */
export function duckDbRecords(write: Write, docs: Docs): Omit<RecordStore, 'atomically'> {
  const upsertWith = (write: Write) => (table: 'customers' | 'webhooks') => async (accountId: string, doc: { id: string }) =>
    write(async (c) => {
      const existing = await c.runAndReadAll(`SELECT 1 FROM ${table} WHERE account_id = ? AND id = ?`, [accountId, doc.id]);
      await c.run(`INSERT OR REPLACE INTO ${table} VALUES (?, ?, ?)`, [accountId, doc.id, JSON.stringify(doc)]);
      return existing.currentRowCount ? ('updated' as const) : ('created' as const);
    });

  const upsert = upsertWith(write);
  const records: Omit<RecordStore, 'atomically'> = {
    upsertCustomer: upsert('customers'),
    async customer(accountId, id) {
      return (await docs<CustomerRecord>('SELECT doc FROM customers WHERE account_id = ? AND id = ?', [accountId, id]))[0];
    },
    customers: (accountId) => docs<CustomerRecord>('SELECT doc FROM customers WHERE account_id = ? ORDER BY id', [accountId]),
    async addNote(accountId, note) {
      await write((c) => c.run('INSERT INTO notes VALUES (?, ?, ?, ?)', [accountId, note.customerId, note.ts, JSON.stringify(note)]));
    },
    notes: (accountId, customerId) =>
      docs<NoteRecord>('SELECT doc FROM notes WHERE account_id = ? AND customer_id = ? ORDER BY ts DESC, rowid DESC', [accountId, customerId]),
    async addHistory(accountId, item) {
      await write((c) => c.run('INSERT INTO history VALUES (?, ?, ?, ?)', [accountId, item.customerId, item.ts, JSON.stringify(item)]));
    },
    history: (accountId, customerId) =>
      docs<HistoryRecord>('SELECT doc FROM history WHERE account_id = ? AND customer_id = ? ORDER BY ts DESC, rowid DESC', [accountId, customerId]),
    upsertWebhook: upsert('webhooks'),
    async webhook(accountId, id) {
      return (await docs<WebhookRecord>('SELECT doc FROM webhooks WHERE account_id = ? AND id = ?', [accountId, id]))[0];
    },
    webhooks: (accountId) => docs<WebhookRecord>('SELECT doc FROM webhooks WHERE account_id = ? ORDER BY id', [accountId]),
    async createError(accountId, record) {
      await write((c) =>
        c.run('INSERT INTO error_records VALUES (?, ?, ?, ?, ?, ?)', [
          accountId,
          record.id,
          record.status,
          record.createdTs,
          record.version,
          JSON.stringify(record),
        ]),
      );
    },
    async error(accountId, id) {
      return (await docs<ErrorRecordRow>('SELECT doc FROM error_records WHERE account_id = ? AND id = ?', [accountId, id]))[0];
    },
    errors: (accountId, { status, endpoint, limit, offset }) =>
      docs<ErrorRecordRow>(
        `SELECT doc FROM error_records WHERE account_id = ? ${status ? 'AND status = ?' : ''} ${endpoint ? "AND json_extract_string(doc, '$.endpoint') = ?" : ''}
         ORDER BY created_ts DESC, id DESC LIMIT ? OFFSET ?`,
        [accountId, ...(status ? [status] : []), ...(endpoint ? [endpoint] : []), limit, offset],
      ),
    updateError: (accountId, id, change, expectedVersion) =>
      write(async (c) => {
        const found = await c.runAndReadAll('SELECT doc FROM error_records WHERE account_id = ? AND id = ?', [accountId, id]);
        const row = found.getRowObjectsJS()[0];
        if (!row) return 'missing' as const;
        const current = JSON.parse(text(row['doc'])) as ErrorRecordRow;
        if (expectedVersion !== undefined && expectedVersion !== current.version) return 'conflict' as const;
        const next: ErrorRecordRow = { ...current, ...change, version: current.version + 1 };
        await c.run('UPDATE error_records SET status = ?, version = ?, doc = ? WHERE account_id = ? AND id = ?', [
          next.status,
          next.version,
          JSON.stringify(next),
          accountId,
          id,
        ]);
        return next;
      }),
    async addActivity(accountId, item) {
      // A bound null has no type for DuckDB to take; an empty subject stands for none.
      await write((c) =>
        c.run("INSERT INTO activity VALUES (?, ?, ?, NULLIF(?, ''), ?, ?)", [accountId, item.id, item.kind, item.subject ?? '', item.ts, JSON.stringify(item)]),
      );
    },
    activity: (accountId, { kind, limit, offset }) =>
      docs<ActivityRecord>(
        `SELECT doc FROM activity WHERE account_id = ? ${kind ? 'AND kind = ?' : ''} ORDER BY ts DESC, id DESC LIMIT ? OFFSET ?`,
        kind ? [accountId, kind, limit, offset] : [accountId, limit, offset],
      ),
    async latestActivity(accountId, kind, subject) {
      return (
        await docs<ActivityRecord>('SELECT doc FROM activity WHERE account_id = ? AND kind = ? AND subject = ? ORDER BY ts DESC LIMIT 1', [
          accountId,
          kind,
          subject,
        ])
      )[0];
    },
    async remembered(accountId, key) {
      return (await docs<Remembered>('SELECT doc FROM idempotency WHERE account_id = ? AND "key" = ?', [accountId, key]))[0];
    },
    async remember(accountId, key, value) {
      await write((c) => c.run('INSERT OR IGNORE INTO idempotency VALUES (?, ?, ?)', [accountId, key, JSON.stringify(value)]));
    },
    async secret(name) {
      return write(async (c) => {
        await c.run('INSERT OR IGNORE INTO secrets VALUES (?, ?)', [name, randomBytes(32).toString('hex')]);
        return text((await c.runAndReadAll('SELECT value FROM secrets WHERE name = ?', [name])).getRowObjectsJS()[0]?.['value']);
      });
    },
    async forgetBefore(ts) {
      await write((c) => c.run("DELETE FROM idempotency WHERE coalesce(CAST(json_extract(doc, '$.at') AS BIGINT), 0) < ?", [ts]));
    },
  };
  return records;
}

/** The records inside the writer's transaction on `c`: every write joins it, and reads see its writes. */
export function recordsIn(c: DuckDBConnection): RecordStore {
  const here: Write = (work) => work(c);
  const readHere: Docs = async (sql, params) => (await c.runAndReadAll(sql, params)).getRowObjectsJS().map((r) => JSON.parse(text(r['doc'])) as never);
  const scoped: RecordStore = { ...duckDbRecords(here, readHere), atomically: (work) => work(scoped) };
  return scoped;
}
