/**
 * The console API contract (v1) in executable form. Every route and payload of
 * `console-api.md` has a schema here; the client validates every response with them and
 * the error form validates its input with the same ones.
 *
 * Forward compatibility: objects ignore unknown fields (zod strips them) and enums are
 * "open" — a known value list for docs and rendering, but any string is accepted so a
 * server can add values without breaking deployed elements.
 */
import * as z from 'zod/mini';
import { ENGLISH_FORM_WORDS, type FormWords } from './form-words.ts';
import {
  ACTIVITY_KINDS,
  ALERT_CHANNEL_KINDS,
  ALERT_METRICS,
  ALERT_STATES,
  SLO_OBJECTIVES,
  SLO_PERIODS,
  CUSTOMER_STATUSES,
  ENDPOINT_STATUSES,
  ERROR_CODES,
  ERROR_STATUSES,
  HISTORY_KINDS,
  HTTP_METHODS,
  KEY_STATUSES,
  METRIC_UNITS,
  PAYLOAD_STATES,
  TIME_BUCKETS,
  WEBHOOK_STATUSES,
} from './enums.ts';

/** Known values plus any other string, so new server-side enum values never fail validation. */
function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]);
}

/** A real calendar day (`2026-02-30` and `2026-99-99` are refused). */
const isoDate = z.iso.date({ error: 'expected a YYYY-MM-DD date' });
const isoTimestamp = z.iso.datetime({ offset: true });
const yearMonth = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a YYYY-MM month'));
const nonNegativeInt = z.int().check(z.gte(0));
const cursor = z.nullable(z.string());

export * from './enums.ts';

export const method = openEnum(HTTP_METHODS);

export const person = z.object({
  id: z.string(),
  name: z.string(),
  initials: z.optional(z.string()),
});

export const monthSeries = z
  .object({ months: z.array(yearMonth), values: z.array(z.number()) })
  .check(z.refine((s) => s.months.length === s.values.length, 'months and values differ in length'));

/** `id` is the endpoint's id (as in GET /endpoints), for drill-downs; optional so older servers stay valid. */
export const relatedEndpoint = z.object({ id: z.optional(z.string()), label: z.string(), requests: nonNegativeInt });

/**
 * A signed change against last month (or, with a time range, the window before it), in percent
 * units; `null` when there is nothing to compare with (the element shows `—`, not `0.0%`).
 */
const changePct = z.nullable(z.number());

/** The window a route was asked for (`range`, or `from`–`to`) as the server resolved it; changes compare with `previousFrom`–`previousTo`. */
export const timeWindow = z.object({
  range: z.optional(z.string()),
  from: isoTimestamp,
  to: isoTimestamp,
  bucket: openEnum(TIME_BUCKETS),
  previousFrom: isoTimestamp,
  previousTo: isoTimestamp,
});

/** A window cut into buckets: each bucket's start, its requests, server errors, error rate and p95 (`null` without requests), and the requests of the bucket one window earlier. */
export const windowSeries = z
  .object({
    starts: z.array(isoTimestamp),
    requests: z.array(nonNegativeInt),
    errors: z.array(nonNegativeInt),
    errorPct: z.array(z.number()),
    p95Ms: z.array(z.nullable(z.number())),
    previousRequests: z.array(nonNegativeInt),
  })
  .check(
    z.refine(
      (s) => [s.requests, s.errors, s.errorPct, s.p95Ms, s.previousRequests].every((list) => list.length === s.starts.length),
      'starts, requests, errors, errorPct, p95Ms and previousRequests differ in length',
    ),
  );

/** Counts over a window's buckets (a webhook's deliveries, an error record's occurrences): each bucket's start and its count. */
export const countSeries = z
  .object({ starts: z.array(isoTimestamp), values: z.array(nonNegativeInt) })
  .check(z.refine((s) => s.values.length === s.starts.length, 'starts and values differ in length'));

/** What a route asked with a time range adds: the window, and its series (both absent without a range, or from older servers). */
const windowed = { window: z.optional(timeWindow), overTime: z.optional(windowSeries) };

