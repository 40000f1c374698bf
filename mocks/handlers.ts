/**
 * MSW handlers for every route of the console API contract, each mounted at its method and path
 * in the contract's route table. The same handlers back the tests, Storybook and the dev server
 * (in the browser and over real HTTP).
 */
import { http, HttpResponse, type HttpResponseResolver, type PathParams, type RequestHandler } from 'msw';
import { isMonthlyRange } from '@ops-console/contract/enums';
import { ROUTES, type ConsoleRouteName } from '@ops-console/contract/routes';
import * as schema from '../src/api/schemas.ts';
import type { Customer, Endpoint, ErrorRecord, HistoryItem, Note } from '../src/api/schemas.ts';
import * as fixtures from './fixtures.ts';
import { endpointDetailOf, generateActivity, generateEndpoints, requestDetailAt, requestPage, SECONDS_BETWEEN_REQUESTS } from './generate.ts';
import { keyDetail, keyRows, sharesOf } from './keys.ts';
import { alertHandlers } from './alerts.ts';
import { problem } from './problem.ts';
import { askedWindow, countsInWindow, perBucket, scaledToWindow, windowedMock } from './windows.ts';
import { isoSeconds, resolveWindow, windowOf, type ResolvedWindow } from '@ops-console/contract/time-window';

/** The fixtures' requests in a month, the rate ranged figures are made at. */
const MONTHLY_REQUESTS = fixtures.overview.figures.requestsThisMonth.value;
/** As the console server: `null` when there is nothing to compare with. */
const changeOf = (now: number, before: number) => (before ? Math.round(((now - before) / before) * 1000) / 10 : null);

/**
 * One customer's traffic: the fixtures' at the fixed fraction of the customer's share (as its
 * request summary), every count scaled alike; an unknown customer has none.
 */
function customerTraffic(url: URL, customerId: string, now: Date): Response {
  const position = fixtures.customers.findIndex((c) => c.id === customerId);
  const share = position < 0 ? 0 : 1 / (3 + position);
  const scale = (n: number) => Math.round(n * share);
  const window = url.searchParams.has('from') || !isMonthlyRange(url.searchParams.get('range')) ? askedWindow(url, now) : undefined;
  if (window instanceof Response) return window;
  const { requests, errorRate, latency } = fixtures.traffic.metrics;
  const ranged = window && windowedMock(window, { perMonth: scale(MONTHLY_REQUESTS), errorPct: errorRate.value, p95Ms: latency.value });
  const base = fixtures.traffic;
  return HttpResponse.json({
    ...base,
    metrics: {
      ...base.metrics,
      requests: {
        ...requests,
        value: ranged ? ranged.total : scale(requests.value),
        changePct: ranged ? changeOf(ranged.total, ranged.previousTotal) : requests.changePct,
      },
    },
    requestsOverTime: { ...base.requestsOverTime, thisYear: base.requestsOverTime.thisYear.map(scale), lastYear: base.requestsOverTime.lastYear.map(scale) },
    breakdown: base.breakdown.map((row) => ({ ...row, value: scale(window ? scaledToWindow(row.value, window) : row.value) })).filter((row) => row.value > 0),
    ...(ranged ? { window: ranged.window, overTime: ranged.overTime } : {}),
  });
}

/** `from`/`to` of the request log as instants (a `range` starts it where the range starts). */
function timeBounds(url: URL, now: Date): { from?: number; to?: number } {
  const instant = (name: string) => {
    const text = url.searchParams.get(name);
    return text ? Date.parse(text) : undefined;
  };
  const range = url.searchParams.get('range');
  const window = range ? askedWindow(url, now) : undefined;
  const from = instant('from') ?? (window && !(window instanceof Response) ? window.from : undefined);
  return { ...(from !== undefined ? { from } : {}), ...(instant('to') !== undefined ? { to: instant('to') } : {}) };
}
import { sortKeys, sortRows } from '@ops-console/contract/sort-rows';

/** Matches the default API base on any origin: `/api/v1`, `http://localhost:8000/api/v1`, … */
export const DEFAULT_BASE = '*/api/v1';

