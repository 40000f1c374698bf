/** What the SQL stores share about rows: reading values out of them, and the request log's conditions and rows. */
import { eventWhere, type Contains } from './sql-filter.ts';
import { join, sql, type Sql } from './sql.ts';
import type { RequestQuery, StoredRequest } from './types.ts';

export type Row = Record<string, unknown>;

/** A number from a driver's value (DuckDB answers bigints, ClickHouse 64-bit integers as strings); 0 for anything else. */
export const num = (value: unknown): number => (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string' ? Number(value) || 0 : 0);
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The request log's WHERE: the filter, then the cursor (older than the last row shown), `since` and one request's `seq`. */
export function requestWhere(accountId: string, query: RequestQuery, contains?: Contains): Sql {
  const clauses = [eventWhere(accountId, query, contains)];
  if (query.before) clauses.push(sql`(ts < ${query.before.ts} OR (ts = ${query.before.ts} AND seq < ${query.before.seq}))`);
  if (query.since !== undefined) clauses.push(sql`ts > ${query.since}`);
  if (query.seq !== undefined) clauses.push(sql`seq = ${query.seq}`);
  return join(clauses, ' AND ');
}

/** A stored request from a row of `request_events` (the same columns in every SQL store). */
export const storedRequestOf = (r: Row): StoredRequest => ({
  accountId: text(r['account_id']),
  seq: num(r['seq']),
  ts: num(r['ts']),
  method: text(r['method']),
  route: text(r['route']),
  path: text(r['path']),
  status: num(r['status']),
  durationMs: num(r['duration_ms']),
  apiVersion: textOrNull(r['api_version']),
  keyId: textOrNull(r['key_id']),
  customerId: textOrNull(r['customer_id']),
  actor: typeof r['actor_id'] === 'string' ? { id: r['actor_id'], name: textOrNull(r['actor_name']) ?? r['actor_id'] } : null,
  bytes: r['bytes'] === null || r['bytes'] === undefined ? null : num(r['bytes']),
  headers: typeof r['headers'] === 'string' ? (JSON.parse(r['headers']) as Record<string, string>) : null,
});
