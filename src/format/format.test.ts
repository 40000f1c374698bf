import { expect } from '@open-wc/testing';
import {
  changeDirection,
  formatAge,
  formatChange,
  formatDate,
  formatDateTime,
  formatRelative,
  formatInteger,
  formatMonth,
  formatDay,
  formatMs,
  formatPercent,
  formatValue,
  greetingFor,
  hourIn,
  initials,
  roundToTotal,
} from './format.ts';
import { localeReady } from '../localize/localize.ts';

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
    expect(formatChange(null), 'nothing to compare').to.equal('—');
    expect(changeDirection(null)).to.equal('flat');
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

  it('writes dates in another language its own way, with its word for "at" once its translations are here', async () => {
    await Promise.all([localeReady('de'), localeReady('ja')]);
    const day = new Date(Date.UTC(2026, 8, 14));
    const de = new Intl.DateTimeFormat('de', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(day);
    const ja = new Intl.DateTimeFormat('ja', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(day);
    expect(formatDate('2026-09-14', { locale: 'de-DE' })).to.equal(de);
    expect(formatDateTime('2026-09-14T09:41:00Z', { locale: 'de-DE', timeZone: 'UTC' })).to.equal(`${de} um 09:41`);
    expect(formatDateTime('2026-09-14T09:41:00Z', { locale: 'ja', timeZone: 'UTC' })).to.equal(`${ja} 09:41`);
    expect(formatDateTime('2026-09-14T09:41:00Z', { locale: 'en', timeZone: 'UTC' })).to.equal('14 Sep 2026 at 09:41');
  });

  it('says how long ago in words of the language', () => {
    const now = new Date('2026-09-14T12:00:00Z');
    expect(formatRelative('2026-09-14T11:57:00Z', now)).to.equal('3 minutes ago');
    expect(formatRelative('2026-09-14T07:00:00Z', now, { locale: 'de' })).to.equal('vor 5 Stunden');
    expect(formatRelative('2026-09-12T12:00:00Z', now, { locale: 'ja' })).to.equal(new Intl.RelativeTimeFormat('ja').format(-2, 'day'));
    expect(formatRelative('not a date', now)).to.equal('—');
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
    expect(formatValue(512, 'bytes')).to.equal('512B');
    expect(formatValue(512, 'bytes', { locale: 'de' })).to.equal('512 B');
    expect(formatValue(512, 'bytes', { locale: 'ja' })).to.equal('512B');
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

  it('labels days from YYYY-MM-DD, in the language asked for and never shifted by a time zone', () => {
    expect(formatDay('2026-08-06')).to.equal('06 Aug');
    expect(formatDay('2026-08-16', { locale: 'en-US', timeZone: 'Pacific/Auckland' })).to.equal('16 Aug');
    expect(formatDay('2026-08-16', { locale: 'de' })).to.equal('16. Aug.');
    expect(formatDay('2026-08-16', { locale: 'ja' })).to.equal('8月16日');
    expect(formatDay('not a day')).to.equal('—');
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

describe('shares and greetings', () => {
  it('rounds shares so they add up to exactly 100.0', () => {
    // Tenths floor to 99.8; the two largest remainders (.6 of 12.46, then the first .4) get the rest.
    const shares = roundToTotal([41.24, 22.33, 15.04, 12.46, 8.93]);
    expect(shares).to.deep.equal([41.3, 22.3, 15.0, 12.5, 8.9]);
    expect(roundToTotal([41.2, 22.3, 15.0, 12.5, 9.0])).to.deep.equal([41.2, 22.3, 15.0, 12.5, 9.0]);
    expect(shares.reduce((a, b) => a + b, 0).toFixed(1)).to.equal('100.0');
    const thirds = roundToTotal([1, 1, 1]);
    expect(thirds).to.deep.equal([33.4, 33.3, 33.3]);
    expect(roundToTotal([0, 0])).to.deep.equal([0, 0]);
    expect(roundToTotal([50, Number.NaN, -3, 50])).to.deep.equal([50, 0, 0, 50]);
  });

  it('greets by the time of day', () => {
    expect([4, 5, 11, 12, 17, 18, 23].map((hour) => greetingFor(hour))).to.deep.equal([
      'Good evening',
      'Good morning',
      'Good morning',
      'Good afternoon',
      'Good afternoon',
      'Good evening',
      'Good evening',
    ]);
  });
});
