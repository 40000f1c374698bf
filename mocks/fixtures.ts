/**
 * Seed-faithful fixture data. Dates are fixed; timestamps are relative to the mock clock
 * so that ages ("3m") stay meaningful both in tests (fixed clock) and on the dev server.
 */
import type { Customer, Endpoint, ErrorRecord, Overview, Person, RequestSummary, Traffic, Webhook } from '../src/api/schemas.ts';

/** The fixed "now" of tests and stories: the seed's latest request is at 09:41 on this day. */
export const FIXTURE_NOW = new Date('2026-09-14T09:45:00Z');

export const MONTHS = ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09'];

export const people = {
  ana: { id: 'u_ana', name: 'Ana Silva' },
  lee: { id: 'u_lee', name: 'Lee Park' },
  mia: { id: 'u_mia', name: 'Mia Chen' },
  omar: { id: 'u_omar', name: 'Omar Haddad' },
  globex: { id: 'cus_globex', name: 'Globex Corp' },
} satisfies Record<string, Person>;

export const overview: Overview = {
  owner: people.ana,
  figures: {
    requestsThisMonth: {
      value: 1284301,
      series: { months: MONTHS, values: [98000, 102400, 99800, 104900, 108250, 112030, 109870, 115400, 118920, 121300, 119840, 124210] },
    },
    requestsToday: { value: 48211, changePct: 12.5 },
    errorRate: { valuePct: 1.2, changePct: -0.4 },
    p95Latency: { valueMs: 182, changePct: 3.1 },
    activeKeys: { value: 342, changePct: 8.0 },
  },
  requestsByEndpoint: [
    { group: '/messages', sharePct: 41.2 },
    { group: '/contacts', sharePct: 22.3 },
    { group: '/webhooks', sharePct: 15.0 },
    { group: '/auth', sharePct: 12.5 },
    { group: 'Other', sharePct: 9.0 },
  ],
};

/** Every route of the reported API; GET /usage and POST /messages appear twice, under API versions v3 and v2, with their own figures. */
export const endpoints: Endpoint[] = [
  { id: 'ep_1', method: 'POST', path: '/messages', requests: 482113, p50Ms: 96, p95Ms: 212, p99Ms: 388, errorPct: 0.4, status: 'Healthy', apiVersion: 'v3' },
  { id: 'ep_2', method: 'GET', path: '/contacts', requests: 198420, p50Ms: 41, p95Ms: 88, p99Ms: 152, errorPct: 0.1, status: 'Healthy', apiVersion: 'v3' },
  { id: 'ep_3', method: 'DELETE', path: '/contacts', requests: 1204, p50Ms: 62, p95Ms: 140, p99Ms: 233, errorPct: 0.0, status: 'Healthy', apiVersion: 'v3' },
  { id: 'ep_4', method: 'POST', path: '/webhooks', requests: 84110, p50Ms: 610, p95Ms: 1240, p99Ms: 2480, errorPct: 6.8, status: 'Failing', apiVersion: 'v3' },
  { id: 'ep_5', method: 'POST', path: '/auth/token', requests: 64233, p50Ms: 150, p95Ms: 310, p99Ms: 520, errorPct: 0.2, status: 'Healthy', apiVersion: 'v3' },
  { id: 'ep_6', method: 'GET', path: '/usage', requests: 30112, p50Ms: 44, p95Ms: 95, p99Ms: 171, errorPct: 0.3, status: 'Healthy', apiVersion: 'v3' },
  { id: 'ep_7', method: 'GET', path: '/usage', requests: 18220, p50Ms: 300, p95Ms: 720, p99Ms: 1310, errorPct: 1.9, status: 'Slow', apiVersion: 'v2' },
  { id: 'ep_8', method: 'POST', path: '/messages', requests: 7400, p50Ms: 430, p95Ms: 980, p99Ms: 1750, errorPct: 3.2, status: 'Slow', apiVersion: 'v2' },
];

