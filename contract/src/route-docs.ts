/**
 * What each route in `routes.ts` takes and does beyond its path: for a console route its query
 * parameters as zod schemas (the server parses each request's query with them; the OpenAPI
 * document describes them from them), and every route's summary. Every parameter is optional.
 */
import * as z from 'zod/mini';
import {
  ACTIVITY_KINDS,
  CUSTOMER_SORTS,
  ENDPOINT_SORTS,
  ERROR_SORTS,
  ERROR_STATUSES,
  ENDPOINT_STATUSES,
  KEY_SORTS,
  KEY_STATUSES,
  MONTHLY_RANGES,
  TIME_RANGES,
  WEBHOOK_SORTS,
} from './enums.ts';
import type { ConsoleRouteName, RouteName } from './routes.ts';
import { TIMESTAMP } from './time-window.ts';

const text = (description: string) => z.optional(z.string().check(z.describe(description)));
// The contract's timestamps: ISO 8601 with an offset, seconds optional (`2026-09-14T09:41Z`).
const instant = (description: string) => z.optional(z.string().check(z.regex(TIMESTAMP), z.describe(description)));

const timeRange = {
  range: z.optional(z.enum(TIME_RANGES).check(z.describe('A named time range: 1h, 24h, 7d, 30d or 12m (the response adds `window` and `overTime`).'))),
  from: instant('Start of a custom range (with `to`; it wins over `range`).'),
  to: instant('End of a custom range, exclusive (with `from`).'),
};
const paging = {
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(500), z.describe('Page size, 1–500 (default 50).'))),
  cursor: text('The `nextCursor` of the previous page.'),
};
const scope = {
  endpointId: text('Only the requests an endpoint row counts (its id from GET /endpoints).'),
  customerId: text("Only one customer's requests."),
  keyId: text('Only the requests made with one API key.'),
};
const none = z.object({});

export const ROUTE_QUERIES = {
  overview: z.object(timeRange),
  endpoints: z.object({
    status: z.optional(z.enum(ENDPOINT_STATUSES).check(z.describe('Healthy, Failing or Slow.'))),
    q: text('Substring of the endpoint label.'),
    sort: z.optional(z.enum(ENDPOINT_SORTS).check(z.describe('requests, p50Ms, p95Ms, p99Ms or errorPct (- for most first), or recent.'))),
    ...timeRange,
    ...paging,
  }),
  endpoint: z.object(timeRange),
  requests: z.object({
    method: text('An HTTP method, such as GET or POST (events also record HEAD, OPTIONS and OTHER).'),
    status: text('A code such as 500 or a class such as 5xx.'),
    path: text('Substring of the path.'),
    q: text('Words to find, any case: a request is listed when each is in its path or in a body kept of it that the caller may read.'),
    // Read as leniently as before the schema: any date Date.parse reads (the server answers 400 for one it cannot).
    since: text('Only entries after this timestamp, such as 2026-09-14T09:41:00Z.'),
    ...scope,
    range: z.optional(z.enum(TIME_RANGES).check(z.describe('Only entries since the start of this named range: 1h, 24h, 7d, 30d or 12m.'))),
    from: instant('Only entries at or after this timestamp.'),
    to: instant('Only entries before this timestamp.'),
    ...paging,
  }),
  requestSummary: z.object({ ...scope, ...timeRange }),
  request: none,
  traffic: z.object({
    range: z.optional(
      z
        .enum([...MONTHLY_RANGES, ...TIME_RANGES.filter((range) => range !== '12m')])
        .check(z.describe('Calendar months (12m, the default; 6m, 3m, 1m), or a window: 1h, 24h, 7d or 30d (the response adds `window` and `overTime`).')),
    ),
    from: timeRange.from,
    to: timeRange.to,
    customerId: scope.customerId,
  }),
  customers: z.object({
    q: text('Substring of the name or id, any case.'),
    sort: z.optional(z.enum(CUSTOMER_SORTS).check(z.describe('name (default), -name, requests, -requests, createdAt or -createdAt.'))),
    ...paging,
  }),
  customer: none,
  addNote: none,
  webhooks: z.object({
    q: text("Substring of the name, the id or the customer's name, any case."),
    sort: z.optional(z.enum(WEBHOOK_SORTS).check(z.describe('name (default), -name, deliveredPct, -deliveredPct, lastSentAt or -lastSentAt.'))),
    ...paging,
  }),
  webhook: z.object(timeRange),
  errors: z.object({
    status: z.optional(z.enum(ERROR_STATUSES).check(z.describe('Open, Fixed or Ignored.'))),
    endpoint: text('Only the records of one endpoint, by its label (POST /webhooks).'),
    sort: z.optional(
      z.enum(ERROR_SORTS).check(z.describe('count, -count, firstSeen or -firstSeen (- is most or newest first); absent, newest recorded first.')),
    ),
    ...paging,
  }),
  createError: none,
  errorOptions: none,
  error: z.object(timeRange),
  updateError: none,
  activity: z.object({
    // An open set, as the response's `kind`: the seed's kinds, the console's own (note-added, error-recorded, status-changed) and any an admin records.
    kind: text(`An activity kind: ${ACTIVITY_KINDS.join(', ')}, note-added, error-recorded, status-changed, or one an admin API caller recorded.`),
    ...paging,
  }),
  versions: z.object(timeRange),
  alertChannels: none,
  createAlertChannel: none,
  updateAlertChannel: none,
  deleteAlertChannel: none,
  testAlertChannel: none,
  alertRules: none,
  createAlertRule: none,
  updateAlertRule: none,
  deleteAlertRule: none,
  slos: none,
  createSlo: none,
  slo: none,
  updateSlo: none,
  deleteSlo: none,
  alerts: z.object({
    state: z.optional(z.enum(['firing', 'resolved']).check(z.describe('Only firing alerts, or only resolved ones.'))),
    ruleId: text('Only one rule’s alerts.'),
    ...paging,
  }),
  keys: z.object({
    q: text("Substring of the key's id or name, or its customer's name, any case."),
    customerId: scope.customerId,
    status: z.optional(z.enum(KEY_STATUSES).check(z.describe('Active, Idle, Revoked or Unregistered.'))),
    sort: z.optional(z.enum(KEY_SORTS).check(z.describe('-requests (default), requests, name, -name, lastUsedAt, -lastUsedAt, createdAt or -createdAt.'))),
    ...timeRange,
    ...paging,
  }),
  key: z.object(timeRange),
} satisfies Record<ConsoleRouteName, z.ZodMiniObject>;

