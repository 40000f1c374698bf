/**
 * Request ids that say nothing of anyone's traffic, in one of two forms.
 *
 * - **Positions** (`rq_` and 16 hex digits): where one counter numbers every account's requests
 *   (DuckDB, and ClickHouse rows written before tags), `rq_<seq>` would let a tenant count another's
 *   requests from the gaps between its own. The id is instead the position through a keyed
 *   permutation of 64-bit numbers (a four-round Feistel network over HMAC-SHA-256), keyed per
 *   account from a secret the store keeps: stable across restarts and servers, opaque to clients,
 *   and reversible only by the server.
 * - **Tags** (`rq_` and 25 hex digits: the request's millisecond, then its tag): where no counter is
 *   shared (ClickHouse), each event draws a random tag at or above `TAGGED_FROM`. A tag says
 *   nothing, so the id needs no secret and no records store; the time in it is the request's own,
 *   and makes the tag unique where it has to be (one account's requests in one millisecond).
 *   Tags of one batch are consecutive, so the log keeps that batch's order. A tag whose time
 *   no id can hold takes the position form instead.
 */
import { createHmac, randomFillSync } from 'node:crypto';

/** Where a request's place in the log comes from: its time, then its position or tag. */
export interface RequestPlace {
  ts: number;
  seq: number;
}

export interface RequestIds {
  encode(accountId: string, request: RequestPlace): string;
  /** What an id stands for in this account (a tag's time too), or undefined for an id this server did not give out. */
  decode(accountId: string, id: string): { seq: number; ts?: number } | undefined;
}

const ROUNDS = 4;
const HIGH = 2 ** 32;
/** Positions are safe integers: the high half has 21 bits. */
const MAX_HIGH = 2 ** 21;
const TIME_DIGITS = 12;
const TAG_DIGITS = 13;

/** Tags are the safe integers from 2⁵² on; no counter reaches them. */
export const TAGGED_FROM = 2 ** 52;

/**
 * Tags for `count` events in the order they came: consecutive from a random start, so that events
 * of one batch in one millisecond keep their order in the log (as the counter kept it). Events of
 * other batches in the same millisecond come in no particular order; two batches' tags overlap
 * with a chance of about (their sizes summed) in 2⁵², and only matter if they share the millisecond too.
 */
export function requestTags(count: number): number[] {
  const [high, low] = randomFillSync(new Uint32Array(2)) as unknown as [number, number];
  const start = ((high % 2 ** 20) * HIGH + low) % (TAGGED_FROM - count + 1); // 2⁵² tags from 2⁵²
  return Array.from({ length: count }, (_, i) => TAGGED_FROM + start + i);
}

/** Request ids in both forms: what an id matches says which one it is. */
export const REQUEST_ID_PATTERN = /^rq_(?:[0-9a-f]{16}|[0-9a-f]{25})$/;

export function createRequestIds(secret: string): RequestIds {
  const keys = new Map<string, Buffer>();
  const keyOf = (accountId: string) => {
    let key = keys.get(accountId);
    if (!key) {
      key = createHmac('sha256', secret).update(accountId).digest();
      if (keys.size > 10_000) keys.clear();
      keys.set(accountId, key);
    }
    return key;
  };
  const round = (key: Buffer, index: number, half: number) => {
    const input = Buffer.allocUnsafe(5);
    input.writeUInt8(index, 0);
    input.writeUInt32BE(half, 1);
    return createHmac('sha256', key).update(input).digest().readUInt32BE(0);
  };
  const hex = (n: number, digits = 8) => n.toString(16).padStart(digits, '0');
  return {
    encode(accountId, { ts, seq }) {
      // A tag with a time the id cannot hold (a store fed directly, not through ingest) takes the
      // position form: it decodes to the tag alone, and the request is looked up by its tag.
      if (seq >= TAGGED_FROM && Number.isSafeInteger(ts) && ts >= 0 && ts < 16 ** TIME_DIGITS)
        return `rq_${hex(ts, TIME_DIGITS)}${hex(seq - TAGGED_FROM, TAG_DIGITS)}`;
      const key = keyOf(accountId);
      let left = Math.floor(seq / HIGH);
      let right = seq >>> 0;
      for (let i = 0; i < ROUNDS; i++) [left, right] = [right, (left ^ round(key, i, right)) >>> 0];
      return `rq_${hex(left)}${hex(right)}`;
    },
    decode(accountId, id) {
      if (!REQUEST_ID_PATTERN.test(id)) return undefined;
      const digits = id.slice(3);
      if (digits.length === TIME_DIGITS + TAG_DIGITS) {
        return { ts: parseInt(digits.slice(0, TIME_DIGITS), 16), seq: TAGGED_FROM + parseInt(digits.slice(TIME_DIGITS), 16) };
      }
      const key = keyOf(accountId);
      let left = parseInt(digits.slice(0, 8), 16);
      let right = parseInt(digits.slice(8), 16);
      for (let i = ROUNDS - 1; i >= 0; i--) [left, right] = [(right ^ round(key, i, left)) >>> 0, left];
      return left < MAX_HIGH ? { seq: left * HIGH + right } : undefined;
    },
  };
}