/** The order of `sort=recent`: most recently called first. */
export const recentEndpointIds = ['ep_4', 'ep_1', 'ep_2', 'ep_5', 'ep_6', 'ep_8', 'ep_7', 'ep_3'];

/** Routes that appear in the request log with the codes the seed lists (DELETE /contacts never logged). */
export const loggedRoutes = [
  { method: 'POST', path: '/messages', status: 201, typicalMs: 180 },
  { method: 'GET', path: '/contacts', status: 200, typicalMs: 64 },
  { method: 'POST', path: '/webhooks', status: 500, typicalMs: 1240 },
  { method: 'POST', path: '/auth/token', status: 200, typicalMs: 210 },
  { method: 'GET', path: '/usage', status: 200, typicalMs: 72 },
] as const;

export const requestSummary: RequestSummary = {
  groups: [
    { method: 'POST', path: '/messages', status: 201, durationMs: 180, thisWeek: 1204 },
    { method: 'GET', path: '/contacts', status: 200, durationMs: 64, thisWeek: 860 },
    { method: 'POST', path: '/webhooks', status: 500, durationMs: 1240, thisWeek: 37 },
    { method: 'POST', path: '/auth/token', status: 200, durationMs: 210, thisWeek: 412 },
    { method: 'GET', path: '/usage', status: 200, durationMs: 72, thisWeek: 298 },
  ],
};

export const traffic: Traffic = {
  metrics: {
    requests: { value: 1284301, unit: 'count', changePct: 12.5 },
    errorRate: { value: 1.2, unit: 'percent', changePct: -0.4 },
    latency: { value: 182, unit: 'ms', changePct: 3.1 },
    bandwidth: { value: 64.0, unit: 'percent', changePct: 2.2 },
  },
  requestsOverTime: {
    months: MONTHS,
    thisYear: [98000, 102400, 99800, 104900, 108250, 112030, 109870, 115400, 118920, 121300, 119840, 124210],
    lastYear: [71000, 73400, 72100, 76800, 79900, 83300, 82100, 86400, 88700, 90200, 91800, 95100],
  },
  errorRateByMonth: { months: MONTHS, valuesPct: [1.4, 1.3, 1.6, 1.2, 1.1, 1.5, 1.3, 1.0, 1.2, 1.4, 1.6, 1.2] },
  breakdown: [
    { method: 'POST', path: '/messages', value: 482113, unit: 'USD', changePct: 4.1, sharePct: 37.5 },
    { method: 'GET', path: '/contacts', value: 198420, unit: 'USD', changePct: -2.3, sharePct: 15.4 },
    { method: 'POST', path: '/webhooks', value: 84110, unit: 'USD', changePct: 9.8, sharePct: 6.5 },
    { method: 'POST', path: '/auth/token', value: 64233, unit: 'USD', changePct: 1.2, sharePct: 5.0 },
    { method: 'GET', path: '/usage', value: 48332, unit: 'USD', changePct: -0.6, sharePct: 3.8 },
  ],
};

