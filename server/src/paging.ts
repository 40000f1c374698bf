/** `limit` and `cursor` of list routes (the query schema bounds `limit`): opaque cursors, a clear 400 for a bad one. */
import { badRequest } from './problem.ts';

export const DEFAULT_LIMIT = 50;

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const decode = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');
const invalidCursor = () => badRequest('The cursor is not one this server gave out.', [{ field: 'cursor', message: 'Start again without a cursor.' }]);

/** Position cursors for lists read by offset (computed lists, records). */
export const offsetCursor = {
  encode: (offset: number) => encode(`o:${offset}`),
  decode(cursor: string | undefined): number {
    if (!cursor) return 0;
    const match = /^o:(\d{1,9})$/.exec(decode(cursor));
    if (!match) throw invalidCursor();
    return Number(match[1]);
  },
};

/** Keyset cursors for the request log: the last shown request's time and (opaque) id. */
export const requestCursor = {
  encode: (position: { ts: number; id: string }) => encode(`r:${position.ts}:${position.id}`),
  /** The position, with the id turned back into a sequence by `seqOf`, which alone says what an id is (undefined: not an id of this account). */
  decode(cursor: string | undefined, seqOf: (id: string) => number | undefined): { ts: number; seq: number } | undefined {
    if (!cursor) return undefined;
    const match = /^r:(\d{1,16}):(rq_[0-9a-f]{1,32})$/.exec(decode(cursor));
    const seq = match ? seqOf(match[2]!) : undefined;
    if (!match || seq === undefined) throw invalidCursor();
    return { ts: Number(match[1]), seq };
  },
};

/** A page from `limit + 1` fetched items: the extra one only says that there is more. */
export function pageOf<T, R>(items: readonly T[], limit: number, map: (item: T) => R, next: (last: T) => string) {
  const shown = items.slice(0, limit);
  return { items: shown.map(map), nextCursor: items.length > limit ? next(shown[shown.length - 1]!) : null };
}
