/**
 * The contract's known enum values, apart from the schemas: elements render and filter by them
 * without loading the validation code (zod and the schemas come with the first response).
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const ENDPOINT_STATUSES = ['Healthy', 'Failing', 'Slow'] as const;
export const CUSTOMER_STATUSES = ['Active', 'Expired'] as const;
export const WEBHOOK_STATUSES = ['Healthy'] as const;
/** An API key's status: used in the last 30 days, not, revoked, or seen in traffic but never registered. */
export const KEY_STATUSES = ['Active', 'Idle', 'Revoked', 'Unregistered'] as const;
/** An operator's role: `viewer` reads everything, `editor` also writes notes and error records, `admin` also uses the admin API and mints embed sessions. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
/** What a customer-scoped token (an embed session, or a JWT with a customer claim) may be limited to. */
export const CUSTOMER_VIEWS = ['overview', 'traffic', 'endpoints', 'requests', 'keys', 'webhooks', 'payloads'] as const;
/**
 * What became of a request's headers and bodies: `kept` (shown), `removed` (retention or an
 * erasure took them), `hidden` (this caller may not read them), `none` (none were captured).
 */
export const PAYLOAD_STATES = ['kept', 'removed', 'hidden', 'none'] as const;
/** Who a console is for: the API's operators, or one of its customers looking at their own usage. */
export const AUDIENCES = ['operator', 'customer'] as const;
/**
 * What an alert rule watches, in the unit the console shows: `errorRate` in percent, `p95` and
 * `p99` in ms, `requestsAbove` / `requestsBelow` in requests per window, `spike` as a multiple of
 * the same window at the same time of day on each of the previous four weeks.
 */
export const ALERT_METRICS = ['errorRate', 'p95', 'p99', 'requestsAbove', 'requestsBelow', 'spike'] as const;
/** Where an alert is sent: a signed JSON webhook, a Slack incoming webhook, or email. */
export const ALERT_CHANNEL_KINDS = ['webhook', 'slack', 'email'] as const;
/** What an SLO counts as good: a request that is not a server error, or one faster than its threshold. */
export const SLO_OBJECTIVES = ['availability', 'latency'] as const;
/** The periods an SLO's budget spans. */
export const SLO_PERIODS = ['7d', '28d', '30d'] as const;
/**
 * The SRE workbook's multi-window, multi-burn-rate alerts: burning the budget at `rate`× over both
 * the long and the short window.
 */
export const BURN_RATE_ALERTS = [
  { rate: 14.4, long: '1h', short: '5m' },
  { rate: 6, long: '6h', short: '30m' },
  { rate: 1, long: '3d', short: '6h' },
] as const;
/** An alert's lifecycle: a rule's condition holds (`pending`), held long enough (`firing`), no longer (`resolved`). */
export const ALERT_STATES = ['pending', 'firing', 'resolved'] as const;
export const ERROR_STATUSES = ['Open', 'Fixed', 'Ignored'] as const;
export const HISTORY_KINDS = ['Created', 'Updated details', 'Status changed', 'Note added', 'Assigned owner'] as const;
export const ACTIVITY_KINDS = ['rate-limit-raised', 'key-created', 'error-spike', 'docs-published', 'endpoint-deprecated'] as const;
/** Error categories of the seed, in code order: the creation form offers exactly these. */
export const ERROR_CATEGORIES = [
  { code: 400, title: 'Bad request' },
  { code: 401, title: 'Unauthorized' },
  { code: 404, title: 'Not found' },
  { code: 429, title: 'Too many requests' },
  { code: 500, title: 'Server error' },
] as const;
export const ERROR_CODES = [400, 401, 404, 429, 500] as const;
export const METRIC_UNITS = ['count', 'ms', 'bytes', 'percent'] as const;

export type HttpMethod = (typeof HTTP_METHODS)[number];
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export type ErrorStatus = (typeof ERROR_STATUSES)[number];
export type KeyStatus = (typeof KEY_STATUSES)[number];
export type HistoryKind = (typeof HISTORY_KINDS)[number];
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export const ENDPOINT_SORTS = ['requests', '-requests', 'p50Ms', '-p50Ms', 'p95Ms', '-p95Ms', 'p99Ms', '-p99Ms', 'errorPct', '-errorPct', 'recent'] as const;
export type EndpointSort = (typeof ENDPOINT_SORTS)[number];
/** GET /customers `sort`: by name (A–Z), recent requests or the day created; `-` reverses. */
export const CUSTOMER_SORTS = ['name', '-name', 'requests', '-requests', 'createdAt', '-createdAt'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
/** GET /keys `sort`: by requests in the range (most first, the default), name, the last use or the day created; `-` reverses. */
export const KEY_SORTS = ['-requests', 'requests', 'name', '-name', 'lastUsedAt', '-lastUsedAt', 'createdAt', '-createdAt'] as const;
export type KeySort = (typeof KEY_SORTS)[number];
/** GET /webhooks `sort`: by name (A–Z), share delivered or the day last sent; `-` reverses. */
export const WEBHOOK_SORTS = ['name', '-name', 'deliveredPct', '-deliveredPct', 'lastSentAt', '-lastSentAt'] as const;
export type WebhookSort = (typeof WEBHOOK_SORTS)[number];
/** GET /errors `sort`: by count or by the day first seen, `-` for most or newest first; absent, newest recorded first. */
export const ERROR_SORTS = ['count', '-count', 'firstSeen', '-firstSeen'] as const;
export type ErrorSort = (typeof ERROR_SORTS)[number];
/** The named time ranges of `range`: the last hour, 24 hours, 7 days, 30 days and 12 months. */
export const TIME_RANGES = ['1h', '24h', '7d', '30d', '12m'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
/** GET /traffic's calendar-month ranges (`12m` its default): whole months against a year earlier, not a window. */
export const MONTHLY_RANGES = ['1m', '3m', '6m', '12m'] as const;
export type MonthlyRange = (typeof MONTHLY_RANGES)[number];
/** Whether `range` names calendar months for GET /traffic: absent (its default) or one of MONTHLY_RANGES. */
export const isMonthlyRange = (range: string | null | undefined): boolean =>
  range === undefined || range === null || (MONTHLY_RANGES as readonly string[]).includes(range);
/** How a windowed series is cut: minutes for an hour, hours for a day, days for a month, months for a year. */
export const TIME_BUCKETS = ['minute', 'hour', 'day', 'month'] as const;