export const customers: Customer[] = [
  {
    id: 'cus_acme',
    name: 'Acme Ltd',
    createdAt: '2025-03-02',
    plan: 'Free',
    requests: 120344,
    errorPct: 2.1,
    status: 'Expired',
    owner: people.ana,
    throttled: 42,
    rateLimit: { requestsPerMinute: 600, peakPerMinute: 588, peakAt: '2026-09-14T09:12:00Z' },
    relatedEndpoints: [
      { id: 'ep_2', label: 'GET /contacts', requests: 5120 },
      { id: 'ep_1', label: 'POST /messages', requests: 3310 },
    ],
    notes: [{ id: 'n_1', text: 'Asked for a higher limit.', author: people.ana, createdAt: '2026-08-30' }],
    history: [
      { kind: 'Status changed', actor: people.ana, at: '2026-09-01' },
      { kind: 'Note added', actor: people.ana, at: '2026-08-30' },
      { kind: 'Assigned owner', actor: people.lee, at: '2025-06-11' },
      { kind: 'Updated details', actor: people.lee, at: '2025-04-20' },
      { kind: 'Created', actor: people.lee, at: '2025-03-02' },
    ],
  },
  {
    id: 'cus_globex',
    name: 'Globex Corp',
    createdAt: '2026-09-14',
    plan: 'Pro',
    requests: 88012,
    errorPct: 0.6,
    status: 'Active',
    owner: people.mia,
    throttled: 0,
    rateLimit: { requestsPerMinute: 1200, peakPerMinute: 310, peakAt: '2026-09-14T08:03:00Z' },
    relatedEndpoints: [{ id: 'ep_5', label: 'POST /auth/token', requests: 2208 }],
    notes: [],
    history: [{ kind: 'Created', actor: people.mia, at: '2026-09-14' }],
  },
  {
    id: 'cus_initech',
    name: 'Initech',
    createdAt: '2025-11-20',
    plan: 'Business',
    requests: 40210,
    errorPct: 0.3,
    status: 'Active',
    owner: people.lee,
    throttled: 3,
    rateLimit: { requestsPerMinute: null, peakPerMinute: 95, peakAt: '2026-09-11T15:40:00Z' },
    relatedEndpoints: [{ id: 'ep_2', label: 'GET /contacts', requests: 21004 }],
    notes: [],
    history: [{ kind: 'Created', actor: people.lee, at: '2025-11-20' }],
  },
  {
    id: 'cus_umbrella',
    name: 'Umbrella Health',
    createdAt: '2026-04-07',
    plan: 'Pro',
    requests: 9120,
    errorPct: 7.4,
    status: 'Active',
    owner: people.omar,
    throttled: 0,
    rateLimit: { requestsPerMinute: null, peakPerMinute: 40, peakAt: '2026-09-02T10:21:00Z' },
    relatedEndpoints: [{ id: 'ep_4', label: 'POST /webhooks', requests: 6010 }],
    notes: [],
    history: [{ kind: 'Created', actor: people.omar, at: '2026-04-07' }],
  },
  {
    id: 'cus_hooli',
    name: 'Hooli',
    createdAt: '2024-12-01',
    plan: 'Free',
    requests: 0,
    errorPct: 0,
    status: 'Expired',
    owner: people.ana,
    throttled: 0,
    rateLimit: { requestsPerMinute: null, peakPerMinute: 0, peakAt: null },
    relatedEndpoints: [],
    notes: [],
    history: [{ kind: 'Created', actor: people.ana, at: '2024-12-01' }],
  },
];

export const webhooks: Webhook[] = [
  {
    id: 'wh_invoice_paid',
    name: 'invoice.paid',
    customer: { id: 'cus_acme', name: 'Acme Ltd' },
    deliveredPct: 99.2,
    lastSentAt: '2026-09-13',
    status: 'Healthy',
    activity: { months: MONTHS, values: [640, 702, 688, 731, 760, 812, 798, 845, 870, 902, 889, 915] },
    owner: people.ana,
    relatedEndpoints: [{ id: 'ep_4', label: 'POST /webhooks', requests: 84110 }],
  },
  {
    id: 'wh_message_failed',
    name: 'message.failed',
    customer: { id: 'cus_globex', name: 'Globex Corp' },
    deliveredPct: 87.4,
    lastSentAt: '2026-09-14',
    status: 'Failing',
    activity: { months: MONTHS, values: [120, 131, 118, 140, 152, 149, 160, 171, 166, 180, 214, 236] },
    owner: people.lee,
    relatedEndpoints: [{ id: 'ep_4', label: 'POST /webhooks', requests: 84110 }],
  },
  {
    id: 'wh_contact_created',
    name: 'contact.created',
    customer: { id: 'cus_initech', name: 'Initech' },
    deliveredPct: 100,
    lastSentAt: '2026-09-02',
    status: 'Healthy',
    activity: { months: MONTHS, values: [12, 9, 14, 11, 10, 13, 15, 12, 16, 14, 11, 3] },
    owner: people.mia,
    relatedEndpoints: [{ id: 'ep_2', label: 'GET /contacts', requests: 198420 }],
  },
  {
    id: 'wh_usage_threshold',
    name: 'usage.threshold',
    customer: { id: 'cus_umbrella', name: 'Umbrella Health' },
    deliveredPct: 96.1,
    lastSentAt: '2026-08-28',
    status: 'Healthy',
    activity: { months: MONTHS, values: [2, 3, 2, 4, 3, 5, 4, 6, 5, 7, 6, 0] },
    owner: people.omar,
    relatedEndpoints: [{ id: 'ep_6', label: 'GET /usage', requests: 30112 }],
  },
];

