/**
 * A part of a batch of request events, as DuckDB's appender takes it: data chunks of a vector
 * each, built column by column before the part's turn at the writer (which only numbers its rows).
 */
import { BIGINT, DOUBLE, DuckDBDataChunk, SMALLINT, VARCHAR } from '@duckdb/node-api';
import type { RequestEvent } from '../../types.ts';

/** Events per part while other accounts write: a transaction the writer holds for 10–30 ms (1 KB events, under load). */
export const PART_ROWS = 500;
/** Events per part when no other account is writing: a lone account's batch in few transactions. */
export const SOLO_PART_ROWS = 5_000;
/** The `seq` column's place, numbered in the writer's turn. */
export const SEQ_COLUMN = 1;

const COLUMN_TYPES = [VARCHAR, BIGINT, BIGINT, VARCHAR, VARCHAR, VARCHAR, SMALLINT, DOUBLE, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, VARCHAR];

/** Rows of a data chunk, at most: DuckDB's vector size. */
const CHUNK_ROWS = 2_048;

export interface EventPart {
  /** The rows, a vector's worth per chunk. */
  chunks: DuckDBDataChunk[];
  rows: number;
  /** About what the rows weigh in the write-ahead log: their text, and a little for the numbers. */
  bytes: number;
}

/** Events as chunks, with `seq` left at 0. */
export function eventPart(events: readonly RequestEvent[]): EventPart {
  const chunks: DuckDBDataChunk[] = [];
  let bytes = 0;
  for (let start = 0; start < events.length; start += CHUNK_ROWS) {
    const slice = events.slice(start, start + CHUNK_ROWS);
    const headers = slice.map((e) => (e.headers ? JSON.stringify(e.headers) : null));
    const chunk = DuckDBDataChunk.create(COLUMN_TYPES);
    chunk.setColumns([
      slice.map((e) => e.accountId),
      slice.map(() => 0n),
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
      headers,
    ]);
    chunks.push(chunk);
    slice.forEach((e, i) => (bytes += 48 + e.route.length + e.path.length + (headers[i]?.length ?? 0) + (e.actor?.name.length ?? 0)));
  }
  return { chunks, rows: events.length, bytes };
}
