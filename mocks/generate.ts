/**
 * Deterministic generated data: the same index always yields the same entry, so a
 * 1,000,000-entry request log can be served by cursor without building it in memory.
 */
import type { ActivityItem, Endpoint, EndpointDetail, RequestDetail, RequestEntry } from '../src/api/schemas.ts';
import { activitySeed, customers, endpoints, loggedRoutes, people } from './fixtures.ts';
import { ACTIVITY_KINDS, type ActivityKind } from '@ops-console/contract/enums';

/** A 32-bit integer hash (a mulberry32 step) of an index and a seed. */
export function hash(index: number, seed = 0x9e3779b9): number {
  let t = (index + seed) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

const actors = [people.lee, people.ana, people.mia, people.omar];
const CUSTOMER_NAMES = ['Acme Ltd', 'Globex Corp', 'Initech', 'Umbrella Health', 'Hooli', 'Stark Logistics', 'Wayne Retail'];
/** One request every 30 s: a divisor of a minute, so entries keep their identity as the clock moves on. */
export const SECONDS_BETWEEN_REQUESTS = 30;
const SEED_LINE_TIME = Date.parse('2026-09-14T09:41:00Z');

/**
 * The request at `index` (0 is the newest) of a log whose newest entry is at `anchor`. An
 * entry is a pure function of its time, so its id and figures stay the same while a live
 * clock moves the anchor. The seed's own line is POST /webhooks answering 500 at 09:41.
 */
export function requestAt(index: number, anchor: Date): RequestEntry {
  const timeMs = anchor.getTime() - index * SECONDS_BETWEEN_REQUESTS * 1000;
  const slot = Math.floor(timeMs / (SECONDS_BETWEEN_REQUESTS * 1000));
  const seedLine = timeMs === SEED_LINE_TIME;
  const h = hash(slot);
  const route = seedLine ? loggedRoutes[2] : loggedRoutes[h % loggedRoutes.length]!;
  const jitter = seedLine ? 0 : ((h >>> 8) % 61) - 30; // ±30 % around the route's typical duration
  return {
    id: `rq_${slot}`,
    method: route.method,
    path: route.path,
    status: route.status,
    durationMs: Math.max(1, Math.round(route.typicalMs * (1 + jitter / 100))),
    actor: seedLine ? people.lee : actors[(h >>> 16) % actors.length]!,
    time: new Date(timeMs).toISOString().replace('.000Z', 'Z'),
  };
}

const USER_AGENTS = ['acme-billing/2.4 (node 20)', 'globex-sync/1.9 (python 3.12)', 'curl/8.5.0', 'okhttp/4.12.0'];

/**
 * GET /requests/{id} for the entry at `index`: what a collector keeps besides the log's line (the
 * route, version, key, customer, response size, and the headers and bodies it was told to keep,
 * secrets masked as the server masks them). A path without an id is its own route here.
 */
export function requestDetailAt(index: number, anchor: Date): RequestDetail {
  const entry = requestAt(index, anchor);
  const h = detailHash(entry);
  const customer = customerOf(entry);
  const endpoint = endpointOf(entry);
  return {
    ...entry,
    route: entry.path,
    endpointId: endpoint?.id ?? null,
    apiVersion: 'v3',
    keyId: keyOf(entry),
    customer: { id: customer.id, name: customer.name },
    bytes: entry.status >= 500 ? 214 : 512 + ((h >>> 8) % 4096),
    headers: [
      { name: 'user-agent', value: USER_AGENTS[(h >>> 12) % USER_AGENTS.length]! },
      { name: 'content-type', value: 'application/json' },
      { name: 'x-request-id', value: `req_${(h >>> 2).toString(36)}` },
      { name: 'authorization', value: '[masked]' },
    ],
    responseHeaders: [
      { name: 'content-type', value: 'application/json' },
      { name: 'x-request-id', value: `req_${(h >>> 2).toString(36)}` },
    ],
    requestBody: ['POST', 'PUT', 'PATCH'].includes(entry.method)
      ? jsonBody({ url: `https://hooks.example.com/${customer.id}`, secret: '[masked]', events: ['invoice.paid'] })
      : null,
    responseBody:
      entry.status >= 500
        ? jsonBody({ error: { code: 'upstream_timeout', message: 'The upstream service did not answer in time.' } })
        : jsonBody({ id: `obj_${(h >>> 6).toString(36)}`, status: 'ok' }),
    payload: 'kept',
  };
}

/** A JSON body as the server keeps it: its type, size and text. */
const jsonBody = (value: unknown) => {
  const text = JSON.stringify(value);
  return { contentType: 'application/json', size: new TextEncoder().encode(text).length, truncated: false, text };
};

const detailHash = (entry: RequestEntry) => hash(Number(entry.id.slice(3)), 0x85ebca6b);
/** The customer a generated request came from. */
const customerOf = (entry: RequestEntry) => customers[detailHash(entry) % customers.length]!;
/** The API key a generated request was made with: one of its customer's three. */
export const keyOf = (entry: RequestEntry) => `key_live_${customerOf(entry).id.slice(4)}_${(detailHash(entry) >>> 4) % 3}`;
/** The endpoint row that counts a generated request (the log's requests are all version v3). */
const endpointOf = (entry: RequestEntry) => endpoints.find((e) => e.method === entry.method && e.path === entry.path && e.apiVersion === 'v3');

export interface RequestFilter {
  method?: string | null;
  status?: string | null;
  path?: string | null;
  /** Words the path holds, each, any case. */
  q?: string | null;
  endpointId?: string | null;
  customerId?: string | null;
  keyId?: string | null;
  /** Only entries at or after this instant (epoch ms). */
  from?: number;
  /** Only entries before this instant (epoch ms). */
  to?: number;
}

export function matchesRequest(entry: RequestEntry, { method, status, path, q, endpointId, customerId, keyId }: RequestFilter): boolean {
  if (endpointId && endpointOf(entry)?.id !== endpointId) return false;
  if (customerId && customerOf(entry).id !== customerId) return false;
  if (keyId && keyOf(entry) !== keyId) return false;
  if (method && entry.method !== method.toUpperCase()) return false;
  if (status) {
    const classMatch = /^([1-5])xx$/i.exec(status);
    if (classMatch ? Math.floor(entry.status / 100) !== Number(classMatch[1]) : String(entry.status) !== status) return false;
  }
  if (path && !entry.path.toLowerCase().includes(path.toLowerCase())) return false;
  if (q && !q.split(/\s+/).every((word) => entry.path.toLowerCase().includes(word.toLowerCase()))) return false;
  return true;
}

/**
 * One cursor page of a generated log: scans forward from `start` until `limit` entries match
 * or `scanBudget` entries have been looked at (so an impossible filter still answers quickly).
 */
export function requestPage(total: number, anchor: Date, start: number, limit: number, filter: RequestFilter, scanBudget = 200_000) {
  const items: RequestEntry[] = [];
  // Entries are SECONDS_BETWEEN_REQUESTS apart, newest first: a time window is a range of indexes.
  const step = SECONDS_BETWEEN_REQUESTS * 1000;
  const first = filter.to === undefined ? 0 : Math.max(0, Math.floor((anchor.getTime() - filter.to) / step) + 1);
  const end = filter.from === undefined ? total : Math.min(total, Math.floor((anchor.getTime() - filter.from) / step) + 1);
  let index = Math.max(start, first);
  const stop = Math.min(end, index + scanBudget);
  for (; index < stop && items.length < limit; index++) {
    const entry = requestAt(index, anchor);
    if (matchesRequest(entry, filter)) items.push(entry);
  }
  return { items, nextCursor: index < end ? String(index) : null };
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const resources = [
  'messages',
  'contacts',
  'webhooks',
  'customers',
  'invoices',
  'subscriptions',
  'payments',
  'refunds',
  'events',
  'files',
  'teams',
  'users',
  'keys',
  'reports',
  'exports',
  'templates',
  'domains',
  'orders',
  'products',
  'prices',
  'coupons',
  'notifications',
  'audit-logs',
  'sessions',
  'usage',
];
const shapes = [
  '',
  '/:id',
  '/:id/history',
  '/:id/notes',
  '/search',
  '/bulk',
  '/:id/attachments',
  '/:id/status',
  '/export',
  '/:id/retry',
  '/:id/members',
  '/:id/events',
  '/:id/archive',
  '/count',
  '/:id/restore',
  '/:id/links',
  '/:id/settings',
  '/batch',
  '/:id/preview',
  '/summary',
];

/** The status the figures earn: failing from 5 % errors, slow from 700 ms at P95 (as the fixtures' slow routes are). */
const statusOf = (errorPct: number, p95Ms: number) => (errorPct >= 5 ? 'Failing' : p95Ms >= 700 ? 'Slow' : 'Healthy');

/**
 * A long endpoint list for the large scenario: up to 10,000 distinct routes an API could have
 * (`GET /v3/invoices/:id/history`), each method, version, resource and shape once.
 */
export function generateEndpoints(count: number): Endpoint[] {
  return Array.from({ length: count }, (_, i) => {
    const h = hash(i, 7);
    const p95Ms = 40 + (h % 1400);
    const errorPct = Math.round(((h >>> 11) % 900) / 10) / 10;
    const version = Math.floor(i / methods.length) % 4;
    const shape = Math.floor(i / (methods.length * 4)) % shapes.length;
    const resource = Math.floor(i / (methods.length * 4 * shapes.length)) % resources.length;
    return {
      id: `ep_gen_${i}`,
      method: methods[i % methods.length]!,
      path: `/v${1 + version}/${resources[resource]}${shapes[shape]}`,
      requests: (h >>> 3) % 500_000,
      p50Ms: Math.round(p95Ms * 0.45),
      p95Ms,
      p99Ms: Math.round(p95Ms * 1.7),
      errorPct,
      status: statusOf(errorPct, p95Ms),
    };
  });
}

/** The seed's five activity items, then older ones, newest first, relative to `now`. */
export function generateActivity(now: Date, count = 45): ActivityItem[] {
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const seeded = activitySeed.map(({ minutesAgo: m, ...item }) => ({ ...item, at: minutesAgo(m) }));
  // Older items vary who did what to which customer or route, as a real account's history does
  // (a feed filtered by one kind then shows different events, not one event many times).
  const older = Array.from({ length: Math.max(0, count - seeded.length) }, (_, i) => {
    const kind = ACTIVITY_KINDS[i % ACTIVITY_KINDS.length]!;
    const round = Math.floor(i / ACTIVITY_KINDS.length);
    const customer = CUSTOMER_NAMES[(round + i) % CUSTOMER_NAMES.length]!;
    const route = loggedRoutes[(round * 2 + i) % loggedRoutes.length]!;
    const texts: Record<ActivityKind, string> = {
      'rate-limit-raised': `raised the rate limit for ${customer} to ${(round % 4) + 2},000 requests a minute`,
      'key-created': `created an API key for ${customer}`,
      'error-spike': `flagged an error spike on ${route.method} ${route.path}`,
      'docs-published': `published the docs for ${route.method} ${route.path}`,
      'endpoint-deprecated': `deprecated ${route.method} /v1${route.path} in favour of /v3${route.path}`,
    };
    return { id: `act_old_${i}`, actor: actors[(i + round) % actors.length]!, kind, text: texts[kind], at: minutesAgo(120 + i * 97) };
  });
  return [...seeded, ...older];
}

const DAYS_SHOWN = 30;
const SUCCESS_CODE: Record<string, number> = { POST: 201, DELETE: 204 };

/**
 * GET /endpoints/{id} for a row: 30 days that add up to about the row's requests, its errors %
 * as 5xx answers, a few 4xx, and its busiest customers, each a pure function of the row.
 */
export function endpointDetailOf(endpoint: Endpoint, anchor: Date): EndpointDetail {
  const seed = hash(endpoint.requests, endpoint.p95Ms);
  const weights = Array.from({ length: DAYS_SHOWN }, (_, i) => 0.8 + (hash(i, seed) % 41) / 100);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const requests = weights.map((w) => Math.round((endpoint.requests * w) / total));
  const errors = requests.map((n) => Math.round((n * endpoint.errorPct) / 100));
  const p95Ms = weights.map((w) => Math.round(endpoint.p95Ms * (0.85 + (w - 0.8) * 0.7)));
  const days = Array.from({ length: DAYS_SHOWN }, (_, i) => new Date(anchor.getTime() - (DAYS_SHOWN - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const serverErrors = Math.round((endpoint.requests * endpoint.errorPct) / 100);
  const clientErrors = Math.round(endpoint.requests * 0.012);
  const statusCodes = [
    { status: SUCCESS_CODE[endpoint.method] ?? 200, requests: endpoint.requests - serverErrors - clientErrors },
    { status: 422, requests: clientErrors },
    { status: 500, requests: serverErrors },
  ]
    .filter((s) => s.requests > 0)
    .sort((a, b) => b.requests - a.requests);
  const shares = [0.31, 0.22, 0.14, 0.09, 0.05];
  const topCustomers = shares.map((share, i) => {
    const customer = customers[(seed + i) % customers.length]!;
    return { id: customer.id, name: customer.name, requests: Math.round(endpoint.requests * share) };
  });
  return { ...endpoint, daily: { days, requests, errors, p95Ms }, statusCodes, topCustomers: dedupeById(topCustomers) };
}

const dedupeById = <T extends { id: string }>(rows: T[]) => rows.filter((row, i) => rows.findIndex((r) => r.id === row.id) === i);