const monthly = (values: number[]) => ({ months: MONTHS, values });

export const errorRecords: ErrorRecord[] = [
  {
    id: 'err_500_webhooks',
    code: 500,
    title: 'Server error',
    endpoint: 'POST /webhooks',
    count: 212,
    firstSeen: '2026-08-02',
    status: 'Open',
    notes: null,
    owner: people.ana,
    relatedEndpoints: [{ id: 'ep_4', label: 'POST /webhooks', requests: 84110 }],
    version: 1,
    monthly: monthly([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 96, 116]),
  },
  {
    id: 'err_429_messages',
    code: 429,
    title: 'Too many requests',
    endpoint: 'POST /messages',
    count: 1290,
    firstSeen: '2026-01-18',
    status: 'Open',
    notes: 'Acme hits the limit at month end.',
    owner: people.lee,
    relatedEndpoints: [{ id: 'ep_1', label: 'POST /messages', requests: 482113 }],
    version: 1,
    monthly: monthly([0, 0, 0, 40, 52, 61, 80, 95, 130, 210, 301, 321]),
  },
  {
    id: 'err_401_messages',
    code: 401,
    title: 'Unauthorized',
    endpoint: 'POST /messages',
    count: 48,
    firstSeen: '2025-11-03',
    status: 'Fixed',
    notes: 'Expired keys; customers notified.',
    owner: people.ana,
    relatedEndpoints: [{ id: 'ep_1', label: 'POST /messages', requests: 482113 }],
    version: 1,
    monthly: monthly([0, 12, 9, 7, 6, 5, 4, 3, 2, 0, 0, 0]),
  },
  {
    id: 'err_404_contacts',
    code: 404,
    title: 'Not found',
    endpoint: 'GET /contacts',
    count: 77,
    firstSeen: '2026-03-09',
    status: 'Fixed',
    notes: null,
    owner: people.mia,
    relatedEndpoints: [{ id: 'ep_2', label: 'GET /contacts', requests: 198420 }],
    version: 1,
    monthly: monthly([0, 0, 0, 0, 0, 20, 18, 15, 12, 8, 4, 0]),
  },
  {
    id: 'err_400_contacts',
    code: 400,
    title: 'Bad request',
    endpoint: 'GET /contacts',
    count: 31,
    firstSeen: '2026-06-21',
    status: 'Ignored',
    notes: 'Client sends an old filter syntax.',
    owner: people.omar,
    relatedEndpoints: [{ id: 'ep_2', label: 'GET /contacts', requests: 198420 }],
    version: 1,
    monthly: monthly([0, 0, 0, 0, 0, 0, 0, 0, 6, 9, 8, 8]),
  },
];

export const errorOptions = { endpoints: ['POST /messages', 'POST /webhooks', 'GET /contacts'] };