// GET /overview
export const overview = z.object({
  owner: person,
  figures: z.object({
    requestsThisMonth: z.object({ value: nonNegativeInt, series: monthSeries }),
    requestsToday: z.object({ value: nonNegativeInt, changePct }),
    errorRate: z.object({ valuePct: z.number(), changePct }),
    p95Latency: z.object({ valueMs: z.number(), changePct }),
    activeKeys: z.object({ value: nonNegativeInt, changePct }),
    /** With a time range: the window's requests against the window before it. */
    requests: z.optional(z.object({ value: nonNegativeInt, changePct })),
  }),
  requestsByEndpoint: z.array(z.object({ group: z.string(), sharePct: z.number() })),
  ...windowed,
});

/** What an endpoint row or page says of a deprecation: when the endpoint turns off, and what replaces it. */
export const deprecationNotice = z.object({
  id: z.string(),
  sunsetAt: isoTimestamp,
  /** Whether the sunset has passed (the server recorded "turned off the deprecated endpoint …"). */
  turnedOff: z.boolean(),
  replacement: z.nullable(z.string()),
  docsUrl: z.nullable(z.string()),
});

// GET /endpoints
export const endpoint = z.object({
  id: z.string(),
  method,
  path: z.string(),
  requests: nonNegativeInt,
  /** The median duration; optional so older servers stay valid. */
  p50Ms: z.optional(z.number()),
  p95Ms: z.number(),
  /** The 99th-percentile duration; optional so older servers stay valid. */
  p99Ms: z.optional(z.number()),
  errorPct: z.number(),
  status: openEnum(ENDPOINT_STATUSES),
  /** The API version the row counts, when the API reports versions; rows may share method and path and differ here. */
  apiVersion: z.optional(z.string()),
  /**
   * How many rows (API versions) of the account share this row's method and path, counted over the
   * same window whatever the filter, sort or page; optional so older servers stay valid.
   */
  versions: z.optional(nonNegativeInt),
  /** When the row's method and path (in its API version, or in all) are deprecated: until when they answer; optional so older servers stay valid. */
  deprecation: z.optional(deprecationNotice),
});
function page<T extends z.core.SomeType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: cursor });
}

export const endpointPage = page(endpoint);

// GET /endpoints/{id}: the row with its days, status codes and busiest customers.
export const endpointDetail = z.extend(endpoint, {
  daily: z
    .object({ days: z.array(isoDate), requests: z.array(nonNegativeInt), errors: z.array(nonNegativeInt), p95Ms: z.array(z.nullable(z.number())) })
    .check(
      z.refine(
        (d) => d.requests.length === d.days.length && d.errors.length === d.days.length && d.p95Ms.length === d.days.length,
        'days, requests, errors and p95Ms differ in length',
      ),
    ),
  statusCodes: z.array(z.object({ status: z.int(), requests: nonNegativeInt })),
  topCustomers: z.array(z.object({ id: z.string(), name: z.string(), requests: nonNegativeInt })),
  ...windowed,
});

// GET /requests, GET /requests/summary
export const requestEntry = z.object({
  id: z.string(),
  method,
  path: z.string(),
  status: z.int(),
  durationMs: z.number(),
  actor: person,
  time: isoTimestamp,
});
export const requestPage = page(requestEntry);

