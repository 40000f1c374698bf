import { expect } from '@open-wc/testing';
import {
  changeDirection,
  formatAge,
  formatChange,
  formatDate,
  formatDateTime,
  formatInteger,
  formatMonth,
  formatMs,
  formatPercent,
  formatValue,
  hourIn,
  initials,
} from './format.ts';

describe('format', () => {
  const utc = { timeZone: 'UTC' };

  it('writes integers with thousands separators', () => {
    expect(formatInteger(1284301)).to.equal('1,284,301');
    expect(formatInteger(1284301, { locale: 'de-DE' })).to.equal('1.284.301');
  });

  it('writes percents with one decimal', () => {
    expect(formatPercent(2.4)).to.equal('2.4%');
    expect(formatPercent(0)).to.equal('0.0%');
    expect(formatPercent(99.25)).to.equal('99.3%');
  });

  it('signs changes with a plus or a true minus', () => {
    expect(formatChange(12.5)).to.equal('+12.5%');
    expect(formatChange(-3.1)).to.equal('\u22123.1%');
    expect(formatChange(0)).to.equal('0.0%');
    expect(changeDirection(12.5)).to.equal('up');
    expect(changeDirection(-0.4)).to.equal('down');
    expect(changeDirection(0.04)).to.equal('flat');
  });

  it('writes calendar dates as DD Mon YYYY whatever the time zone', () => {
    expect(formatDate('2026-09-14')).to.equal('14 Sep 2026');
    expect(formatDate('2025-03-02', { timeZone: 'Pacific/Honolulu' })).to.equal('02 Mar 2025');
    expect(formatDate('not a date')).to.equal('—');
  });

  it('writes timestamps as DD Mon YYYY at HH:MM in the configured zone', () => {
    expect(formatDateTime('2026-09-14T09:41:00Z', utc)).to.equal('14 Sep 2026 at 09:41');
    expect(formatDateTime('2026-09-14T09:41:00Z', { timeZone: 'Asia/Tokyo' })).to.equal('14 Sep 2026 at 18:41');
    expect(formatDateTime('2026-09-14T23:30:00Z', { timeZone: 'Europe/Berlin' })).to.equal('15 Sep 2026 at 01:30');
    expect(formatDateTime('2026-09-14T09:41:00Z', { timeZone: 'Not/AZone' })).to.match(/^14 Sep 2026 at \d\d:41$/);
  });

  it('writes ages in minutes, then hours, then days', () => {
    const now = new Date('2026-09-14T09:45:00Z');
    expect(formatAge('2026-09-14T09:42:00Z', now)).to.equal('3m');
    expect(formatAge('2026-09-14T04:40:00Z', now)).to.equal('5h');
    expect(formatAge('2026-09-11T09:45:00Z', now)).to.equal('3d');
    expect(formatAge('2026-09-14T09:50:00Z', now)).to.equal('0m');
  });

  it('formats a value by the unit the API sends', () => {
    expect(formatValue(1284301, 'count')).to.equal('1,284,301');
    expect(formatValue(182, 'ms')).to.equal('182 ms');
    expect(formatValue(1_536_000, 'bytes')).to.equal('1.5 MB');
    expect(formatValue(512, 'bytes')).to.equal('512 byte');
    expect(formatValue(64, 'percent')).to.equal('64.0%');
    expect(formatValue(1284301, 'USD')).to.equal('$1,284,301');
    expect(formatValue(1284301, 'EUR', { locale: 'de-DE' })).to.equal('1.284.301\u00a0€');
    expect(formatValue(3, 'widgets')).to.equal('3 widgets');
    expect(formatMs(1240)).to.equal('1,240 ms');
  });

  it('labels months from YYYY-MM', () => {
    expect(formatMonth('2025-10')).to.equal('Oct');
    expect(formatMonth('2026-09')).to.equal('Sep');
  });

  it('derives initials unless the API sends them', () => {
    expect(initials({ name: 'Ana Silva' })).to.equal('AS');
    expect(initials({ name: 'lee' })).to.equal('L');
    expect(initials({ name: 'Mia van der Berg' })).to.equal('MB');
    expect(initials({ name: 'Ana Silva', initials: 'AnS' })).to.equal('AnS');
    expect(initials({ name: '  ' })).to.equal('?');
  });

  it('reads the hour in a time zone', () => {
    const instant = new Date('2026-09-14T09:41:00Z');
    expect(hourIn(instant, utc)).to.equal(9);
    expect(hourIn(instant, { timeZone: 'America/New_York' })).to.equal(5);
  });
});
