/**
 * Request ids that say nothing of anyone's traffic. A request's position (`seq`) is shared by
 * every account, so `rq_<seq>` let a tenant count another's requests from the gaps between its
 * own. The id is instead the position through a keyed permutation of 64-bit numbers (a
 * four-round Feistel network over HMAC-SHA-256), keyed per account from a secret the store
 * keeps: stable across restarts and servers, opaque to clients, and reversible only by the server.
 */
import { createHmac } from 'node:crypto';

export interface RequestIds {
  /** `rq_` and 16 hex digits. */
  encode(accountId: string, seq: number): string;
  /** The position an id stands for in this account, or undefined for an id this server did not give out. */
  decode(accountId: string, id: string): number | undefined;
}

const ROUNDS = 4;
const HIGH = 2 ** 32;
/** Positions are safe integers: the high half has 21 bits. */
const MAX_HIGH = 2 ** 21;

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
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return {
    encode(accountId, seq) {
      const key = keyOf(accountId);
      let left = Math.floor(seq / HIGH);
      let right = seq >>> 0;
      for (let i = 0; i < ROUNDS; i++) [left, right] = [right, (left ^ round(key, i, right)) >>> 0];
      return `rq_${hex(left)}${hex(right)}`;
    },
    decode(accountId, id) {
      const match = /^rq_([0-9a-f]{8})([0-9a-f]{8})$/.exec(id);
      if (!match) return undefined;
      const key = keyOf(accountId);
      let left = parseInt(match[1]!, 16);
      let right = parseInt(match[2]!, 16);
      for (let i = ROUNDS - 1; i >= 0; i--) [left, right] = [(right ^ round(key, i, left)) >>> 0, left];
      return left < MAX_HIGH ? left * HIGH + right : undefined;
    },
  };
}
