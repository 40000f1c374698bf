// Figures from a known event set, checked against expectations computed here from the same
// events (counts, errors %, nearest-rank p95, monthly buckets across a month and a time-zone
// boundary, shares adding to exactly 100.0).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ConsoleServer } from '../src/index.ts';
import { knownEvents, NOW } from './events.ts';
import { call, figures, ingest, monthOf, nearestRank, nearestRankP95, pct1, startServer, type EventInput } from './harness.ts';

const DAY = 86_400_000;
const now = Date.parse(NOW);
const events = knownEvents();
const inWindow = (e: EventInput, from: number, to = now + 1) => Date.parse(e.ts) >= from && Date.parse(e.ts) < to;
const recent = events.filter((e) => inWindow(e, now - 30 * DAY));

function lastTwelveMonths(): string[] {
  const months: string[] = [];
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(2026, 8 - i, 1));
    months.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return months;
}

for (const timeZone of ['UTC', 'Pacific/Auckland']) {
  describe(`figures in ${timeZone}`, () => {
    let server: ConsoleServer;
    before(async () => {
      server = await startServer({ timeZone, clock: () => new Date(NOW) });
      await ingest(server, events);
    });
    after(() => server.close());

    test('overview: this month with its 12-month series, today, error rate, p95, active keys, shares to 100.0', async () => {
      const { status, json } = await call(server, '/console/v1/overview', { token: 'token-a' });
      assert.equal(status, 200);
      const months = lastTwelveMonths();
      const perMonth = months.map((m) => events.filter((e) => monthOf(e.ts, timeZone) === m && Date.parse(e.ts) <= now).length);
      assert.deepEqual(json.figures.requestsThisMonth.series, { months, values: perMonth });
      assert.equal(json.figures.requestsThisMonth.value, perMonth[11]);
      const thisMonth = events.filter((e) => monthOf(e.ts, timeZone) === '2026-09' && Date.parse(e.ts) <= now);
      const dayOf = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(new Date(iso));
      assert.equal(json.figures.requestsToday.value, events.filter((e) => dayOf(e.ts) === dayOf(NOW) && Date.parse(e.ts) <= now).length);
      assert.equal(json.figures.errorRate.valuePct, pct1(thisMonth.filter((e) => e.status >= 500).length, thisMonth.length));
      assert.equal(json.figures.p95Latency.valueMs, nearestRankP95(thisMonth.map((e) => e.durationMs)));
      assert.equal(json.figures.activeKeys.value, new Set(recent.map((e) => e.keyId).filter(Boolean)).size);
      const shares = json.requestsByEndpoint.map((g: { sharePct: number }) => Math.round(g.sharePct * 10));
      assert.equal(
        shares.reduce((a: number, b: number) => a + b, 0),
        1000,
        'shares add up to exactly 100.0',
      );
      const groups = new Map<string, number>();
      for (const e of recent) groups.set(`/${e.route.split('/')[1]}`, (groups.get(`/${e.route.split('/')[1]}`) ?? 0) + 1);
      const expected = [...groups].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const named = expected.slice(0, 4).map(([g]) => g);
      assert.deepEqual(
        json.requestsByEndpoint.map((g: { group: string }) => g.group),
        expected.length > 4 ? [...named, 'Other'] : named,
      );
    });

    test('endpoints: one row per API version, method and route, with requests, nearest-rank p50, p95 and p99 and errors %', async () => {
      const { json } = await call(server, '/console/v1/endpoints?limit=500', { token: 'token-a' });
      const groups = new Map<string, EventInput[]>();
      for (const e of recent) {
        const key = `${e.apiVersion ?? ''}|${e.method}|${e.route}`;
        groups.set(key, [...(groups.get(key) ?? []), e]);
      }
      const expected = [...groups.values()]
        .map((g) => ({
          method: g[0]!.method,
          path: g[0]!.route,
          requests: g.length,
          p50Ms: nearestRank(
            g.map((e) => e.durationMs),
            50,
          ),
          p95Ms: nearestRankP95(g.map((e) => e.durationMs)),
          p99Ms: nearestRank(
            g.map((e) => e.durationMs),
            99,
          ),
          errorPct: pct1(g.filter((e) => e.status >= 500).length, g.length),
        }))
        .sort((a, b) => b.requests - a.requests);
      type Row = { method: string; path: string; requests: number; p50Ms: number; p95Ms: number; p99Ms: number; errorPct: number };
      const rows: Row[] = json.items.map(({ method, path, requests, p50Ms, p95Ms, p99Ms, errorPct }: Row) => ({
        method,
        path,
        requests,
        p50Ms,
        p95Ms,
        p99Ms,
        errorPct,
      }));
      const order = (a: Row, b: Row) => b.requests - a.requests || `${a.method} ${a.path} ${a.p95Ms}`.localeCompare(`${b.method} ${b.path} ${b.p95Ms}`);
      assert.deepEqual(rows.sort(order), expected.sort(order));
      const contacts = json.items.filter((r: { path: string }) => r.path === '/contacts/{id}');
      assert.equal(contacts.length, 2, 'two API versions of GET /contacts/{id} are two rows');
      assert.notEqual(contacts[0].id, contacts[1].id);
      const versionsSent = [...new Set(events.filter((e) => e.route === '/contacts/{id}').map((e) => e.apiVersion))].sort();
      assert.deepEqual(contacts.map((r: { apiVersion?: string }) => r.apiVersion).sort(), versionsSent, 'each row names its API version');
      assert.deepEqual(
        contacts.map((r: { versions?: number }) => r.versions),
        [2, 2],
        'each row counts the versions of its route',
      );
      // Counted over all the account's rows, not the page: a page of one still says its route has two versions.
      const page = (await call(server, '/console/v1/endpoints?q=contacts&limit=1', { token: 'token-a' })).json;
      assert.deepEqual(
        page.items.map((r: { path: string; versions?: number }) => [r.path, r.versions]),
        [['/contacts/{id}', 2]],
      );
      const unversioned = json.items.find((r: { path: string }) => r.path === '/usage');
      assert.equal('apiVersion' in unversioned, false, 'a route reported without a version has no apiVersion');
      const usage = json.items.find((r: { path: string }) => r.path === '/usage');
      assert.equal(usage.status, 'Failing', '100 % server errors');
    });

    test('traffic: this month’s metrics, this year against last year by month, error rate by month, breakdown shares', async () => {
      const { json } = await call(server, '/console/v1/traffic', { token: 'token-a' });
      const months = lastTwelveMonths();
      const yearEarlier = months.map((m) => `${Number(m.slice(0, 4)) - 1}${m.slice(4)}`);
      const count = (m: string, pick: (e: EventInput) => boolean = () => true) =>
        events.filter((e) => monthOf(e.ts, timeZone) === m && Date.parse(e.ts) <= now && pick(e)).length;
      assert.deepEqual(json.requestsOverTime, { months, thisYear: months.map((m) => count(m)), lastYear: yearEarlier.map((m) => count(m)) });
      assert.deepEqual(
        json.errorRateByMonth.valuesPct,
        months.map((m) =>
          pct1(
            count(m, (e) => e.status >= 500),
            count(m),
          ),
        ),
      );
      const total = months.reduce((sum, m) => sum + count(m), 0);
      assert.equal(json.metrics.requests.value, count('2026-09'), 'the metrics are this month so far (they read "vs last month")');
      assert.equal(
        json.metrics.errorRate.value,
        pct1(
          count('2026-09', (e) => e.status >= 500),
          count('2026-09'),
        ),
      );
      assert.equal(
        json.breakdown.reduce((sum: number, r: { value: number }) => sum + r.value, 0),
        total,
      );
      assert.equal(
        json.breakdown.reduce((sum: number, r: { sharePct: number }) => sum + Math.round(r.sharePct * 10), 0),
        1000,
      );
    });

    test('versions: each API version’s requests per day over the last 30 days, busiest first, shares to 100.0', async () => {
      const { status, json } = await call(server, '/console/v1/versions', { token: 'token-a' });
      assert.equal(status, 200);
      const dayOf = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(new Date(iso));
      const days: string[] = json.starts.map(dayOf);
      assert.equal(days.length, 30);
      assert.equal(days.at(-1), dayOf(NOW));
      assert.equal(new Set(days).size, 30, 'one bucket per local day');
      const counted = events.filter((e) => days.includes(dayOf(e.ts)) && Date.parse(e.ts) <= now);
      const byVersion = new Map<string | null, number[]>();
      for (const e of counted) {
        const perDay = byVersion.get(e.apiVersion ?? null) ?? days.map(() => 0);
        perDay[days.indexOf(dayOf(e.ts))]!++;
        byVersion.set(e.apiVersion ?? null, perDay);
      }
      const expected = [...byVersion]
        .map(([version, perBucket]) => ({ version, requests: perBucket.reduce((a, b) => a + b, 0), perBucket }))
        .sort((a, b) => b.requests - a.requests || String(a.version).localeCompare(String(b.version)));
      assert.ok(expected.length >= 2, 'the known events use more than one version');
      assert.deepEqual(
        json.versions.map(({ version, requests, perBucket }: { version: string | null; requests: number; perBucket: number[] }) => ({
          version,
          requests,
          perBucket,
        })),
        expected,
      );
      const total = counted.length;
      for (const row of json.versions as { requests: number; sharePct: number }[]) assert.ok(Math.abs(row.sharePct - (row.requests / total) * 100) < 0.1);
      assert.equal(
        json.versions.reduce((sum: number, r: { sharePct: number }) => sum + Math.round(r.sharePct * 10), 0),
        1000,
      );
    });
  });
}

