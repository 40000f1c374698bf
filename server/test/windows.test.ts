// Time ranges: every windowed figure and bucket checked against counts computed here from the
// same known events (with Intl and plain arithmetic, not the server's calendar code), in UTC and
// in a zone twelve hours ahead, so calendar days differ from UTC days.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as schema from '@ops-console/contract/schemas';
import type { ConsoleServer } from '../src/index.ts';
import { knownEvents, NOW } from './events.ts';
import { call, ingest, nearestRankP95, pct1, startServer, type EventInput } from './harness.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = Date.parse(NOW);
const events = knownEvents();
const at = (e: EventInput) => Date.parse(e.ts);
const between = (from: number, to: number) => events.filter((e) => at(e) >= from && at(e) < to);
const change = (current: number, previous: number) => (previous ? Math.round(((current - previous) / previous) * 1000) / 10 : null);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** The calendar day of an instant in a zone, by Intl. */
const dayIn = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(new Date(ms));

for (const timeZone of ['UTC', 'Pacific/Auckland']) {
  describe(`time ranges in ${timeZone}`, () => {
    let server: ConsoleServer;
    before(async () => {
      server = await startServer({ timeZone, clock: () => new Date(NOW) });
      await ingest(server, events);
    });
    after(() => server.close());

    test('overview over the last 24 hours: 24 clock hours to now, each figure against the same length before', async () => {
      const { status, json } = await call(server, '/console/v1/overview?range=24h', { token: 'token-a' });
      assert.equal(status, 200);
      const overview = schema.overview.parse(json);
      // Both zones are whole hours off UTC: the window starts 23 whole hours before this hour began.
      const from = Math.floor(now / HOUR) * HOUR - 23 * HOUR;
      const previousFrom = from - 24 * HOUR;
      assert.deepEqual(overview.window, {
        range: '24h',
        from: iso(from),
        to: iso(now),
        bucket: 'hour',
        previousFrom: iso(previousFrom),
        previousTo: iso(previousFrom + (now - from)),
      });
      const inWindow = between(from, now + 1);
      const inPrevious = between(previousFrom, previousFrom + (now + 1 - from));
      assert.ok(inWindow.length > 0 && inPrevious.length > 0, 'the known events fall on both sides');
      assert.deepEqual(overview.figures.requests, { value: inWindow.length, changePct: change(inWindow.length, inPrevious.length) });
      assert.equal(overview.figures.errorRate.valuePct, pct1(inWindow.filter((e) => e.status >= 500).length, inWindow.length));
      assert.equal(overview.figures.p95Latency.valueMs, nearestRankP95(inWindow.map((e) => e.durationMs)));
      assert.equal(overview.figures.activeKeys.value, new Set(inWindow.map((e) => e.keyId).filter(Boolean)).size);
      const series = overview.overTime!;
      assert.deepEqual(
        series.starts,
        Array.from({ length: 24 }, (_, i) => iso(from + i * HOUR)),
      );
      assert.deepEqual(
        series.requests,
        series.starts.map((_, i) => between(from + i * HOUR, Math.min(now + 1, from + (i + 1) * HOUR)).length),
      );
      assert.deepEqual(
        series.previousRequests,
        series.starts.map((_, i) => between(previousFrom + i * HOUR, previousFrom + (i + 1) * HOUR).length),
      );
      assert.equal(overview.requestsByEndpoint.length, new Set(inWindow.map((e) => e.route.split('/')[1])).size, 'the shares count the window’s routes only');
      // The figures of the calendar stay as they were, so a client that reads only them is not misled.
      const plain = schema.overview.parse((await call(server, '/console/v1/overview', { token: 'token-a' })).json);
      assert.deepEqual(overview.figures.requestsThisMonth, plain.figures.requestsThisMonth);
      assert.equal(plain.window, undefined);
      assert.equal(plain.figures.requests, undefined);
    });

    test('traffic over the last 7 days: seven calendar days of the zone, metrics and breakdown against the 7 days before', async () => {
      const json = schema.traffic.parse((await call(server, '/console/v1/traffic?range=7d', { token: 'token-a' })).json);
      const today = dayIn(now, timeZone);
      const days = Array.from({ length: 7 }, (_, i) => dayIn(now - (6 - i) * DAY, timeZone));
      assert.equal(days.at(-1), today);
      const series = json.overTime!;
      assert.equal(json.window!.bucket, 'day');
      assert.deepEqual(
        series.starts.map((s) => dayIn(Date.parse(s), timeZone)),
        days,
        'each bucket starts on its own calendar day',
      );
      const onDay = (day: string) => events.filter((e) => at(e) <= now && dayIn(at(e), timeZone) === day);
      assert.deepEqual(
        series.requests,
        days.map((d) => onDay(d).length),
      );
      assert.deepEqual(
        series.errors,
        days.map((d) => onDay(d).filter((e) => e.status >= 500).length),
      );
      assert.deepEqual(
        series.errorPct,
        days.map((d) => pct1(onDay(d).filter((e) => e.status >= 500).length, onDay(d).length)),
      );
      assert.deepEqual(
        series.p95Ms,
        days.map((d) => (onDay(d).length ? nearestRankP95(onDay(d).map((e) => e.durationMs)) : null)),
      );
      const earlierDays = Array.from({ length: 7 }, (_, i) => dayIn(now - (13 - i) * DAY, timeZone));
      assert.deepEqual(
        series.previousRequests,
        earlierDays.map((d) => onDay(d).length),
      );
      const total = days.reduce((sum, d) => sum + onDay(d).length, 0);
      assert.equal(json.metrics.requests.value, total);
      assert.equal(
        json.breakdown.reduce((sum, r) => sum + r.value, 0),
        total,
      );
      assert.equal(
        json.breakdown.reduce((sum, r) => sum + Math.round(r.sharePct * 10), 0),
        1000,
      );
      assert.equal(json.requestsOverTime.months.length, 12, 'the calendar months stay for clients that read only them');
    });

    test('one customer’s traffic: by month as before, and over a range, counting only its requests', async () => {
      const acme = events.filter((e) => e.customerId === 'cus_acme' && at(e) <= now);
      const monthly = schema.traffic.parse((await call(server, '/console/v1/traffic?customerId=cus_acme', { token: 'token-a' })).json);
      const monthOf = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(new Date(ms)).slice(0, 7);
      assert.deepEqual(
        monthly.requestsOverTime.thisYear,
        monthly.requestsOverTime.months.map((m) => acme.filter((e) => monthOf(at(e)) === m).length),
      );
      const week = schema.traffic.parse((await call(server, '/console/v1/traffic?customerId=cus_acme&range=7d', { token: 'token-a' })).json);
      const inWeek = acme.filter((e) => at(e) >= Date.parse(week.window!.from));
      assert.equal(week.metrics.requests.value, inWeek.length);
      assert.deepEqual(
        week.breakdown.map((r) => `${r.method} ${r.path} ${r.value}`).sort(),
        [...new Set(inWeek.map((e) => `${e.method} ${e.route}`))]
          .map((label) => `${label} ${inWeek.filter((e) => `${e.method} ${e.route}` === label).length}`)
          .sort(),
      );
      const nobody = schema.traffic.parse((await call(server, '/console/v1/traffic?customerId=cus_nobody&range=7d', { token: 'token-a' })).json);
      assert.equal(nobody.metrics.requests.value, 0);
      assert.deepEqual(nobody.breakdown, []);
    });

    test('a webhook’s deliveries and an error record’s occurrences over the last 7 days, day by day', async () => {
      const owner = { id: 'u_ana', name: 'Ana Silva' };
      await call(server, '/admin/v1/webhooks/wh_paid', {
        token: 'admin-a',
        method: 'PUT',
        body: { name: 'invoice.paid', customer: { id: 'cus_acme', name: 'Acme Ltd' }, owner, endpoints: ['POST /webhooks'] },
      });
      const sent = ['2026-09-10T10:00:00Z', '2026-09-12T23:30:00Z', '2026-09-13T10:00:00Z', '2026-08-01T10:00:00Z'];
      await call(server, '/ingest/v1/webhook-deliveries', {
        token: 'ingest-a',
        body: { deliveries: sent.map((ts) => ({ webhookId: 'wh_paid', ts, delivered: true })) },
      });
      const week = schema.webhook.parse((await call(server, '/console/v1/webhooks/wh_paid?range=7d', { token: 'token-a' })).json);
      const days = week.countsOverTime!.starts.map((s) => dayIn(Date.parse(s), timeZone));
      assert.equal(week.window!.bucket, 'day');
      assert.deepEqual(
        week.countsOverTime!.values,
        days.map((d) => sent.filter((ts) => dayIn(Date.parse(ts), timeZone) === d).length),
      );
      const created = await call(server, '/console/v1/errors', {
        token: 'token-a',
        body: { code: 500, endpoint: 'POST /messages', count: 1, firstSeen: '2026-09-01', status: 'Open', notes: '' },
      });
      assert.equal(created.status, 201, created.text);
      const record = schema.errorRecord.parse((await call(server, `/console/v1/errors/${created.json.id}?range=7d`, { token: 'token-a' })).json);
      const failures = events.filter((e) => e.route === '/messages' && e.method === 'POST' && e.status === 500);
      assert.deepEqual(
        record.countsOverTime!.values,
        days.map((d) => failures.filter((e) => dayIn(at(e), timeZone) === d).length),
      );
      assert.ok(
        record.countsOverTime!.values.some((n) => n > 0),
        'the failures fall in the week',
      );
    });

    test('a custom window: buckets that fit its length, and figures of exactly from–to', async () => {
      const from = Date.parse('2026-09-12T00:00:00Z');
      const to = Date.parse('2026-09-14T00:00:00Z');
      const json = schema.traffic.parse((await call(server, `/console/v1/traffic?from=${iso(from)}&to=${iso(to)}`, { token: 'token-a' })).json);
      assert.equal(json.window!.bucket, 'hour', 'two days are cut into hours');
      assert.equal(json.overTime!.starts.length, 48);
      assert.equal(json.metrics.requests.value, between(from, to).length);
      assert.equal(json.metrics.requests.changePct, change(between(from, to).length, between(from - 2 * DAY, from).length));
      const month = schema.traffic.parse(
        (await call(server, `/console/v1/traffic?from=2026-08-01T00:00:00Z&to=2026-09-01T00:00:00Z`, { token: 'token-a' })).json,
      );
      assert.equal(month.window!.bucket, 'day', 'a month is cut into days');
    });

    test('endpoints over the last hour list only what was called in it; an endpoint quiet in it still has its page, at zero', async () => {
      const from = Math.floor(now / MINUTE) * MINUTE - 59 * MINUTE;
      const inHour = between(from, now + 1);
      const rows = schema.endpointPage.parse((await call(server, '/console/v1/endpoints?range=1h', { token: 'token-a' })).json).items;
      assert.deepEqual(
        rows.map((r) => `${r.method} ${r.path} ${r.requests}`),
        [...new Set(inHour.map((e) => `${e.method} ${e.route}`))].map((label) => `${label} ${inHour.filter((e) => `${e.method} ${e.route}` === label).length}`),
      );
      const all = schema.endpointPage.parse((await call(server, '/console/v1/endpoints?limit=500', { token: 'token-a' })).json).items;
      const messages = all.find((r) => r.path === '/messages')!;
      const { status, json } = await call(server, `/console/v1/endpoints/${messages.id}?range=1h`, { token: 'token-a' });
      assert.equal(status, 200);
      const detail = schema.endpointDetail.parse(json);
      assert.equal(detail.requests, 0);
      assert.equal(detail.overTime!.starts.length, 60, 'an hour in minutes');
      assert.ok(
        detail.overTime!.p95Ms.every((p) => p === null),
        'no latency without requests',
      );
      assert.deepEqual(detail.statusCodes, []);
      const week = schema.endpointDetail.parse((await call(server, `/console/v1/endpoints/${messages.id}?range=7d`, { token: 'token-a' })).json);
      const sent = between(Date.parse(week.window!.from), now + 1).filter((e) => e.route === '/messages');
      assert.equal(week.requests, sent.length);
      assert.equal(
        week.overTime!.requests.reduce((a, b) => a + b, 0),
        sent.length,
      );
    });

    test('the request log between from and to, and from where a range starts', async () => {
      const from = Date.parse('2026-09-12T08:02:00Z');
      const to = Date.parse('2026-09-13T08:01:00Z');
      const page = schema.requestPage.parse((await call(server, `/console/v1/requests?limit=500&from=${iso(from)}&to=${iso(to)}`, { token: 'token-a' })).json);
      assert.deepEqual(
        page.items.map((r) => r.time),
        between(from, to)
          .map((e) => iso(at(e)))
          .sort()
          .reverse(),
      );
      const ranged = schema.requestPage.parse((await call(server, '/console/v1/requests?limit=500&range=1h', { token: 'token-a' })).json);
      assert.equal(ranged.items.length, between(Math.floor(now / MINUTE) * MINUTE - 59 * MINUTE, now + 1).length);
    });
  });
}

