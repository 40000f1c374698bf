/**
 * The period planner on its own: whatever it cuts a period into, the signed pieces must cover each
 * instant of the period exactly once and nothing outside it, each piece on its level's grid. The
 * coverage is checked instant by instant, at every edge and around it, not by re-adding the plan.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DAY, joined, levels, listed, piecewise, span, type Levels, type Signed } from '../src/store/period-plan.ts';

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const HOUR = 60 * MINUTE;
/** 14 Sep 2026, 00:00 UTC. */
const D = Date.UTC(2026, 8, 14);
const at = (day: number, hours: number, minutes = 0) => D + day * DAY + hours * HOUR + minutes * MINUTE;

/** How many times period `i`'s signed pieces cover instant `t`. */
function coverage(plan: Levels, i: number, t: number): number {
  let n = 0;
  for (const piece of [...plan.days, ...plan.quarters, ...plan.events]) if (piece.i === i && piece.from <= t && t < piece.to) n += piece.sign ?? 1;
  return n;
}

/** Every edge of the periods and the plan, a millisecond either side, and the middle of each gap between them. */
function probes(plan: Levels, periods: readonly { from: number; to: number }[]): number[] {
  const edges = [...plan.days, ...plan.quarters, ...plan.events, ...periods].flatMap((r) => [r.from, r.to]);
  const sorted = [...new Set(edges)].sort((a, b) => a - b);
  const middles = sorted.slice(1).map((t, k) => Math.floor((t + sorted[k]!) / 2));
  return [...sorted.flatMap((t) => [t - 1, t, t + 1]), ...middles];
}

function assertExact(periods: readonly { from: number; to: number }[], options: Parameters<typeof levels>[1] = {}): Levels {
  const plan = levels(periods, options);
  for (const piece of plan.days) assert.ok(piece.from % DAY === 0 && piece.to % DAY === 0, `day piece off the UTC day grid: ${JSON.stringify(piece)}`);
  for (const piece of plan.quarters) assert.ok(piece.from % QUARTER === 0 && piece.to % QUARTER === 0, `quarter piece off the grid: ${JSON.stringify(piece)}`);
  for (const piece of [...plan.days, ...plan.quarters, ...plan.events]) assert.ok(piece.from < piece.to, `empty piece ${JSON.stringify(piece)}`);
  periods.forEach((period, i) => {
    for (const t of probes(plan, periods)) {
      const inside = period.from <= t && t < period.to ? 1 : 0;
      assert.equal(
        coverage(plan, i, t),
        inside,
        `period ${i} ${new Date(period.from).toISOString()}–${new Date(period.to).toISOString()} at ${new Date(t).toISOString()}`,
      );
    }
  });
  return plan;
}

const iso = (r: { from: number; to: number; sign?: number }) => `${r.sign === -1 ? '−' : ''}${new Date(r.from).toISOString()}–${new Date(r.to).toISOString()}`;

describe('levels', () => {
  test('whole days are read from the daily rollups alone', () => {
    const plan = assertExact([{ from: at(0, 0), to: at(7, 0) }]);
    assert.deepEqual(plan.days.map(iso), [iso({ from: at(0, 0), to: at(7, 0) })]);
    assert.deepEqual([plan.quarters.length, plan.events.length], [0, 0]);
  });

  test('ragged ends: whole quarter hours from the quarter rollups, the rest from the events', () => {
    const plan = assertExact([{ from: at(0, 10, 7), to: at(2, 3, 30) }]);
    assert.deepEqual(plan.days.map(iso), [iso({ from: at(1, 0), to: at(2, 0) })]);
    assert.deepEqual(plan.quarters.map(iso), [iso({ from: at(0, 10, 15), to: at(1, 0) }), iso({ from: at(2, 0), to: at(2, 3, 30) })]);
    assert.deepEqual(plan.events.map(iso), [iso({ from: at(0, 10, 7), to: at(0, 10, 15) })]);
  });

  test('most of a day, when summing, is the whole day less the rest of it', () => {
    // The day so far at 21:00: three hours taken away instead of 84 quarter hours added.
    const plan = assertExact([{ from: at(0, 0), to: at(0, 21) }], { subtract: true });
    assert.deepEqual(plan.days.map(iso), [iso({ from: at(0, 0), to: at(1, 0) })]);
    assert.deepEqual(plan.quarters.map(iso), [iso({ from: at(0, 21), to: at(1, 0), sign: -1 })]);
    assert.equal(plan.events.length, 0);
    // Without subtracting, the same period is added up from quarter hours.
    assert.equal(assertExact([{ from: at(0, 0), to: at(0, 21) }]).days.length, 0);
  });

  test('most of a quarter hour, when summing, is the quarter hour less the events of its rest', () => {
    const plan = assertExact([{ from: at(0, 9), to: at(0, 9, 14) }], { subtract: true });
    assert.deepEqual(plan.quarters.map(iso), [iso({ from: at(0, 9), to: at(0, 9, 15) })]);
    assert.deepEqual(plan.events.map(iso), [iso({ from: at(0, 9, 14), to: at(0, 9, 15), sign: -1 })]);
  });

  test('a local day of a zone off UTC is cut at the UTC midnight it crosses', () => {
    // 14 Sep in Asia/Kolkata (UTC+5:30): 13 Sep 18:30 to 14 Sep 18:30 UTC.
    const kolkata = { from: at(0, -5, -30), to: at(1, -5, -30) };
    assert.equal(assertExact([kolkata]).days.length, 0);
    const plan = assertExact([kolkata], { subtract: true });
    // 18.5 hours of 14 Sep UTC: that day less its last 5.5 hours; 13 Sep's 5.5 hours as they are.
    assert.deepEqual(plan.days.map(iso), [iso({ from: at(0, 0), to: at(1, 0) })]);
    assert.deepEqual(plan.quarters.map(iso).sort(), [iso({ from: at(-1, 18, 30), to: at(0, 0) }), iso({ from: at(0, 18, 30), to: at(1, 0), sign: -1 })].sort());
    // Seven local days of America/St_Johns (UTC−2:30), each ending off the quarter-hour grid's day.
    const week = Array.from({ length: 7 }, (_, k) => ({ from: at(k, 2, 30), to: at(k + 1, 2, 30) }));
    assertExact(week, { subtract: true });
    assertExact(week);
  });

  test('before what retention keeps nothing is taken away: the parts are read as they are', () => {
    const period = { from: at(0, 0), to: at(0, 21) };
    const plan = assertExact([period], { subtract: true, retainedFrom: at(3, 0) });
    assert.deepEqual(plan.days, []);
    assert.ok([...plan.quarters, ...plan.events].every((piece) => (piece.sign ?? 1) === 1));
    const quarterPlan = assertExact([{ from: at(5, 9), to: at(5, 9, 14) }], { subtract: true, retainedFrom: at(6, 0) });
    assert.deepEqual(quarterPlan.events.map(iso), [iso({ from: at(5, 9), to: at(5, 9, 14) })]);
  });

  test('periods of no length, or reversed, read nothing', () => {
    for (const subtract of [false, true]) {
      const plan = levels(
        [
          { from: at(0, 9), to: at(0, 9) },
          { from: at(1, 0), to: at(0, 0) },
        ],
        { subtract },
      );
      assert.deepEqual(plan, { days: [], quarters: [], events: [] });
    }
  });

  test('many periods at once, random and overlapping, each covered exactly', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const periods = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const from = D + Math.floor(next() * 10 * DAY);
        // Some aligned to minutes, some to the millisecond; from a few ms to 40 days.
        const length = Math.floor(next() ** 3 * 40 * DAY);
        return next() < 0.5 ? { from: from - (from % MINUTE), to: from - (from % MINUTE) + length - (length % MINUTE) } : { from, to: from + length };
      });
      assertExact(periods);
      assertExact(periods, { subtract: true });
      assertExact(periods, { subtract: true, retainedFrom: D + Math.floor(next() * 10 * DAY) });
    }
  });
});

