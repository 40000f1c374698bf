import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRequestIds, requestTags } from '../src/request-ids.ts';

const TS = Date.parse('2026-09-14T09:41:00Z');

describe('request ids of positions (one counter for every account)', () => {
  const ids = createRequestIds('a secret');

  test('turn back into their position, in their own account only', () => {
    for (const seq of [1, 2, 101, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, 2 ** 52 - 1]) {
      const id = ids.encode('acct_a', { ts: TS, seq });
      assert.match(id, /^rq_[0-9a-f]{16}$/);
      assert.deepEqual(ids.decode('acct_a', id), { seq });
      assert.notEqual(ids.decode('acct_b', id)?.seq, seq, 'another account reads another position, or none');
    }
  });

  test('hide the gaps between positions, and differ by account and secret', () => {
    const hex = (id: string) => BigInt(`0x${id.slice(3)}`);
    assert.notEqual(hex(ids.encode('acct_a', { ts: TS, seq: 102 })) - hex(ids.encode('acct_a', { ts: TS, seq: 1 })), 101n);
    assert.notEqual(ids.encode('acct_a', { ts: TS, seq: 5 }), ids.encode('acct_b', { ts: TS, seq: 5 }));
    assert.notEqual(ids.encode('acct_a', { ts: TS, seq: 5 }), createRequestIds('another secret').encode('acct_a', { ts: TS, seq: 5 }));
  });
});

describe('request ids of tags (no counter: ClickHouse)', () => {
  test('tags are random safe integers from 2^52 on', () => {
    const tags = requestTags(10_000);
    for (const tag of tags) assert.ok(Number.isSafeInteger(tag) && tag >= 2 ** 52, String(tag));
    assert.equal(new Set(tags).size, tags.length, 'no two alike');
    // 52 random bits: the high bits vary too, not only the low word.
    assert.ok(new Set(tags.map((t) => Math.floor((t - 2 ** 52) / 2 ** 32))).size > 9_000);
  });

  test('an id is the request’s millisecond and its tag, read back with no secret and in no particular account', () => {
    const [tag] = requestTags(1) as [number];
    const id = createRequestIds('a secret').encode('acct_a', { ts: TS, seq: tag });
    assert.match(id, /^rq_[0-9a-f]{25}$/);
    assert.equal(id, `rq_${TS.toString(16).padStart(12, '0')}${(tag - 2 ** 52).toString(16).padStart(13, '0')}`);
    assert.deepEqual(createRequestIds('another secret').decode('acct_b', id), { ts: TS, seq: tag });
    // The first and the last tag, and the first millisecond.
    for (const seq of [2 ** 52, 2 ** 53 - 1])
      for (const ts of [0, TS]) assert.deepEqual(createRequestIds('s').decode('a', createRequestIds('s').encode('a', { ts, seq })), { ts, seq });
  });
});

test('what is no id of this server is none', () => {
  const ids = createRequestIds('a secret');
  for (const id of [
    '',
    'rq_',
    'rq_123',
    `rq_${'0'.repeat(17)}`,
    `rq_${'0'.repeat(24)}`,
    `rq_${'A'.repeat(16)}`,
    `rq_${'0'.repeat(16)}\n`,
    `x${'0'.repeat(18)}`,
  ])
    assert.equal(ids.decode('acct_a', id), undefined, JSON.stringify(id));
});