export const ROUTE_SUMMARIES = {
  overview: 'Greeting owner, summary figures and requests by endpoint group',
  endpoints: 'Every route with its figures (rows may share method and path)',
  endpoint: 'One endpoint row with its last 30 days (or the asked range), status codes and busiest customers',
  requests: 'The request log, newest first',
  requestSummary: "Requests grouped by method, path and status with this week's count",
  request: 'One request with its route, version, key, customer, size and the headers the collector kept',
  traffic: 'Traffic metrics, monthly series and breakdown',
  customers: 'Customers with their recent figures, searched and sorted',
  customer: 'A customer with notes and history (newest first), and its rate limit against its busiest minute',
  addNote: 'Add a note; the customer gains a "Note added" history item',
  webhooks: 'Webhooks with their delivery figures, searched and sorted',
  webhook: 'A webhook with its monthly activity (and its deliveries over a time range)',
  errors: 'Error records',
  createError: 'Create an error record (the server fills title, owner, relatedEndpoints, monthly)',
  errorOptions: 'The endpoints the creation form offers',
  error: 'An error record (with its occurrences over a time range)',
  updateError: 'Change status and/or notes',
  activity: 'Latest activity, newest first',
  alertChannels: 'Where alerts are sent: signed webhooks, Slack and email (secrets are never answered)',
  createAlertChannel: 'Add a channel; a URL on a private or loopback address is refused unless the server allows them',
  updateAlertChannel: 'Change a channel’s name, URL, secret or address',
  deleteAlertChannel: 'Remove a channel (rules stop sending to it); answers the channel removed',
  testAlertChannel: 'Send a test notification now; answers how it went',
  alertRules: 'Alert rules with their condition now and their last value',
  createAlertRule: 'Add a rule: a metric over a window against a threshold, for a duration before it fires',
  updateAlertRule: 'Change a rule; its current alert is resolved when its condition changes',
  deleteAlertRule: 'Remove a rule (a firing alert of it is resolved, without a notification); answers the rule removed',
  slos: 'SLOs with their good share, error budget left and burn rates over the period',
  createSlo: 'Add an SLO: availability (non-5xx) or latency (at most thresholdMs), over 7, 28 or 30 days',
  slo: 'One SLO with its budget left at the end of each day of the period',
  updateSlo: 'Change an SLO',
  deleteSlo: 'Remove an SLO (a firing burn-rate alert of it is resolved, without a notification); answers the SLO removed',
  alerts: 'Firing and resolved alerts, newest first, each with its notifications',
  versions: 'Requests per API version over the last 30 days (or the asked range), with shares and each bucket; deprecated endpoints and who still calls them',
  keys: 'API keys, registered or seen in traffic, with their figures over the last 30 days (or the asked range), searched, filtered and sorted',
  key: 'One API key with its buckets, endpoints and versions used, latest requests, and requests after revocation',
  ingestRequests: 'Request events from a collector',
  ingestWebhookDeliveries: 'Webhook delivery outcomes',
  otlpTraces: 'OTLP/HTTP traces (protobuf or JSON); HTTP server spans become requests',
  putCustomer: 'Create (201) or replace (200) a customer',
  putWebhook: 'Create (201) or replace (200) a webhook',
  addActivity: 'Record an activity item',
  putRateLimit: 'Set a customer’s rate limit in requests a minute; raising it adds "raised the rate limit for <customer>"',
  putKey: 'Create (201) or replace (200) an API key of a registered customer; a new key adds "<customer> created a new API key"',
  putDeprecation: 'Deprecate an endpoint until its sunset: create (201) or replace (200)',
  addVersion: 'Record that a version’s documentation was published: first time (201), again (200)',
  createEmbedSession: 'Mint an embed session: a token for one customer’s console (and some of its views), for at most an hour',
  endEmbedSession: 'End one embed session by its id: its token is refused from now on',
  endCustomerEmbedSessions: 'End every embed session of a customer minted until now',
  erasePayloads:
    'Erase the headers and bodies of a customer’s requests (a right-to-erasure request); the requests and figures stay. Answers how many requests had some, and adds "erased the request payloads of <customer>"',
  health: 'The process is up',
  ready: 'The stores answer (503 with the reason when not)',
  metrics: 'Prometheus text format',
  elements: "The elements' script tag entry and its chunks, for pages of any origin",
} satisfies Record<RouteName, string>;
