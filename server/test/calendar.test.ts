// Calendar periods of a time zone, across clock changes: each month starts at the local
// midnight of its first day, read back with Intl (independently of how the server finds it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastMonths, thisWeek, today, zonedInstant } from '../src/calendar.ts';

const local = (instant: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));

for (const timeZone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Pacific/Auckland', 'Asia/Kolkata', 'America/St_Johns']) {
  test(`months, days and weeks start at local midnight in ${timeZone}`, () => {
    const now = Date.parse('2026-11-23T06:30:00Z');
    const months = lastMonths(now, timeZone, 24);
    for (const [i, m] of months.entries()) {
      assert.equal(local(m.from, timeZone), `${m.month}-01, 00:00`, `${m.month} starts at local midnight`);
      assert.notEqual(local(m.from - 60_000, timeZone).slice(0, 7), m.month, 'a minute earlier is the month before');
      if (i > 0) assert.equal(months[i - 1]!.to, m.from, 'months follow each other without a gap');
    }
    assert.ok(months.at(-1)!.from <= now && now < months.at(-1)!.to, 'the last month holds now');
    const { today: day, yesterday } = today(now, timeZone);
    assert.match(local(day.from, timeZone), /, 00:00$/);
    assert.equal(yesterday.to, day.from);
    assert.match(local(yesterday.from, timeZone), /, 00:00$/);
    const week = thisWeek(now, timeZone);
    assert.match(local(week.from, timeZone), /, 00:00$/);
    assert.equal(new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(new Date(week.from)), 'Mon');
  });
}

test('a day whose midnight is skipped starts at the first instant on it (Santiago, 8 Sep 2024)', () => {
  const start = zonedInstant(2024, 9, 8, 'America/Santiago');
  assert.equal(local(start, 'America/Santiago'), '2024-09-08, 01:00', 'clocks jumped from 00:00 to 01:00');
  assert.equal(local(start - 1, 'America/Santiago').slice(0, 10), '2024-09-07');
});