/** The five activity kinds of the seed, newest first, with ages in minutes before "now". */
export const activitySeed = [
  {
    id: 'act_1',
    actor: people.lee,
    kind: 'rate-limit-raised',
    text: 'raised the rate limit for Acme Ltd',
    minutesAgo: 3,
    subject: { kind: 'customer', id: 'cus_acme' },
  },
  { id: 'act_2', actor: people.globex, kind: 'key-created', text: 'created a new API key', minutesAgo: 12, subject: { kind: 'customer', id: 'cus_globex' } },
  {
    id: 'act_3',
    actor: people.omar,
    kind: 'error-spike',
    text: 'flagged an error spike on POST /webhooks',
    minutesAgo: 26,
    subject: { kind: 'endpoint', id: 'ep_4' },
  },
  { id: 'act_4', actor: people.mia, kind: 'docs-published', text: 'published the docs for version 3', minutesAgo: 48 },
  {
    id: 'act_5',
    actor: people.ana,
    kind: 'endpoint-deprecated',
    text: 'turned off the deprecated endpoint GET /v2/usage',
    minutesAgo: 95,
    subject: { kind: 'endpoint', id: 'ep_7' },
  },
] as const;

/**
 * Deprecated endpoints of the mock API (rows of `endpoints` by id) and who still calls them:
 * each caller's part of the endpoint's requests and minutes since its last call.
 */
export const deprecations = [
  {
    id: 'dep_contacts_delete',
    endpointIds: ['ep_3'],
    endpoint: 'DELETE /contacts',
    apiVersion: null,
    sunsetAt: '2026-10-14T00:00:00Z',
    replacement: 'POST /contacts/archive',
    docsUrl: 'https://docs.example.com/changelog/contacts-archive',
    customers: [
      { id: 'cus_acme', name: 'Acme Ltd', part: 0.7, minutesAgo: 6 },
      { id: 'cus_initech', name: 'Initech', part: 0.3, minutesAgo: 2_900 },
    ],
    keys: [
      { id: 'key_live_acme_0', part: 0.55, minutesAgo: 6 },
      { id: 'key_live_acme_2', part: 0.15, minutesAgo: 380 },
      { id: 'key_live_initech_2', part: 0.3, minutesAgo: 2_900 },
    ],
  },
  {
    id: 'dep_usage_v2',
    endpointIds: ['ep_7'],
    endpoint: 'GET /usage',
    apiVersion: 'v2',
    sunsetAt: '2026-09-30T00:00:00Z',
    replacement: 'GET /usage (v3)',
    docsUrl: null,
    customers: [{ id: 'cus_globex', name: 'Globex Corp', part: 1, minutesAgo: 1 }],
    keys: [{ id: 'key_live_globex_0', part: 1, minutesAgo: 1 }],
  },
] as const;

/** Versions whose documentation was published, with the day. */
export const publishedVersions = [
  { version: 'v3', publishedAt: '2026-03-15T08:00:00Z', docsUrl: 'https://docs.example.com/v3' },
  { version: 'v4', publishedAt: '2026-09-14T08:30:00Z', docsUrl: 'https://docs.example.com/v4' },
] as const;

/**
 * The API keys the host registered: three per customer of the request log but Hooli (whose keys
 * the log names unregistered), one revoked that is still called, and an old one nobody uses.
 * `part` is the key's part of its customer's requests.
 */
export const apiKeys = [
  ...customers.slice(0, 4).flatMap((customer, position) =>
    (['Production', 'Staging', 'CI'] as const).map((name, n) => ({
      id: `key_live_${customer.id.slice(4)}_${n}`,
      name,
      customerId: customer.id,
      createdAt: `2026-0${3 + position}-1${n}T10:00:00Z`,
      revokedAt: customer.id === 'cus_initech' && n === 2 ? '2026-09-11T16:20:00Z' : null,
      part: [0.7, 0.2, 0.1][n]!,
    })),
  ),
  {
    id: 'key_live_acme_old',
    name: 'Old laptop',
    customerId: 'cus_acme',
    createdAt: '2025-03-02T09:00:00Z',
    revokedAt: null,
    part: 0,
    lastUsedAt: '2026-07-20T17:05:00Z',
  },
];
