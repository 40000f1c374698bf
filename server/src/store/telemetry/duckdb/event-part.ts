/**
 * A part of a batch of request events, as DuckDB's appender takes it: one data chunk, built
 * column by column before the part's turn at the writer (which only numbers its rows).
 */
import { BIGINT, DOUBLE, DuckDBDataChunk, SMALLINT, VARCHAR } from '@duckdb/node-api';
import type { RequestEvent } from '../../types.ts';

/** Events per part, at most: one transaction's worth, which the writer holds for about 15 ms. */
export const PART_ROWS = 1_000;
/** The `seq` column's place, numbered in the writer's turn. */
export const SEQ_COLUMN = 1;

const COLUMN_TYPES = [VARCHAR, BIGINT, BIGINT, VARCHAR, VARCHAR, VARCHAR, SMALLINT, DOUBLE, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, VARCHAR];

export interface EventPart {
  chunk: DuckDBDataChunk;
  rows: number;
  /** About what the rows weigh in the write-ahead log: their text, and a little for the numbers. */
  bytes: number;
}

/** At most PART_ROWS events as a chunk, with `seq` left at 0. */
export function eventPart(events: readonly RequestEvent[]): EventPart {
  const chunk = DuckDBDataChunk.create(COLUMN_TYPES);
  const headers = events.map((e) => (e.headers ? JSON.stringify(e.headers) : null));
  chunk.setColumns([
    events.map((e) => e.accountId),
    events.map(() => 0n),
    events.map((e) => BigInt(e.ts)),
    events.map((e) => e.method),
    events.map((e) => e.route),
    events.map((e) => e.path),
    events.map((e) => e.status),
    events.map((e) => e.durationMs),
    events.map((e) => e.apiVersion),
    events.map((e) => e.keyId),
    events.map((e) => e.customerId),
    events.map((e) => e.actor?.id ?? null),
    events.map((e) => e.actor?.name ?? null),
    events.map((e) => (e.bytes === null ? null : BigInt(e.bytes))),
    headers,
  ]);
  let bytes = 0;
  events.forEach((e, i) => (bytes += 48 + e.route.length + e.path.length + (headers[i]?.length ?? 0) + (e.actor?.name.length ?? 0)));
  return { chunk, rows: events.length, bytes };
}