describe('a time range the server cannot read', () => {
  let server: ConsoleServer;
  before(async () => {
    server = await startServer({ clock: () => new Date(NOW) });
  });
  after(() => server.close());

  test('the request log of an endpoint quiet for months, between from and to, and from and to beside a range', async () => {
    await ingest(server, [{ ts: '2026-03-10T12:00:00Z', method: 'PUT', route: '/old', status: 200, durationMs: 5 }]);
    const march = 'from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z';
    const [row] = schema.endpointPage.parse((await call(server, `/console/v1/endpoints?${march}`, { token: 'token-a' })).json).items;
    assert.equal(row!.path, '/old');
    const page = schema.requestPage.parse((await call(server, `/console/v1/requests?endpointId=${row!.id}&${march}`, { token: 'token-a' })).json);
    assert.deepEqual(
      page.items.map((r) => r.time),
      ['2026-03-10T12:00:00Z'],
    );
    const { status } = await call(server, '/console/v1/requests?range=24h&from=2026-09-14T00:00:00Z', { token: 'token-a' });
    assert.equal(status, 200, 'from is a bound of its own beside a range');
  });

  test('the first days of 1970 read as any other window, on every store (the window before them is empty)', async () => {
    const first = 'from=1970-01-01T00:00:00Z&to=1970-01-03T00:00:00Z';
    for (const route of ['overview', 'endpoints', 'traffic', 'requests', 'requests/summary', 'customers', 'errors'])
      assert.equal((await call(server, `/console/v1/${route}?${first}`, { token: 'token-a' })).status, 200, route);
  });

  for (const [query, words] of [
    ['/console/v1/overview?range=2w', /range must be one of 1h, 24h, 7d, 30d, 12m/],
    ['/console/v1/overview?from=2026-09-01T00:00:00Z', /from and to go together/],
    ['/console/v1/endpoints?from=yesterday&to=today', /timestamps/],
    ['/console/v1/traffic?from=2026-09-02T00:00:00Z&to=2026-09-01T00:00:00Z', /from must be before to/],
    ['/console/v1/traffic?range=2w', /range must be one of 1m, 3m, 6m, 12m, 1h, 24h, 7d, 30d/],
    ['/console/v1/requests?from=soon', /from must be a timestamp/],
    ['/console/v1/requests?to=2026-09-14T09:41', /to must be a timestamp/],
    ['/console/v1/endpoints/ep_x?from=2016-01-01T00:00:00Z&to=2026-09-01T00:00:00Z', /at most 3660 days/],
    ['/console/v1/overview?from=1969-12-01T00:00:00Z&to=1970-01-02T00:00:00Z', /1970-01-01 or later/],
    ['/console/v1/traffic?from=0000-01-01T00:00:00Z&to=0000-02-01T00:00:00Z', /1970-01-01 or later/],
    ['/console/v1/endpoints?from=1900-01-01T00:00:00Z&to=1900-01-02T00:00:00Z', /1970-01-01 or later/],
    ['/console/v1/requests?from=1960-01-01T00:00:00Z', /1970-01-01 or later/],
    ['/console/v1/requests?to=1969-12-31T23:59:59Z', /1970-01-01 or later/],
  ] as const) {
    test(`${query} is a 400 that says what is wrong`, async () => {
      const { status, headers, json } = await call(server, query, { token: 'token-a' });
      assert.equal(status, 400);
      assert.match(headers.get('content-type') ?? '', /problem\+json/);
      assert.match(json.detail, words);
    });
  }
});