export interface MockApiOptions {
  /** URL pattern prefix of the routes. */
  base?: string;
  /** The mock's clock; fixed by default so ages and times are deterministic. */
  now?: () => Date;
  /** Number of entries in the request log (the large scenario uses 1,000,000). */
  requestCount?: number;
  /** Number of rows in the endpoint list (the large scenario uses 10,000). */
  endpointCount?: number;
}

export interface RecordedWrite {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: unknown;
}

/** The mutable state of one mock API: what was written, so tests can assert "no duplicate". */
export interface MockDb {
  customers: Customer[];
  errors: ErrorRecord[];
  writes: RecordedWrite[];
}

const clone = <T>(value: T): T => structuredClone(value);

function pageParams(url: URL): { start: number; limit: number } | Response {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const start = Number(url.searchParams.get('cursor') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) return problem(400, 'Bad request', 'limit must be an integer from 1 to 500.');
  if (!Number.isInteger(start) || start < 0) return problem(400, 'Bad request', 'cursor is not valid.');
  return { start, limit };
}

function slice<T>(items: T[], url: URL) {
  const params = pageParams(url);
  if (params instanceof Response) return params;
  const end = params.start + params.limit;
  return HttpResponse.json({ items: items.slice(params.start, end), nextCursor: end < items.length ? String(end) : null });
}

const SORTS: Record<string, (a: Endpoint, b: Endpoint) => number> = {
  requests: (a, b) => a.requests - b.requests,
  p50Ms: (a, b) => (a.p50Ms ?? -1) - (b.p50Ms ?? -1),
  p95Ms: (a, b) => a.p95Ms - b.p95Ms,
  p99Ms: (a, b) => (a.p99Ms ?? -1) - (b.p99Ms ?? -1),
  errorPct: (a, b) => a.errorPct - b.errorPct,
};

/** Each row with `versions`: how many rows of the whole list share its method and path, as the console server counts them (before any filter or page). */
function withVersions(rows: readonly Endpoint[]): Endpoint[] {
  const count = new Map<string, number>();
  for (const e of rows) count.set(`${e.method} ${e.path}`, (count.get(`${e.method} ${e.path}`) ?? 0) + 1);
  return rows.map((e) => ({ ...e, versions: count.get(`${e.method} ${e.path}`)! }));
}

function sortEndpoints(items: Endpoint[], sort: string | null): Endpoint[] {
  if (!sort) return items;
  if (sort === 'recent') {
    const rank = (e: Endpoint) => {
      const i = fixtures.recentEndpointIds.indexOf(e.id);
      return i === -1 ? Number.MAX_SAFE_INTEGER : i;
    };
    return [...items].sort((a, b) => rank(a) - rank(b));
  }
  const compare = SORTS[sort.replace(/^-/, '')];
  if (!compare) return items;
  const sign = sort.startsWith('-') ? -1 : 1;
  // Ties keep their server order so rows sharing figures never swap between renders.
  return items
    .map((e, i) => [e, i] as const)
    .sort(([a, ai], [b, bi]) => sign * compare(a, b) || ai - bi)
    .map(([e]) => e);
}

function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  return issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'body', message: issue.message }));
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}

/** The versions the mock API's requests name, and the part of them each gets. */
const MOCK_VERSIONS = [
  { version: 'v3', part: 0.64 },
  { version: 'v2', part: 0.29 },
  { version: null, part: 0.07 },
];

const DAY_MS = 86_400_000;

/** What an endpoint row says of the deprecation covering it, as the console server's `deprecation`. */
function noticeOf(d: (typeof fixtures.deprecations)[number], now: Date) {
  return { id: d.id, sunsetAt: d.sunsetAt, turnedOff: Date.parse(d.sunsetAt) <= now.getTime(), replacement: d.replacement, docsUrl: d.docsUrl };
}

/** The row with its deprecation notice, when one covers it. */
function withDeprecation<T extends { id: string }>(row: T, now: Date): T {
  const d = fixtures.deprecations.find((dep) => (dep.endpointIds as readonly string[]).includes(row.id));
  return d ? { ...row, deprecation: noticeOf(d, now) } : row;
}

