/**
 * Where ClickHouse's exact p95 looks for its value, on its own: from requests counted per latency
 * slot, the slot and the place within it of the nearest-rank 95th percentile. Checked against the
 * durations themselves: the request at that place among its slot's must be the one a sort of all
 * of them puts at the rank.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rankTargets } from '../src/store/telemetry/clickhouse/p95.ts';

/** The slot ClickHouse gives a duration (`SLOT`): 32 per doubling. */
const slotOf = (ms: number) => Math.floor(Math.log2(ms + 1) * 32);
const histogramOf = (durations: readonly number[]) => {
  const counts = new Map<number, number>();
  for (const d of durations) counts.set(slotOf(d), (counts.get(slotOf(d)) ?? 0) + 1);
  return counts;
};
/** A repeatable spread of durations: mostly fast, a long tail, some equal. */
function durations(n: number, seed: number): number[] {
  let x = seed;
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => Math.round(Math.exp(next() * 8) * 1000) / 1000);
}

test('the slot and place it names hold the nearest-rank p95 of the durations', () => {
  const sets = [durations(1, 1), durations(19, 2), durations(20, 3), durations(100, 4), durations(2_345, 5), [5, 5, 5, 5], [0, 0.001, 1_000_000]];
  const periods = sets.map((_, k) => ({ from: k * 1000, to: (k + 1) * 1000 }));
  const { targets, unsure } = rankTargets(periods, sets.map(histogramOf));
  assert.equal(unsure.size, 0);
  assert.equal(targets.length, sets.length);
  for (const target of targets) {
    const all = [...sets[target.i]!].sort((a, b) => a - b);
    const expected = all[Math.ceil(0.95 * all.length) - 1];
    const inSlot = all.filter((d) => slotOf(d) === target.slot);
    assert.equal(target.inSlot, inSlot.length, `period ${target.i}: the slot's count`);
    assert.equal(inSlot[target.place - 1], expected, `period ${target.i}: the value at the place`);
    assert.deepEqual({ from: target.from, to: target.to }, periods[target.i]);
  }
});

test('a period with a slot below zero is unsure, and one with no requests has no target', () => {
  const periods = [
    { from: 0, to: 10 },
    { from: 10, to: 20 },
    { from: 20, to: 30 },
  ];
  const histograms = [
    new Map([
      [100, 3],
      [120, -1],
    ]),
    new Map([[90, 0]]),
    new Map([
      [90, 0],
      [95, 2],
    ]),
  ];
  const { targets, unsure } = rankTargets(periods, histograms);
  assert.deepEqual([...unsure], [0]);
  assert.deepEqual(
    targets.map((t) => [t.i, t.slot, t.place, t.inSlot]),
    [[2, 95, 2, 2]],
  );
});
