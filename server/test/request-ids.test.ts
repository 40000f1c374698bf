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
  test('tags are safe integers from 2^52 on, consecutive within a batch from a random start', () => {
    const batch = requestTags(20_000);
    for (const tag of batch) assert.ok(Number.isSafeInteger(tag) && tag >= 2 ** 52, String(tag));
    // In order, so the log keeps the batch's order among requests of one millisecond.
    for (let i = 1; i < batch.length; i++) assert.equal(batch[i], batch[i - 1]! + 1, `tag ${i}`);
    // Each batch starts somewhere else, high bits included.
    const starts = Array.from({ length: 2_000 }, () => requestTags(1)[0]!);
    assert.equal(new Set(starts).size, starts.length);
    assert.ok(new Set(starts.map((t) => Math.floor((t - 2 ** 52) / 2 ** 40))).size > 1_000, 'the start’s high bits vary');
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

test('a tag whose time no id can hold takes the position form, which still leads to the tag', () => {
  const ids = createRequestIds('a secret');
  const [tag] = requestTags(1) as [number];
  for (const ts of [-1, 1.5, Number.NaN, 16 ** 12, Date.now() * 1000]) {
    const id = ids.encode('acct_a', { ts, seq: tag });
    assert.match(id, /^rq_[0-9a-f]{16}$/, String(ts));
    assert.deepEqual(ids.decode('acct_a', id), { seq: tag }, String(ts));
  }
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