/**
 * Each deprecation with the callers whose last call falls in the window: a caller makes its part
 * of the endpoint's requests there, and the deprecation's requests are its customers' sum.
 */
function deprecationsIn(window: ResolvedWindow, now: Date, endpoints: readonly Endpoint[]) {
  return fixtures.deprecations.map((d) => {
    const perMonth = endpoints.filter((e) => (d.endpointIds as readonly string[]).includes(e.id)).reduce((sum, e) => sum + e.requests, 0);
    const inWindow = scaledToWindow(perMonth, window);
    const callers = (list: readonly { id: string; name?: string; part: number; minutesAgo: number }[]) =>
      list
        .map(({ part, minutesAgo, ...caller }) => ({
          ...caller,
          requests: Math.round(part * inWindow),
          lastCallAt: isoSeconds(now.getTime() - minutesAgo * 60_000),
        }))
        .filter((c) => c.requests > 0 && Date.parse(c.lastCallAt) >= window.from);
    const customers = callers(d.customers);
    return {
      ...noticeOf(d, now),
      endpoint: d.endpoint,
      apiVersion: d.apiVersion,
      daysToSunset: Math.max(0, Math.ceil((Date.parse(d.sunsetAt) - now.getTime()) / DAY_MS)),
      requests: customers.reduce((sum, c) => sum + c.requests, 0),
      customers,
      keys: callers(d.keys),
    };
  });
}