// GET /requests/{id}: one request with everything the collector recorded about it. The fields
// beyond the log's entry are optional, so a backend that records less stays valid.
export const requestHeader = z.object({ name: z.string(), value: z.string() });
const payloadState = openEnum(PAYLOAD_STATES);
/** A captured body; `text` is null for types that are not text (images, archives), which keep their size. */
export const capturedBody = z.object({ contentType: z.string(), size: nonNegativeInt, truncated: z.boolean(), text: z.nullable(z.string()) });
export const requestDetail = z.extend(requestEntry, {
  /** The route template (`/contacts/{id}`); `path` is the concrete path. */
  route: z.optional(z.nullable(z.string())),
  /** The endpoint row (as in GET /endpoints) that counts this request, for the drill-down. */
  endpointId: z.optional(z.nullable(z.string())),
  apiVersion: z.optional(z.nullable(z.string())),
  keyId: z.optional(z.nullable(z.string())),
  customer: z.optional(z.nullable(z.object({ id: z.string(), name: z.string() }))),
  /** Response size in bytes, when the collector could measure it. */
  bytes: z.optional(z.nullable(nonNegativeInt)),
  /** The request headers the collector was allowed to keep, masked; in the order received; null when none are kept. */
  headers: z.optional(z.nullable(z.array(requestHeader))),
  /** The response headers, as `headers`. */
  responseHeaders: z.optional(z.nullable(z.array(requestHeader))),
  /** The request body: masked, its text cut to the server's `capture.maxBodyBytes` (`truncated`), `size` its whole size; null when none is kept. */
  requestBody: z.optional(z.nullable(capturedBody)),
  responseBody: z.optional(z.nullable(capturedBody)),
  /** What became of the headers and bodies: kept, removed (retention or an erasure), hidden (from this caller), none (never captured). */
  payload: z.optional(payloadState),
});
export const requestSummary = z.object({
  groups: z.array(z.object({ method, path: z.string(), status: z.int(), durationMs: z.number(), thisWeek: nonNegativeInt })),
});

// GET /traffic
/** `count`, `ms`, `bytes`, `percent`, or an ISO 4217 currency code such as `USD`. */
export const metricUnit = openEnum(METRIC_UNITS);
export const metric = z.object({ value: z.number(), unit: metricUnit, changePct });
export const traffic = z.object({
  metrics: z.object({ requests: metric, errorRate: metric, latency: metric, bandwidth: metric }),
  requestsOverTime: z
    .object({ months: z.array(yearMonth), thisYear: z.array(z.number()), lastYear: z.array(z.number()) })
    .check(z.refine((s) => s.thisYear.length === s.months.length && s.lastYear.length === s.months.length, 'months, thisYear and lastYear differ in length')),
  errorRateByMonth: z
    .object({ months: z.array(yearMonth), valuesPct: z.array(z.number()) })
    .check(z.refine((s) => s.valuesPct.length === s.months.length, 'months and valuesPct differ in length')),
  breakdown: z.array(z.object({ method, path: z.string(), value: z.number(), unit: metricUnit, changePct, sharePct: z.number() })),
  ...windowed,
});

// GET /versions
/** One API version's requests in a window: `null` stands for requests that named no version. */
export const versionShare = z.object({
  version: z.nullable(z.string()),
  requests: nonNegativeInt,
  /** Of all the window's requests; the shares add up to exactly 100.0. */
  sharePct: z.number(),
  /** Its requests in each bucket of `starts`. */
  perBucket: z.array(nonNegativeInt),
  /** When its documentation was published (POST /admin/v1/versions); optional so older servers stay valid. */
  publishedAt: z.optional(isoTimestamp),
  docsUrl: z.optional(z.nullable(z.string())),
});
/** A customer or key that called a deprecated endpoint in the window: its calls and its latest call. */
export const deprecationCaller = z.object({
  id: z.string(),
  /** The customer's name, when the customer is registered. */
  name: z.optional(z.string()),
  requests: nonNegativeInt,
  lastCallAt: isoTimestamp,
});
/** A deprecated endpoint and who still calls it, busiest first. */
export const deprecation = z.extend(deprecationNotice, {
  /** `METHOD /route`, as deprecated. */
  endpoint: z.string(),
  /** The API version deprecated; `null` for the endpoint in every version. */
  apiVersion: z.nullable(z.string()),
  /** Whole days until the sunset, rounded up; 0 once it has passed. */
  daysToSunset: nonNegativeInt,
  /** Its requests in the window. */
  requests: nonNegativeInt,
  customers: z.array(deprecationCaller),
  keys: z.array(deprecationCaller),
});
/** Requests per API version over a window (the last 30 days unless asked), busiest first; then the deprecations: those to come by soonest sunset, then those turned off, latest first. */
export const versions = z
  .object({
    window: timeWindow,
    starts: z.array(isoTimestamp),
    versions: z.array(versionShare),
    /** Optional so older servers stay valid. */
    deprecations: z.optional(z.array(deprecation)),
  })
  .check(z.refine((v) => v.versions.every((row) => row.perBucket.length === v.starts.length), 'a version’s perBucket and starts differ in length'));

