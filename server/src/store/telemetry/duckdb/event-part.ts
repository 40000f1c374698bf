/**
 * A part of a batch of request events, as DuckDB's appender takes it: data chunks of a vector
 * each, built column by column before the part's turn at the writer (which only numbers its rows).
 */
import { BIGINT, BOOLEAN, DOUBLE, DuckDBDataChunk, SMALLINT, VARCHAR } from '@duckdb/node-api';
import { searchWordsOf } from '../../search-words.ts';
import { payloadOf, type RequestEvent, type RequestPayload } from '../../types.ts';

/** Events per part while other accounts write: a transaction the writer holds for 10–30 ms (1 KB events, under load). */
export const PART_ROWS = 500;
/** Events per part when no other account is writing: a lone account's batch in few transactions. */
export const SOLO_PART_ROWS = 5_000;
/** The `seq` column's place, numbered in the writer's turn. */
export const SEQ_COLUMN = 1;

const COLUMN_TYPES = [
  VARCHAR,
  BIGINT,
  BIGINT,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  SMALLINT,
  DOUBLE,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  BIGINT,
  VARCHAR,
  BOOLEAN,
];
/** `request_payloads`: account, time, seq, customer, the two header sets, type, size, truncated and text of each body, then their words. */
const PAYLOAD_TYPES = [VARCHAR, BIGINT, BIGINT, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, BOOLEAN, VARCHAR, VARCHAR, BIGINT, BOOLEAN, VARCHAR, VARCHAR];
/** The `seq` column's place in `request_payloads`. */
export const PAYLOAD_SEQ_COLUMN = 2;

/** Rows of a data chunk, at most: DuckDB's vector size. */
const CHUNK_ROWS = 2_048;

export interface EventPart {
  /** The rows, a vector's worth per chunk. */
  chunks: DuckDBDataChunk[];
  rows: number;
  /** About what the rows weigh in the write-ahead log: their text, and a little for the numbers. */
  bytes: number;
  /** The headers and bodies of the part's events that have some, with each event's place in the part, for `request_payloads`. */
  payloads: { chunks: DuckDBDataChunk[]; at: number[] } | undefined;
}

/** Events as chunks, with `seq` left at 0. */
export function eventPart(events: readonly RequestEvent[]): EventPart {
  const chunks: DuckDBDataChunk[] = [];
  let bytes = 0;
  for (let start = 0; start < events.length; start += CHUNK_ROWS) {
    const slice = events.slice(start, start + CHUNK_ROWS);
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
      // Headers are kept in request_payloads now; the column holds those of older versions.
      slice.map(() => null),
      slice.map((e) => payloadOf(e) !== null),
    ]);
    chunks.push(chunk);
    slice.forEach((e) => (bytes += 48 + e.route.length + e.path.length + (e.actor?.name.length ?? 0)));
  }
  const kept = events.flatMap((e, at) => {
    const payload = payloadOf(e);
    return payload ? [{ e, at, payload }] : [];
  });
  return {
    chunks,
    rows: events.length,
    bytes: bytes + kept.reduce((sum, k) => sum + payloadBytes(k.payload), 0),
    payloads: kept.length ? { chunks: payloadChunks(kept), at: kept.map((k) => k.at) } : undefined,
  };
}

const payloadBytes = (p: RequestPayload) =>
  64 +
  JSON.stringify(p.headers ?? '').length +
  JSON.stringify(p.responseHeaders ?? '').length +
  (p.requestBody?.text?.length ?? 0) +
  (p.responseBody?.text?.length ?? 0);

/** Payload rows as chunks of a vector each, `seq` left at 0. */
function payloadChunks(all: { e: RequestEvent; at: number; payload: RequestPayload }[]): DuckDBDataChunk[] {
  const chunks: DuckDBDataChunk[] = [];
  for (let start = 0; start < all.length; start += CHUNK_ROWS) chunks.push(payloadChunk(all.slice(start, start + CHUNK_ROWS)));
  return chunks;
}

function payloadChunk(kept: { e: RequestEvent; at: number; payload: RequestPayload }[]): DuckDBDataChunk {
  const chunk = DuckDBDataChunk.create(PAYLOAD_TYPES);
  const body = (side: 'requestBody' | 'responseBody') => [
    kept.map((k) => k.payload[side]?.contentType ?? null),
    kept.map((k) => (k.payload[side] ? BigInt(k.payload[side].size) : null)),
    kept.map((k) => k.payload[side]?.truncated ?? null),
    kept.map((k) => k.payload[side]?.text ?? null),
  ];
  chunk.setColumns([
    kept.map((k) => k.e.accountId),
    kept.map((k) => BigInt(k.e.ts)),
    kept.map(() => 0n),
    kept.map((k) => k.e.customerId),
    kept.map((k) => (k.payload.headers ? JSON.stringify(k.payload.headers) : null)),
    kept.map((k) => (k.payload.responseHeaders ? JSON.stringify(k.payload.responseHeaders) : null)),
    ...body('requestBody'),
    ...body('responseBody'),
    kept.map((k) => searchWordsOf(k.payload)),
  ]);
  return chunk;
}