describe('piecewise', () => {
  /** Signed coverage of period `i` at `t` by the ranges, against by the pieces through periodsOf. */
  const direct = (ranges: readonly Signed[], i: number, t: number) =>
    ranges.filter((r) => r.i === i && r.from <= t && t < r.to).reduce((n, r) => n + (r.sign ?? 1), 0);

  test('overlapping periods are cut at each other’s edges, each piece going to every period it lies in', () => {
    const plan = piecewise();
    const pieces = plan.cut([
      { from: 0, to: 10, i: 0 },
      { from: 5, to: 15, i: 1 },
    ]);
    assert.deepEqual(
      pieces.map((p) => [p.from, p.to, plan.periodsOf(p.i).map((x) => x.i)]),
      [
        [0, 5, [0]],
        [5, 10, [0, 1]],
        [10, 15, [1]],
      ],
    );
    // A second cut in the same read numbers its pieces after the first's.
    const more = plan.cut([{ from: 20, to: 30, i: 0, sign: -1 }]);
    assert.deepEqual(
      more.map((p) => [p.i, plan.periodsOf(p.i)]),
      [[3, [{ i: 0, sign: -1 }]]],
    );
    assert.deepEqual(plan.periodsOf(99), []);
  });

  test('random signed ranges: the pieces give each period the same signed coverage as the ranges', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const ranges: Signed[] = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
        const from = Math.floor(next() * 100);
        return { from, to: from + 1 + Math.floor(next() * 50), i: Math.floor(next() * 3), sign: next() < 0.3 ? -1 : 1 };
      });
      const plan = piecewise();
      const pieces = plan.cut(ranges);
      for (let t = -1; t < 160; t++)
        for (let i = 0; i < 3; i++) {
          const viaPieces = pieces
            .filter((p) => p.from <= t && t < p.to)
            .flatMap((p) => plan.periodsOf(p.i))
            .filter((x) => x.i === i)
            .reduce((n, x) => n + x.sign, 0);
          assert.equal(viaPieces, direct(ranges, i, t), `round ${round}, period ${i}, t ${t}`);
        }
    }
  });
});

describe('joined, span and listed', () => {
  test('joined merges ranges that overlap or touch, and keeps the others apart', () => {
    assert.deepEqual(
      joined([
        { from: 20, to: 30 },
        { from: 0, to: 10 },
        { from: 10, to: 12 },
        { from: 5, to: 8 },
        { from: 31, to: 40 },
      ]),
      [
        { from: 0, to: 12 },
        { from: 20, to: 30 },
        { from: 31, to: 40 },
      ],
    );
  });

  test('span runs from the earliest start to the latest end', () => {
    assert.deepEqual(
      span([
        { from: 5, to: 9 },
        { from: 1, to: 3 },
      ]),
      [1, 9],
    );
  });

  test('listed names each bucket starting in a range, and gives up past the most it may list', () => {
    const ranges = [
      { from: 1, to: 25, i: 0 },
      { from: 30, to: 40, i: 1 },
    ];
    assert.deepEqual(
      listed(ranges, 10, (bucket, r) => [bucket, r.i]),
      [
        [10, 0],
        [20, 0],
        [30, 1],
      ],
    );
    assert.equal(
      listed(ranges, 10, (bucket) => bucket, 2),
      undefined,
    );
    assert.deepEqual(
      listed(ranges, 10, (bucket) => bucket, 3),
      [10, 20, 30],
    );
  });
});