// GET /customers/{id}, POST /customers/{id}/notes
export const note = z.object({ id: z.string(), text: z.string(), author: person, createdAt: isoDate });
export const historyItem = z.object({ kind: openEnum(HISTORY_KINDS), actor: person, at: isoDate });
// GET /customers: the list, one row per customer with the figures of its recent requests.
export const customerSummary = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDate,
  plan: z.string(),
  requests: nonNegativeInt,
  errorPct: z.number(),
  status: openEnum(CUSTOMER_STATUSES),
  owner: person,
  /** Its requests answered 429 Too Many Requests, over the same window as `requests`; optional so older servers stay valid. */
  throttled: z.optional(nonNegativeInt),
});
/** A customer's rate limit against its busiest minute in the window. */
export const rateLimit = z.object({
  /** The limit the host set (PUT /admin/v1/customers/{id}/limits), in requests a minute; `null` when none was set. */
  requestsPerMinute: z.nullable(nonNegativeInt),
  /** The most requests the customer made in one minute of the window, and that minute's start (`null` without requests). */
  peakPerMinute: nonNegativeInt,
  peakAt: z.nullable(isoTimestamp),
});
export const customer = z.extend(customerSummary, {
  relatedEndpoints: z.array(relatedEndpoint),
  notes: z.array(note),
  history: z.array(historyItem),
  /** Optional so older servers stay valid. */
  rateLimit: z.optional(rateLimit),
});
export const customerPage = page(customerSummary);
// GET /keys: one row per API key, registered or seen in traffic, with its figures in the range (the last 30 days unless asked).
export const keySummary = z.object({
  id: z.string(),
  /** `null` for a key seen in traffic that the host never registered. */
  name: z.nullable(z.string()),
  customer: z.nullable(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.nullable(isoTimestamp),
  revokedAt: z.nullable(isoTimestamp),
  /** Its newest request ever; `null` before its first. */
  lastUsedAt: z.nullable(isoTimestamp),
  requests: nonNegativeInt,
  errorPct: z.number(),
  /** `null` without requests in the range. */
  p95Ms: z.nullable(z.number()),
  /** Its requests answered 429 Too Many Requests in the range. */
  throttled: nonNegativeInt,
  /** `Active` (used in the last 30 days), `Idle`, `Revoked` or `Unregistered`. */
  status: openEnum(KEY_STATUSES),
});
export const keyPage = z.extend(page(keySummary), { window: z.optional(timeWindow) });
/** A share of a key's requests: per endpoint row (`id` as in GET /endpoints) or per API version (`null` for none named). */
export const keyEndpointShare = z.object({
  id: z.string(),
  label: z.string(),
  apiVersion: z.nullable(z.string()),
  requests: nonNegativeInt,
  sharePct: z.number(),
});
export const keyVersionShare = z.object({ version: z.nullable(z.string()), requests: nonNegativeInt, sharePct: z.number() });
/** A request of the key's latest, with whether it came after the key was revoked. */
export const keyRequest = z.extend(requestEntry, { afterRevocation: z.boolean() });
// GET /keys/{id}: the row with its buckets, endpoints, versions and latest requests.
export const apiKey = z.extend(keySummary, {
  window: timeWindow,
  overTime: windowSeries,
  /** Busiest first; the shares add up to exactly 100.0. */
  endpoints: z.array(keyEndpointShare),
  versions: z.array(keyVersionShare),
  /** Newest first (the request log, filtered by the key, has the rest). */
  latestRequests: z.array(keyRequest),
  /** Requests made with the key after it was revoked, ever, and the newest one's time; `null` for a key not revoked. */
  afterRevocation: z.nullable(z.object({ requests: nonNegativeInt, lastAt: z.nullable(isoTimestamp) })),
});

// GET /webhooks: the list, one row per registered webhook with its delivery figures.
export const webhookSummary = z.object({
  id: z.string(),
  name: z.string(),
  customer: z.object({ id: z.string(), name: z.string() }),
  deliveredPct: z.number(),
  lastSentAt: isoDate,
  status: openEnum(WEBHOOK_STATUSES),
  /** The API company's person in charge; absent under a customer-scoped token. */
  owner: z.optional(person),
});
export const webhookPage = page(webhookSummary);
// GET /webhooks/{id}
export const webhook = z.extend(webhookSummary, {
  activity: monthSeries,
  relatedEndpoints: z.array(relatedEndpoint),
  /** With a time range: the window, and the deliveries in its buckets. */
  window: z.optional(timeWindow),
  countsOverTime: z.optional(countSeries),
});

// GET /errors, GET /errors/{id}, GET /errors/options, POST /errors, PATCH /errors/{id}
export const errorStatus = openEnum(ERROR_STATUSES);
export const errorRecord = z.object({
  id: z.string(),
  code: z.int(),
  title: z.string(),
  endpoint: z.string(),
  count: nonNegativeInt,
  firstSeen: isoDate,
  status: errorStatus,
  notes: z.nullable(z.string()),
  owner: person,
  relatedEndpoints: z.array(relatedEndpoint),
  monthly: monthSeries,
  /** Increases with every change; sent back as `If-Match` on PATCH. Optional so older servers stay valid. */
  version: z.optional(nonNegativeInt),
  /** GET /errors/{id} with a time range: the window, and the occurrences in its buckets. */
  window: z.optional(timeWindow),
  countsOverTime: z.optional(countSeries),
});
export const errorPage = page(errorRecord);
export const errorOptions = z.object({ endpoints: z.array(z.string()) });
// GET /activity
export const activityItem = z.object({
  id: z.string(),
  actor: person,
  kind: openEnum(ACTIVITY_KINDS),
  text: z.string(),
  at: isoTimestamp,
  /** What the item is about, for the drill-down (`{ kind: 'customer', id: 'cus_acme' }`); optional, so older servers stay valid. */
  subject: z.optional(z.object({ kind: z.string(), id: z.string() })),
});
export const activityPage = page(activityItem);

// problem+json (RFC 9457) error bodies
// Alerts: GET /alert-channels, /alert-rules, /alerts and their writes.
/** A duration of whole minutes, hours or days: `5m`, `1h`, `3d`. */
export const ALERT_DURATION = /^(\d{1,4})([mhd])$/;
/** A rule's scope: the account (empty), an endpoint, a customer or a key. */
export const alertScope = z.object({
  endpointId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  customerId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  keyId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});
export const alertChannel = z.object({
  id: z.string(),
  kind: openEnum(ALERT_CHANNEL_KINDS),
  name: z.string(),
  /** The webhook's or Slack's URL; absent for email. */
  url: z.optional(z.string()),
  /** The address email goes to. */
  to: z.optional(z.string()),
  /** Whether deliveries carry `Ops-Console-Signature` (the secret itself is never answered). */
  signed: z.boolean(),
  createdAt: isoTimestamp,
});
export const alertChannelList = z.object({ items: z.array(alertChannel) });
/**
 * The fields of a new alert channel or rule, with the words a refused one shows (English unless
 * the elements pass theirs): see {@link formSchemas}.
 */
function alertFormFields(words: FormWords) {
  const name = z.string().check(z.trim(), z.minLength(1, { error: () => words.nameEmpty() }), z.maxLength(200, { error: () => words.nameTooLong(200) }));
  const url = z.url({ protocol: /^https?$/, error: () => words.urlInvalid() }).check(
    z.maxLength(2048, { error: () => words.urlInvalid() }),
    // A password in the URL would be kept, shown and logged: a webhook authenticates with its secret.
    z.refine((value) => !/^https?:\/\/[^/?#]*@/i.test(value), { error: () => words.urlWithCredentials() }),
  );
  const secret = z.string().check(z.minLength(16, { error: () => words.secretShort(16) }), z.maxLength(200, { error: () => words.secretLong(200) }));
  const to = z.email({ error: () => words.emailInvalid() }).check(z.maxLength(320, { error: () => words.emailInvalid() }));
  const newChannel = z
    .object({
      kind: z.enum(ALERT_CHANNEL_KINDS, { error: () => words.chooseChannelKind() }),
      name,
      url: z.optional(url),
      secret: z.optional(secret),
      to: z.optional(to),
    })
    .check(
      z.refine((c) => c.kind === 'email' || c.url !== undefined, { error: () => words.urlNeeded(), path: ['url'] }),
      z.refine((c) => c.kind !== 'webhook' || c.secret !== undefined, { error: () => words.secretNeeded(), path: ['secret'] }),
      z.refine((c) => c.kind !== 'email' || c.to !== undefined, { error: () => words.emailNeeded(), path: ['to'] }),
    );
  const rule = {
    name,
    metric: z.enum(ALERT_METRICS, { error: () => words.chooseMetric() }),
    scope: alertScope,
    threshold: z
      .number({ error: () => words.thresholdNumber() })
      .check(z.gte(0, { error: () => words.thresholdNumber() }), z.lte(1e12, { error: () => words.thresholdNumber() })),
    window: z.string().check(z.regex(ALERT_DURATION, { error: () => words.windowDuration() })),
    for: z.string().check(z.regex(ALERT_DURATION, { error: () => words.forDuration() })),
    channelIds: z.array(z.string().check(z.minLength(1))).check(z.maxLength(10)),
    silencedUntil: z.optional(z.nullable(isoTimestamp)),
  };
  const newRule = z.object({
    ...rule,
    scope: z._default(alertScope, {}),
    for: z._default(rule.for, '0m'),
    channelIds: z._default(rule.channelIds, []),
  });
  return { name, url, secret, to, newChannel, rule, newRule };
}
const englishAlertFields = alertFormFields(ENGLISH_FORM_WORDS);
export const alertChannelPatch = z.object({
  name: z.optional(englishAlertFields.name),
  url: z.optional(englishAlertFields.url),
  secret: z.optional(englishAlertFields.secret),
  to: z.optional(englishAlertFields.to),
});
/** One channel's notification of an alert (or of a test): delivered, or failed after its attempts. */
export const alertNotification = z.object({
  channelId: z.string(),
  event: z.union([z.enum(['firing', 'resolved', 'test']), z.string()]),
  status: z.union([z.enum(['delivered', 'failed']), z.string()]),
  attempts: nonNegativeInt,
  at: isoTimestamp,
  /** Why the last attempt failed (`HTTP 500`, `connection refused`); null once delivered. */
  error: z.nullable(z.string()),
});
export const alertRule = z.object({
  id: z.string(),
  name: z.string(),
  metric: openEnum(ALERT_METRICS),
  scope: alertScope,
  threshold: z.number(),
  window: z.string(),
  for: z.string(),
  channelIds: z.array(z.string()),
  createdAt: isoTimestamp,
  /** Until then its alerts still fire and resolve, but no channel is told (null: not silenced). */
  silencedUntil: z.optional(z.nullable(isoTimestamp)),
  /** Its condition now: `ok`, `pending` (holding, not yet for its `for`) or `firing`. */
  state: z.union([z.enum(['ok', 'pending', 'firing']), z.string()]),
  /** The metric at the last evaluation, in the rule's unit; null before one (or without requests). */
  value: z.nullable(z.number()),
  evaluatedAt: z.nullable(isoTimestamp),
});
export const alertRuleList = z.object({ items: z.array(alertRule) });
export const alertRulePatch = z.partial(z.object(englishAlertFields.rule));
export const alert = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  metric: openEnum(ALERT_METRICS),
  scope: alertScope,
  state: openEnum(ALERT_STATES),
  /** The metric when it fired (and, once resolved, when it resolved), in the rule's unit. */
  value: z.number(),
  threshold: z.number(),
  startedAt: isoTimestamp,
  endedAt: z.nullable(isoTimestamp),
  /** The console's page of what the rule watches, below its base: `/endpoints/ep_1`, `/`. */
  link: z.string(),
  notifications: z.array(alertNotification),
});
export const alertPage = page(alert);

// SLOs: GET /slos, GET /slos/{id} and their writes.
/** Burn rates over the windows the alerts read: how many times faster than the budget allows. */
export const burnRates = z.object({
  '5m': z.nullable(z.number()),
  '30m': z.nullable(z.number()),
  '1h': z.nullable(z.number()),
  '6h': z.nullable(z.number()),
  '3d': z.nullable(z.number()),
});
export const slo = z.object({
  id: z.string(),
  name: z.string(),
  objective: openEnum(SLO_OBJECTIVES),
  /** The share of good requests aimed at, in percent (99.5). */
  targetPct: z.number(),
  /** For a latency SLO: a good request is at most this fast. */
  thresholdMs: z.nullable(z.number()),
  period: openEnum(SLO_PERIODS),
  scope: alertScope,
  channelIds: z.array(z.string()),
  createdAt: isoTimestamp,
  /** Until then its alerts still fire and resolve, but no channel is told (null: not silenced). */
  silencedUntil: z.optional(z.nullable(isoTimestamp)),
  /** Over the period: requests, bad ones, the share of good ones; null without requests. */
  requests: nonNegativeInt,
  badRequests: nonNegativeInt,
  sliPct: z.nullable(z.number()),
  /** What is left of the error budget, in percent of it (below 0 once spent); null without requests. */
  budgetRemainingPct: z.nullable(z.number()),
  burnRates,
  /** `firing` while a burn-rate alert holds. */
  state: z.union([z.enum(['ok', 'firing']), z.string()]),
});
export const sloList = z.object({ items: z.array(slo) });
export const sloDetail = z.extend(slo, {
  /** The budget left at the end of each day of the period so far (null for days before any request). */
  budgetOverTime: z.object({ days: z.array(isoDate), remainingPct: z.array(z.nullable(z.number())) }),
});
const sloFields = {
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  objective: z.enum(SLO_OBJECTIVES),
  targetPct: z.number().check(z.gt(0), z.lt(100)),
  thresholdMs: z.optional(z.number().check(z.gt(0), z.lte(3_600_000))),
  period: z.enum(SLO_PERIODS),
  scope: z.object({ endpointId: alertScope.shape.endpointId, customerId: alertScope.shape.customerId }),
  channelIds: z.array(z.string().check(z.minLength(1))).check(z.maxLength(10)),
  silencedUntil: z.optional(z.nullable(isoTimestamp)),
};
export const newSlo = z
  .object({ ...sloFields, scope: z._default(sloFields.scope, {}), channelIds: z._default(sloFields.channelIds, []) })
  .check(z.refine((s) => s.objective !== 'latency' || s.thresholdMs !== undefined, { message: 'a latency SLO needs its thresholdMs', path: ['thresholdMs'] }));
export const sloPatch = z.partial(z.object(sloFields));

export const problem = z.object({
  type: z.optional(z.string()),
  title: z.optional(z.string()),
  status: z.optional(z.int()),
  detail: z.optional(z.string()),
  errors: z.optional(z.array(z.object({ field: z.string(), message: z.string() }))),
});

export type Person = z.infer<typeof person>;
export type MonthSeries = z.infer<typeof monthSeries>;
export type RelatedEndpoint = z.infer<typeof relatedEndpoint>;
export type Overview = z.infer<typeof overview>;
export type TimeWindow = z.infer<typeof timeWindow>;
export type WindowSeries = z.infer<typeof windowSeries>;
export type CountSeries = z.infer<typeof countSeries>;
export type Endpoint = z.infer<typeof endpoint>;
export type Page<T> = { items: T[]; nextCursor: string | null };
export type RequestEntry = z.infer<typeof requestEntry>;
export type RequestSummary = z.infer<typeof requestSummary>;
export type RequestDetail = z.infer<typeof requestDetail>;
export type MetricUnit = z.infer<typeof metricUnit>;
export type Metric = z.infer<typeof metric>;
export type Traffic = z.infer<typeof traffic>;
export type Note = z.infer<typeof note>;
export type HistoryItem = z.infer<typeof historyItem>;
export type Customer = z.infer<typeof customer>;
export type RateLimit = z.infer<typeof rateLimit>;
export type CustomerSummary = z.infer<typeof customerSummary>;
export type NewNote = z.input<typeof newNote>;
export type Webhook = z.infer<typeof webhook>;
export type EndpointDetail = z.infer<typeof endpointDetail>;
export type WebhookSummary = z.infer<typeof webhookSummary>;
export type ErrorRecord = z.infer<typeof errorRecord>;
export type ErrorOptions = z.infer<typeof errorOptions>;
export type NewErrorRecord = z.infer<typeof newErrorRecord>;
export type ErrorPatch = z.infer<typeof errorPatch>;
export type ActivityItem = z.infer<typeof activityItem>;
export type Versions = z.infer<typeof versions>;
export type VersionShare = z.infer<typeof versionShare>;
export type Deprecation = z.infer<typeof deprecation>;
export type DeprecationNotice = z.infer<typeof deprecationNotice>;
export type DeprecationCaller = z.infer<typeof deprecationCaller>;
export type KeySummary = z.infer<typeof keySummary>;
export type ApiKey = z.infer<typeof apiKey>;
export type KeyRequest = z.infer<typeof keyRequest>;
export type KeyEndpointShare = z.infer<typeof keyEndpointShare>;
export type KeyVersionShare = z.infer<typeof keyVersionShare>;
export type Problem = z.infer<typeof problem>;
export type AlertChannel = z.infer<typeof alertChannel>;
export type NewAlertChannel = z.infer<typeof newAlertChannel>;
export type AlertChannelPatch = z.infer<typeof alertChannelPatch>;
export type AlertNotification = z.infer<typeof alertNotification>;
export type AlertRule = z.infer<typeof alertRule>;
export type NewAlertRule = z.input<typeof newAlertRule>;
export type AlertRulePatch = z.infer<typeof alertRulePatch>;
export type Alert = z.infer<typeof alert>;
export type Slo = z.infer<typeof slo>;
export type SloDetail = z.infer<typeof sloDetail>;
export type NewSlo = z.input<typeof newSlo>;
export type SloPatch = z.infer<typeof sloPatch>;

/** The longest note, on a customer or an error record. */
export const NOTE_MAX_LENGTH = 2000;

/**
 * The schemas of what a person submits (a note, a new error record, a change to one), with the
 * words a refused field shows. The server answers in English; the elements pass words in the
 * page's language. Each word is a function, read when a value is checked, so a form checks in
 * the language of that moment.
 */
export function formSchemas(words: FormWords = ENGLISH_FORM_WORDS) {
  const notesLength = z.maxLength(NOTE_MAX_LENGTH, { error: () => words.notesTooLong(NOTE_MAX_LENGTH) });
  const alertFields = alertFormFields(words);
  return {
    newNote: z.object({
      text: z.string().check(z.trim(), z.minLength(1, { error: () => words.noteEmpty() }), notesLength),
    }),
    newErrorRecord: z.object({
      code: z.literal(ERROR_CODES, { error: () => words.chooseError() }),
      endpoint: z.string().check(z.minLength(1, { error: () => words.chooseEndpoint() })),
      count: z.int({ error: () => words.countWhole() }).check(z.gte(0, { error: () => words.countNegative() })),
      firstSeen: z.string().check(
        z.minLength(1, { error: () => words.firstSeenEmpty() }),
        z.refine((value) => isoDate.safeParse(value).success, { error: () => words.firstSeenDate() }),
      ),
      status: z.enum(ERROR_STATUSES, { error: () => words.chooseStatus() }),
      notes: z.optional(z.string().check(notesLength)),
    }),
    errorPatch: z.object({
      status: z.optional(errorStatus),
      notes: z.optional(z.nullable(z.string().check(notesLength))),
    }),
    newAlertChannel: alertFields.newChannel,
    newAlertRule: alertFields.newRule,
  };
}

// POST /customers/{id}/notes, POST /errors, PATCH /errors/{id}, POST /alert-channels and /alert-rules, refused in English.
export const { newNote, newErrorRecord, errorPatch, newAlertChannel, newAlertRule } = formSchemas();
