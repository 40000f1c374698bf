/** What the SQL stores share about rows: reading values out of them, and the request log's conditions and rows. */
import { searchWordsOf } from './search-words.ts';
import { eventWhere, type Contains } from './sql-filter.ts';
import { identifier, join, sql, type Sql } from './sql.ts';
import type { CapturedBody, RequestPayload, RequestQuery, StoredRequest } from './types.ts';

export type Row = Record<string, unknown>;

/** A number from a driver's value (DuckDB answers bigints, ClickHouse 64-bit integers as strings); 0 for anything else. */
export const num = (value: unknown): number => (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string' ? Number(value) || 0 : 0);
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The request log's WHERE: the filter, then the cursor (older than the last row shown), `since` and one request's `seq`. */
export function requestWhere(
  accountId: string,
  query: RequestQuery,
  contains?: Contains,
  payloads: Sql = identifier('request_payloads'),
  prewhere = false,
): Sql {
  const search = query.payloadsFrom === undefined ? undefined : { payloads, keptFrom: query.payloadsFrom, prewhere };
  const clauses = [eventWhere(accountId, query, contains, search)];
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
  // Headers kept with the event by versions before payloads were kept apart.
  headers: typeof r['headers'] === 'string' ? (JSON.parse(r['headers']) as Record<string, string>) : null,
  hasPayload: num(r['has_payload']) === 1 || r['has_payload'] === true || typeof r['headers'] === 'string',
});

/** What a row of `request_payloads` holds (the same columns in every SQL store). */
export const payloadOfRow = (r: Row): RequestPayload => {
  const headers = (value: unknown) => (typeof value === 'string' && value ? (JSON.parse(value) as Record<string, string>) : null);
  const body = (side: 'request' | 'response'): CapturedBody | null =>
    typeof r[`${side}_type`] === 'string'
      ? {
          contentType: text(r[`${side}_type`]),
          size: num(r[`${side}_size`]),
          truncated: num(r[`${side}_truncated`]) === 1 || r[`${side}_truncated`] === true,
          text: textOrNull(r[`${side}_text`]),
        }
      : null;
  return { headers: headers(r['headers']), responseHeaders: headers(r['response_headers']), requestBody: body('request'), responseBody: body('response') };
};

/** A payload as the columns of `request_payloads` take it. */
export function payloadColumns(p: RequestPayload) {
  const body = (side: 'request' | 'response', b: CapturedBody | null) => ({
    [`${side}_type`]: b?.contentType ?? null,
    [`${side}_size`]: b ? b.size : null,
    [`${side}_truncated`]: b ? (b.truncated ? 1 : 0) : null,
    [`${side}_text`]: b?.text ?? null,
  });
  return {
    headers: p.headers ? JSON.stringify(p.headers) : null,
    response_headers: p.responseHeaders ? JSON.stringify(p.responseHeaders) : null,
    ...body('request', p.requestBody),
    ...body('response', p.responseBody),
    words: searchWordsOf(p),
  } as Record<string, string | number | null>;
}