/** Builds a fresh mock API: its handlers and the state they share. */
export function createMockApi(options: MockApiOptions = {}): { handlers: RequestHandler[]; db: MockDb } {
  const { base = DEFAULT_BASE, now = () => fixtures.FIXTURE_NOW, requestCount = 2_000, endpointCount } = options;
  const db: MockDb = { customers: clone(fixtures.customers), errors: clone(fixtures.errorRecords), writes: [] };
  const createdByKey = new Map<string, unknown>();
  let endpointList: Endpoint[] | undefined;
  const allEndpoints = () => (endpointList ??= endpointCount ? generateEndpoints(endpointCount) : fixtures.endpoints);
  const today = () => now().toISOString().slice(0, 10);
  /** Newest request on a whole minute, so the seed's "09:41" line is the first one at the fixed clock. */
  const anchor = () => {
    const t = now().getTime() - 4 * 60_000;
    return new Date(t - (t % 60_000));
  };
  const sinceFilter = (items: { time: string }[], since: string | null) => (since ? items.filter((item) => Date.parse(item.time) > Date.parse(since)) : items);

  const record = (request: Request, body: unknown) => {
    const url = new URL(request.url);
    const key = request.headers.get('Idempotency-Key');
    db.writes.push({ method: request.method, path: url.pathname, idempotencyKey: key, body });
    return key;
  };

  /** The mock of one console route: its method and path are the contract's table's. */
  const route = (name: ConsoleRouteName, resolver: HttpResponseResolver<PathParams<'id'>>): RequestHandler => {
    const { method, path } = ROUTES[name];
    return http[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](`${base}${path.replace(/\{(\w+)\}/g, ':$1')}`, resolver);
  };

  const handlers: RequestHandler[] = [
    route('overview', ({ request }) => {
      const window = askedWindow(new URL(request.url), now());
      if (!window) return HttpResponse.json(fixtures.overview);
      if (window instanceof Response) return window;
      const { errorRate, p95Latency } = fixtures.overview.figures;
      const { total, previousTotal, ...ranged } = windowedMock(window, { perMonth: MONTHLY_REQUESTS, errorPct: errorRate.valuePct, p95Ms: p95Latency.valueMs });
      const figures = { ...fixtures.overview.figures, requests: { value: total, changePct: changeOf(total, previousTotal) } };
      return HttpResponse.json({ ...fixtures.overview, figures, ...ranged });
    }),

    route('endpoints', ({ request }) => {
      const url = new URL(request.url);
      const status = url.searchParams.get('status');
      const q = url.searchParams.get('q')?.toLowerCase();
      const window = askedWindow(url, now());
      if (window instanceof Response) return window;
      // Over a range, each row counts its requests at the same rate; a row without any in it is left out.
      const rows = withVersions(
        window
          ? allEndpoints()
              .map((e) => ({ ...e, requests: scaledToWindow(e.requests, window) }))
              .filter((e) => e.requests > 0)
          : allEndpoints(),
      );
      const items = rows
        .filter((e) => (!status || e.status === status) && (!q || `${e.method} ${e.path}`.toLowerCase().includes(q)))
        .map((e) => withDeprecation(e, now()));
      return slice(sortEndpoints(items, url.searchParams.get('sort')), url);
    }),

    route('endpoint', ({ params, request }) => {
      const row = allEndpoints().find((e) => e.id === params['id']);
      if (!row) return problem(404, 'Not found', `No endpoint ${String(params['id'])}.`);
      const found = withDeprecation({ ...row, versions: allEndpoints().filter((e) => e.method === row.method && e.path === row.path).length }, now());
      const window = askedWindow(new URL(request.url), now());
      if (!window) return HttpResponse.json(endpointDetailOf(found, anchor()));
      if (window instanceof Response) return window;
      const {
        total,
        previousTotal: _,
        ...ranged
      } = windowedMock(window, { perMonth: found.requests, errorPct: found.errorPct, p95Ms: found.p95Ms }, found.requests);
      return HttpResponse.json({ ...endpointDetailOf(found, anchor()), requests: total, ...ranged });
    }),

    route('requestSummary', ({ request }) => {
      const url = new URL(request.url);
      const endpointId = url.searchParams.get('endpointId');
      const customerId = url.searchParams.get('customerId');
      const endpoint = endpointId ? allEndpoints().find((e) => e.id === endpointId) : undefined;
      if (endpointId && !endpoint) return HttpResponse.json({ groups: [] });
      // One customer's share of each group: a fixed fraction per customer, so the figures stay put; an unknown customer has none.
      const position = fixtures.customers.findIndex((c) => c.id === customerId);
      if (customerId && position < 0) return HttpResponse.json({ groups: [] });
      const share = customerId ? 1 / (3 + position) : 1;
      const groups = fixtures.requestSummary.groups
        .filter((g) => !endpoint || (g.method === endpoint.method && g.path === endpoint.path))
        .map((g) => ({ ...g, thisWeek: Math.round(g.thisWeek * share) }))
        .filter((g) => g.thisWeek > 0);
      return HttpResponse.json({ groups });
    }),

    route('requests', ({ request }) => {
      const url = new URL(request.url);
      const params = pageParams(url);
      if (params instanceof Response) return params;
      const filter = {
        method: url.searchParams.get('method'),
        status: url.searchParams.get('status'),
        path: url.searchParams.get('path'),
        q: url.searchParams.get('q'),
        endpointId: url.searchParams.get('endpointId'),
        customerId: url.searchParams.get('customerId'),
        keyId: url.searchParams.get('keyId'),
        ...timeBounds(url, now()),
      };
      if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) return problem(400, 'Bad request', 'from must be before to.');
      const page = requestPage(requestCount, anchor(), params.start, params.limit, filter);
      const since = url.searchParams.get('since');
      if (!since) return HttpResponse.json(page);
      // Newer than `since`, newest first; the cursor continues while the page is all newer.
      const newer = sinceFilter(page.items, since);
      return HttpResponse.json({ items: newer, nextCursor: newer.length === page.items.length ? page.nextCursor : null });
    }),

    route('request', ({ params }) => {
      // An id is `rq_<slot>`, the entry's time in 30 s steps: its index counts back from the newest.
      const id = String(params['id']);
      const slot = /^rq_(\d+)$/.exec(id)?.[1];
      const index = slot === undefined ? -1 : Math.round(anchor().getTime() / (SECONDS_BETWEEN_REQUESTS * 1000)) - Number(slot);
      if (!(index >= 0 && index < requestCount)) return problem(404, 'Not found', `No request ${id}.`);
      return HttpResponse.json(requestDetailAt(index, anchor()));
    }),

    route('traffic', ({ request }) => {
      const url = new URL(request.url);
      const customerId = url.searchParams.get('customerId');
      if (customerId) return customerTraffic(url, customerId, now());
      // The calendar-month ranges answer as before; the others are windows.
      if (!url.searchParams.has('from') && isMonthlyRange(url.searchParams.get('range'))) return HttpResponse.json(fixtures.traffic);
      const window = askedWindow(url, now());
      if (window instanceof Response || !window) return window ?? problem(400, 'Bad request', 'range is not valid.');
      const { requests, errorRate, latency } = fixtures.traffic.metrics;
      const { total, previousTotal, ...ranged } = windowedMock(window, { perMonth: MONTHLY_REQUESTS, errorPct: errorRate.value, p95Ms: latency.value });
      const metrics = { ...fixtures.traffic.metrics, requests: { ...requests, value: total, changePct: changeOf(total, previousTotal) } };
      const breakdown = fixtures.traffic.breakdown.map((row) => ({ ...row, value: scaledToWindow(row.value, window) }));
      return HttpResponse.json({ ...fixtures.traffic, metrics, breakdown, ...ranged });
    }),

    route('customers', ({ request }) => {
      const url = new URL(request.url);
      const sort = url.searchParams.get('sort') || 'name';
      if (!(schema.CUSTOMER_SORTS as readonly string[]).includes(sort))
        return problem(400, 'Bad request', `sort must be one of ${schema.CUSTOMER_SORTS.join(', ')}.`);
      const q = url.searchParams.get('q')?.trim().toLowerCase();
      const items = db.customers
        .filter((c) => !q || c.name.toLowerCase().includes(q) || c.id.toLowerCase().includes(q))
        .map(({ id, name, createdAt, plan, requests, errorPct, status, owner, throttled }) => ({
          id,
          name,
          createdAt,
          plan,
          requests,
          errorPct,
          status,
          owner,
          throttled,
        }));
      return slice(sortRows(items, sort), url);
    }),

    route('customer', ({ params }) => {
      const found = db.customers.find((c) => c.id === params['id']);
      return found ? HttpResponse.json(found) : problem(404, 'Not found', `No customer ${String(params['id'])}.`);
    }),

    route('addNote', async ({ request, params }) => {
      const body = await readJson(request);
      const key = record(request, body);
      const customer = db.customers.find((c) => c.id === params['id']);
      if (!customer) return problem(404, 'Not found', `No customer ${String(params['id'])}.`);
      const previous = key ? createdByKey.get(key) : undefined;
      if (previous) return HttpResponse.json(previous, { status: 201 });
      const parsed = schema.newNote.safeParse(body);
      if (!parsed.success) return problem(422, 'Invalid note', 'The note was not accepted.', fieldErrors(parsed.error.issues));
      const author = fixtures.people.ana;
      const note: Note = { id: `n_${db.writes.length}_${customer.notes.length + 1}`, text: parsed.data.text, author, createdAt: today() };
      const history: HistoryItem = { kind: 'Note added', actor: author, at: today() };
      customer.notes.unshift(note);
      customer.history.unshift(history);
      if (key) createdByKey.set(key, note);
      return HttpResponse.json(note, { status: 201 });
    }),

    route('webhooks', ({ request }) => {
      const url = new URL(request.url);
      const sort = url.searchParams.get('sort') || 'name';
      if (!(schema.WEBHOOK_SORTS as readonly string[]).includes(sort))
        return problem(400, 'Bad request', `sort must be one of ${schema.WEBHOOK_SORTS.join(', ')}.`);
      const q = url.searchParams.get('q')?.trim().toLowerCase();
      const items = fixtures.webhooks
        .filter((w) => !q || [w.name, w.id, w.customer.name].some((text) => text.toLowerCase().includes(q)))
        .map(({ id, name, customer, deliveredPct, lastSentAt, status, owner }) => ({ id, name, customer, deliveredPct, lastSentAt, status, owner }));
      return slice(sortRows(items, sort), url);
    }),

    route('webhook', ({ params, request }) => {
      const found = fixtures.webhooks.find((w) => w.id === params['id']);
      if (!found) return problem(404, 'Not found', `No webhook ${String(params['id'])}.`);
      // Over a range, its deliveries at the rate of its busiest month.
      const counted = countsInWindow(request, now(), Math.max(...found.activity.values));
      return counted instanceof Response ? counted : HttpResponse.json({ ...found, ...counted });
    }),

    route('errorOptions', () => HttpResponse.json(fixtures.errorOptions)),

    route('errors', ({ request }) => {
      const url = new URL(request.url);
      const status = url.searchParams.get('status');
      const sort = url.searchParams.get('sort');
      if (sort && !(schema.ERROR_SORTS as readonly string[]).includes(sort))
        return problem(400, 'Bad request', `sort must be one of ${schema.ERROR_SORTS.join(', ')}.`);
      const endpoint = url.searchParams.get('endpoint');
      const matching = db.errors.filter((e) => (!status || e.status === status) && (!endpoint || e.endpoint === endpoint));
      const sign = sort?.startsWith('-') ? -1 : 1;
      const byCount = sort?.endsWith('count');
      // Stable: ties keep the default order.
      const sorted = sort ? [...matching].sort((a, b) => sign * (byCount ? a.count - b.count : a.firstSeen.localeCompare(b.firstSeen))) : matching;
      return slice(sorted, url);
    }),

    route('error', ({ params, request }) => {
      const found = db.errors.find((e) => e.id === params['id']);
      if (!found) return problem(404, 'Not found', `No error record ${String(params['id'])}.`);
      const counted = countsInWindow(request, now(), Math.max(...found.monthly.values));
      return counted instanceof Response ? counted : HttpResponse.json({ ...found, ...counted });
    }),

    route('createError', async ({ request }) => {
      const body = await readJson(request);
      const key = record(request, body);
      const previous = key ? createdByKey.get(key) : undefined;
      if (previous) return HttpResponse.json(previous, { status: 201 });
      const parsed = schema.newErrorRecord.safeParse(body);
      if (!parsed.success) return problem(422, 'Invalid error record', 'Some fields were not accepted.', fieldErrors(parsed.error.issues));
      if (!fixtures.errorOptions.endpoints.includes(parsed.data.endpoint)) {
        return problem(422, 'Invalid error record', 'Some fields were not accepted.', [{ field: 'endpoint', message: 'Choose one of the offered endpoints.' }]);
      }
      const { code, endpoint, count, firstSeen, status, notes } = parsed.data;
      const title = schema.ERROR_CATEGORIES.find((c) => c.code === code)?.title ?? 'Error';
      const created: ErrorRecord = {
        id: `err_new_${db.errors.length + 1}`,
        code,
        title,
        endpoint,
        count,
        firstSeen,
        status,
        notes: notes?.trim() ? notes : null,
        owner: fixtures.people.ana,
        relatedEndpoints: [{ id: allEndpoints().find((e) => `${e.method} ${e.path}` === endpoint)?.id, label: endpoint, requests: 0 }],
        version: 1,
        monthly: { months: fixtures.MONTHS, values: fixtures.MONTHS.map((_, i) => (i === fixtures.MONTHS.length - 1 ? count : 0)) },
      };
      db.errors.unshift(created);
      if (key) createdByKey.set(key, created);
      return HttpResponse.json(created, { status: 201 });
    }),

    route('updateError', async ({ request, params }) => {
      const body = await readJson(request);
      record(request, body);
      const found = db.errors.find((e) => e.id === params['id']);
      if (!found) return problem(404, 'Not found', `No error record ${String(params['id'])}.`);
      const parsed = schema.errorPatch.safeParse(body);
      if (!parsed.success) return problem(422, 'Invalid change', 'The change was not accepted.', fieldErrors(parsed.error.issues));
      const { status, notes } = parsed.data;
      if (status !== undefined && !(schema.ERROR_STATUSES as readonly string[]).includes(status)) {
        return problem(422, 'Invalid change', 'The change was not accepted.', [{ field: 'status', message: 'Choose Open, Fixed or Ignored.' }]);
      }
      // Optimistic concurrency: a change based on an older version is refused, never merged.
      const ifMatch = request.headers.get('If-Match');
      if (ifMatch && ifMatch !== '*' && ifMatch.replace(/^W\//, '') !== `"${found.version ?? 1}"`) {
        return problem(412, 'Precondition failed', 'This record changed elsewhere.');
      }
      if (status !== undefined) found.status = status;
      if (notes !== undefined) found.notes = notes;
      found.version = (found.version ?? 1) + 1;
      return HttpResponse.json(found);
    }),

    route('versions', ({ request }) => {
      const window = askedWindow(new URL(request.url), now()) ?? resolveWindow({ range: '30d' }, now().getTime(), 'UTC');
      if (window instanceof Response) return window;
      // Most requests name the current version, some the one before, a few none.
      const published = (version: string | null) => {
        const found = fixtures.publishedVersions.find((p) => p.version === version);
        return found ? { publishedAt: found.publishedAt, docsUrl: found.docsUrl } : {};
      };
      const counted = MOCK_VERSIONS.map(({ version, part }, i) => {
        const counts = perBucket(MONTHLY_REQUESTS * part, window.buckets, 20 + i);
        return { version, requests: counts.reduce((a, b) => a + b, 0), perBucket: counts };
      }).filter((r) => r.requests);
      // A published version nobody calls yet is a row of zeros, last.
      const rows = [
        ...counted,
        ...fixtures.publishedVersions
          .filter((p) => !counted.some((r) => r.version === p.version))
          .map((p) => ({ version: p.version, requests: 0, perBucket: window.buckets.map(() => 0) })),
      ];
      const shares = sharesOf(rows.map((r) => r.requests));
      return HttpResponse.json({
        window: windowOf(window),
        starts: window.buckets.map((b) => isoSeconds(b.from)),
        versions: rows.map((r, i) => ({ ...r, sharePct: shares[i]!, ...published(r.version) })),
        deprecations: deprecationsIn(window, now(), allEndpoints()),
      });
    }),

    route('keys', ({ request }) => {
      const url = new URL(request.url);
      const sort = url.searchParams.get('sort') || '-requests';
      if (!(schema.KEY_SORTS as readonly string[]).includes(sort)) return problem(400, 'Bad request', `sort must be one of ${schema.KEY_SORTS.join(', ')}.`);
      const status = url.searchParams.get('status');
      if (status && !(schema.KEY_STATUSES as readonly string[]).includes(status))
        return problem(400, 'Bad request', `status must be one of ${schema.KEY_STATUSES.join(', ')}.`);
      const window = askedWindow(url, now()) ?? resolveWindow({ range: '30d' }, now().getTime(), 'UTC');
      if (window instanceof Response) return window;
      const q = url.searchParams.get('q')?.trim().toLowerCase();
      const customerId = url.searchParams.get('customerId');
      const rows = keyRows(window, now(), anchor()).filter(
        (k) =>
          (!status || k.status === status) &&
          (!customerId || k.customer?.id === customerId) &&
          (!q || [k.id, k.name ?? '', k.customer?.name ?? ''].some((text) => text.toLowerCase().includes(q))),
      );
      const page = slice(sortKeys(rows, sort), url);
      if (page.status !== 200) return page;
      return page.json().then((body: object) => HttpResponse.json({ ...body, window: windowOf(window) }));
    }),

    route('key', ({ params, request }) => {
      const window = askedWindow(new URL(request.url), now()) ?? resolveWindow({ range: '30d' }, now().getTime(), 'UTC');
      if (window instanceof Response) return window;
      const found = keyDetail(String(params['id']), window, now(), anchor(), allEndpoints(), requestCount);
      return found ? HttpResponse.json(found) : problem(404, 'Not found', `No API key ${String(params['id'])}.`);
    }),

    route('activity', ({ request }) => {
      const url = new URL(request.url);
      const kind = url.searchParams.get('kind');
      return slice(
        generateActivity(now()).filter((a) => !kind || a.kind === kind),
        url,
      );
    }),
    ...alertHandlers(route, now),
  ];

  return { handlers, db };
}

/** The default handlers on the default base with the fixed clock. */
export const handlers: RequestHandler[] = createMockApi().handlers;