describe('pre-counted quarter hours and the ragged edges', () => {
  test('requests in the unfinished quarter hour and in a time zone half an hour off count exactly once', async () => {
    const clock = '2026-09-14T09:47:30Z';
    const server = await startServer({ clock: () => new Date(clock), timeZone: 'Asia/Kolkata' });
    try {
      const at = ['2026-08-31T18:29:59Z', '2026-08-31T18:30:00Z', '2026-09-14T09:40:00Z', '2026-09-14T09:46:00Z', '2026-09-14T09:47:29Z'];
      await ingest(
        server,
        at.map((ts) => ({ ts, method: 'GET', route: '/usage', status: 200, durationMs: 5 })),
      );
      const { json } = await call(server, '/console/v1/overview', { token: 'token-a' });
      // 2026-09-01 00:00 in Kolkata is 2026-08-31T18:30Z: the first request is August's, the rest September's.
      assert.equal(json.figures.requestsThisMonth.value, 4);
      assert.equal(json.figures.requestsThisMonth.series.values.at(-2), 1);
      const traffic = (await call(server, '/console/v1/traffic', { token: 'token-a' })).json;
      assert.equal(traffic.breakdown[0].value, 5, 'the 12 months hold all five');
    } finally {
      await server.close();
    }
  });

  test('a request stamped later in the quarter hour than now is not counted yet', async () => {
    const server = await startServer({ clock: () => new Date('2026-09-14T09:41:00Z') });
    try {
      await ingest(server, [
        { ts: '2026-09-14T08:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
        { ts: '2026-09-14T09:30:30Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
        { ts: '2026-09-14T09:40:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
        // An API server whose clock runs three minutes ahead.
        { ts: '2026-09-14T09:44:00Z', method: 'GET', route: '/usage', status: 500, durationMs: 900 },
      ]);
      const { json } = await call(server, '/console/v1/overview', { token: 'token-a' });
      // Today so far, and each range up to now, leave it out (the calendar month holds it).
      assert.equal(json.figures.requestsToday.value, 3);
      const day = (await call(server, '/console/v1/overview?range=24h', { token: 'token-a' })).json;
      assert.equal(day.figures.requests.value, 3);
      assert.equal(day.figures.errorRate.valuePct, 0);
      assert.equal(day.figures.p95Latency.valueMs, 5);
      const year = (await call(server, '/console/v1/overview?range=12m', { token: 'token-a' })).json;
      assert.equal(year.figures.requests.value, 3);
      assert.equal(year.figures.p95Latency.valueMs, 5);
    } finally {
      await server.close();
    }
  });
});

describe('requests today against last month', () => {
  test('compares today so far with the same part of each day last month', async () => {
    const server = await startServer({ clock: () => new Date(NOW) });
    try {
      const august = Array.from({ length: 31 }, (_, i) => `2026-08-${String(i + 1).padStart(2, '0')}`);
      await ingest(server, [
        ...august.map((day) => ({ ts: `${day}T08:00:00Z`, method: 'GET', route: '/usage', status: 200, durationMs: 5 })),
        // Later in the day than now (09:45): not part of the comparison.
        ...august.map((day) => ({ ts: `${day}T12:00:00Z`, method: 'GET', route: '/usage', status: 200, durationMs: 5 })),
        { ts: '2026-09-14T08:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
        { ts: '2026-09-14T09:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
      ]);
      const { json } = await call(server, '/console/v1/overview', { token: 'token-a' });
      assert.deepEqual(json.figures.requestsToday, { value: 2, changePct: 100 }, 'two today against one by this time on an average August day');
      // Traffic: this month so far (2) against August until the same moment (1–13 Aug twice a day, 14 Aug once: 27).
      const traffic = (await call(server, '/console/v1/traffic', { token: 'token-a' })).json;
      assert.deepEqual(traffic.metrics.requests, { value: 2, unit: 'count', changePct: Math.round(((2 - 27) / 27) * 1000) / 10 });
    } finally {
      await server.close();
    }
  });
});

describe('the first quarter hour of a day', () => {
  test('today has nothing to compare with yet, and every overview still answers', async () => {
    const server = await startServer({ clock: () => new Date('2026-09-14T00:05:00Z') });
    try {
      await ingest(server, [
        { ts: '2026-08-20T00:01:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
        { ts: '2026-09-01T10:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 7 },
        { ts: '2026-09-14T00:02:00Z', method: 'GET', route: '/usage', status: 500, durationMs: 9 },
      ]);
      const { status, json } = await call(server, '/console/v1/overview', { token: 'token-a' });
      assert.equal(status, 200, JSON.stringify(json));
      // No whole quarter hour of today has passed: the same part of August's days is empty.
      assert.deepEqual(json.figures.requestsToday, { value: 1, changePct: null });
      assert.equal(json.figures.requestsThisMonth.value, 2);
      const year = await call(server, '/console/v1/overview?range=12m', { token: 'token-a' });
      assert.equal(year.status, 200, JSON.stringify(year.json));
      assert.deepEqual(year.json.figures.requests, { value: 3, changePct: null });
      assert.equal(year.json.figures.p95Latency.valueMs, 9);
      const day = await call(server, '/console/v1/overview?range=24h', { token: 'token-a' });
      assert.equal(day.status, 200, JSON.stringify(day.json));
      assert.equal(day.json.figures.requests.value, 1);
      // Asked on their own (as a read may be, in a batch of its own), periods of no length count nothing.
      const midnight = Date.parse('2026-09-14T00:00:00Z');
      const empty = [
        { from: midnight, to: midnight },
        { from: midnight - DAY, to: midnight - DAY },
      ];
      assert.deepEqual(await figures(server.stores.telemetry).perPeriod('acct_a', empty), [
        { requests: 0, errors: 0, bytes: 0 },
        { requests: 0, errors: 0, bytes: 0 },
      ]);
      assert.deepEqual(await figures(server.stores.telemetry).latencyPerPeriod('acct_a', empty), [
        { requests: 0, errors: 0, p95Ms: 0 },
        { requests: 0, errors: 0, p95Ms: 0 },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('the first month of an account', () => {
  test('a change with nothing to compare with is null, never 0', async () => {
    const server = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(server, [
        { ts: '2026-09-14T08:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5, keyId: 'key_1' },
        { ts: '2026-09-14T09:00:00Z', method: 'GET', route: '/usage', status: 500, durationMs: 9, keyId: 'key_1' },
      ]);
      const { figures } = (await call(server, '/console/v1/overview', { token: 'token-a' })).json;
      assert.deepEqual(
        [figures.requestsToday, figures.errorRate, figures.p95Latency, figures.activeKeys].map((f: { changePct: unknown }) => f.changePct),
        [null, null, null, null],
      );
      const traffic = (await call(server, '/console/v1/traffic', { token: 'token-a' })).json;
      assert.deepEqual(
        Object.values(traffic.metrics).map((m) => (m as { changePct: unknown }).changePct),
        [null, null, null, null],
      );
      assert.deepEqual(
        traffic.breakdown.map((r: { changePct: unknown }) => r.changePct),
        [null],
        'a route new this year',
      );
      const week = (await call(server, '/console/v1/overview?range=7d', { token: 'token-a' })).json;
      assert.deepEqual(week.figures.requests, { value: 2, changePct: null });
    } finally {
      await server.close();
    }
  });
});

describe('periods read as a whole less the rest of it', () => {
  test('a month whose only request is stamped later today than now has no p95 yet', async () => {
    const server = await startServer({ clock: () => new Date('2026-09-14T13:41:00Z') });
    try {
      await ingest(server, [
        { ts: '2026-08-20T10:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 },
        { ts: '2026-09-14T13:44:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 900 },
      ]);
      const { status, json } = await call(server, '/console/v1/overview', { token: 'token-a' });
      assert.equal(status, 200, JSON.stringify(json));
      assert.equal(json.figures.p95Latency.valueMs, 0);
      assert.equal(json.figures.requestsToday.value, 0);
    } finally {
      await server.close();
    }
  });

  test('a window before whose end the only request falls later that day is empty', async () => {
    const server = await startServer({ clock: () => new Date('2026-09-14T15:00:00Z') });
    try {
      // After the end of the 7 days before the last 7 (15:00 on 7 Sep), and before the last 7 begin.
      await ingest(server, [{ ts: '2026-09-07T18:00:00Z', method: 'GET', route: '/usage', status: 200, durationMs: 5 }]);
      const { status, json } = await call(server, '/console/v1/overview?range=7d', { token: 'token-a' });
      assert.equal(status, 200, JSON.stringify(json));
      assert.deepEqual(json.figures.requests, { value: 0, changePct: null });
      assert.deepEqual(json.figures.p95Latency, { valueMs: 0, changePct: null });
    } finally {
      await server.close();
    }
  });
});

describe('one precision for every latency', () => {
  test('every latency a route sends is in milliseconds to the microsecond, the same figure on every route', async () => {
    const server = await startServer({ clock: () => new Date(NOW) });
    try {
      const durations = [12.3456, 7.0004, 250.12345, 99.9999];
      await ingest(
        server,
        durations.map((durationMs, i) => ({ ts: new Date(now - (i + 1) * 60_000).toISOString(), method: 'GET', route: '/usage', status: 200, durationMs })),
      );
      const get = async (path: string) => (await call(server, `/console/v1/${path}`, { token: 'token-a' })).json;
      // Nearest rank of the four: p50 is the 2nd smallest, p95 and p99 the largest.
      const [p50, p95] = [12.346, 250.123];
      assert.equal((await get('overview')).figures.p95Latency.valueMs, p95);
      assert.equal((await get('overview?range=24h')).figures.p95Latency.valueMs, p95);
      assert.equal((await get('traffic')).metrics.latency.value, p95);
      const day = await get('traffic?range=24h');
      assert.equal(day.metrics.latency.value, p95);
      assert.deepEqual(
        day.overTime.p95Ms.filter((v: number | null) => v !== null),
        [p95],
        'the one hour with requests',
      );
      const [row] = (await get('endpoints')).items;
      assert.deepEqual([row.p50Ms, row.p95Ms, row.p99Ms], [p50, p95, p95]);
      const detail = await get(`endpoints/${row.id}`);
      assert.deepEqual([detail.p50Ms, detail.p95Ms, detail.p99Ms, detail.daily.p95Ms.at(-1)], [p50, p95, p95, p95]);
      assert.deepEqual(
        (await get('requests/summary')).groups.map((g: { durationMs: number }) => g.durationMs),
        [p50],
      );
      assert.deepEqual(
        (await get('requests')).items.map((r: { durationMs: number }) => r.durationMs),
        [12.346, 7, 250.123, 100],
      );
    } finally {
      await server.close();
    }
  });
});

describe('figures change exactly as a new batch says', () => {
  test('a batch of 10 requests with 2 server errors on a new route adds exactly that', async () => {
    const server = await startServer({ clock: () => new Date(NOW) });
    try {
      await ingest(server, knownEvents());
      const before = (await call(server, '/console/v1/overview', { token: 'token-a' })).json;
      const batch = Array.from({ length: 10 }, (_, i) => ({
        ts: new Date(now - (i + 1) * 60_000).toISOString(),
        method: 'PUT',
        route: '/contacts/{id}/labels',
        status: i < 2 ? 502 : 200,
        durationMs: 100 + i,
        keyId: 'key_new',
      }));
      await ingest(server, batch);
      const afterIngest = (await call(server, '/console/v1/overview', { token: 'token-a' })).json;
      assert.equal(afterIngest.figures.requestsThisMonth.value, Number(before.figures.requestsThisMonth.value) + 10);
      assert.equal(afterIngest.figures.requestsToday.value, Number(before.figures.requestsToday.value) + 10);
      assert.equal(afterIngest.figures.activeKeys.value, Number(before.figures.activeKeys.value) + 1);
      const endpoints = (await call(server, '/console/v1/endpoints?q=labels', { token: 'token-a' })).json.items;
      assert.deepEqual(
        endpoints.map(({ method, path, requests, errorPct, p95Ms }: Record<string, unknown>) => ({ method, path, requests, errorPct, p95Ms })),
        [{ method: 'PUT', path: '/contacts/{id}/labels', requests: 10, errorPct: 20, p95Ms: 109 }],
      );
    } finally {
      await server.close();
    }
  });
});
