/**
 * The records interface: the small, editable things the console keeps (customers, webhooks,
 * error records, notes, history, activity, keys, deprecations, alerts, idempotency keys), and
 * `RecordStore`, which DuckDB and PostgreSQL implement once (records/sql-records.ts).
 */
import type { Person } from '@ops-console/contract/request-event';

export interface CustomerRecord {
  id: string;
  name: string;
  createdAt: string;
  plan: string;
  status: string;
  owner: Person;
}

export interface WebhookRecord {
  id: string;
  name: string;
  customer: { id: string; name: string };
  owner: Person;
  /** `METHOD route` of the endpoints the webhook relates to. */
  endpoints: string[];
  /** The day it was registered (`YYYY-MM-DD`). */
  createdAt: string;
}

export interface NoteRecord {
  id: string;
  customerId: string;
  text: string;
  author: Person;
  createdAt: string;
  /** For newest-first order within a day. */
  ts: number;
}

export interface HistoryRecord {
  customerId: string;
  kind: string;
  actor: Person;
  at: string;
  ts: number;
}

export interface ErrorRecordRow {
  id: string;
  code: number;
  title: string;
  /** `METHOD route`. */
  endpoint: string;
  /** The count the person entered; the shown count is computed from events. */
  enteredCount: number;
  firstSeen: string;
  status: string;
  notes: string | null;
  owner: Person;
  version: number;
  createdTs: number;
}

export interface ActivityRecord {
  id: string;
  kind: string;
  actor: Person;
  text: string;
  ts: number;
  /** What the item is about (e.g. an endpoint), so a detector does not repeat itself. */
  subject: string | null;
  /** Where the item leads, when the host named it (`{ kind: 'customer', id }`). */
  target?: { kind: string; id: string } | null;
}

/** A deprecated endpoint (in one API version, or in all) and when it turns off. */
export interface DeprecationRecord {
  id: string;
  method: string;
  route: string;
  apiVersion: string | null;
  sunsetAt: number;
  replacement: string | null;
  docsUrl: string | null;
  /** Who deprecated it: the activity items about it name them. */
  actor: Person;
  /** When "turned off the deprecated endpoint …" was recorded for the current sunset; null until then. */
  turnedOffAt: number | null;
}

/** An API key the host registered (PUT /admin/v1/keys/{id}). Times are epoch milliseconds. */
export interface KeyRecord {
  id: string;
  name: string;
  customerId: string;
  createdAt: number;
  /** When it stopped being valid; null while it is. */
  revokedAt: number | null;
}

/** A version whose documentation was published. */
export interface PublishedVersion {
  version: string;
  publishedAt: number;
  docsUrl: string | null;
}

export interface Remembered {
  /** A digest of the request that first used the key. */
  fingerprint: string;
  status: number;
  body: unknown;
  /** When the key was first used (epoch ms); keys are forgotten after `IDEMPOTENCY_TTL_MS`. */
  at?: number;
}

/** How long an Idempotency-Key's first answer is kept: a retry within a day gets it again. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/**
 * The stored answers an account's Idempotency-Keys may take (as JSON text): beyond it, its
 * oldest keys are forgotten before their day is up, so one key of one account cannot fill the disk.
 */
export const IDEMPOTENCY_BYTES_PER_ACCOUNT = 16 * 1024 * 1024;

/** Where alerts go: `secret` signs webhook deliveries and is never answered. */
export interface AlertChannelRecord {
  id: string;
  kind: 'webhook' | 'slack' | 'email';
  name: string;
  url?: string;
  secret?: string;
  to?: string;
  createdAt: number;
}

export interface AlertRuleRecord {
  id: string;
  name: string;
  metric: 'errorRate' | 'p95' | 'p99' | 'requestsAbove' | 'requestsBelow' | 'spike';
  scope: { endpointId?: string; customerId?: string; keyId?: string };
  threshold: number;
  window: string;
  for: string;
  channelIds: string[];
  createdAt: number;
  /** Until when (epoch ms) no channel is told of its alerts. */
  silencedUntil?: number | null;
}

export interface SloRecord {
  id: string;
  name: string;
  objective: 'availability' | 'latency';
  targetPct: number;
  thresholdMs?: number;
  period: '7d' | '28d' | '30d';
  scope: { endpointId?: string; customerId?: string };
  channelIds: string[];
  createdAt: number;
  silencedUntil?: number | null;
}

/** What the evaluator watches: an alert rule or an SLO. */
export type Watched = { rule: AlertRuleRecord; slo?: undefined } | { slo: SloRecord; rule?: undefined };

/** A rule between evaluations: since when its condition holds, its last value, and its firing alert. */
export interface AlertRuleState {
  holdingSince: number | null;
  value: number | null;
  evaluatedAt: number | null;
  alertId: string | null;
}

export interface AlertNotificationRecord {
  channelId: string;
  event: 'firing' | 'resolved' | 'test';
  /** `silenced`: the rule was silenced, nothing was sent. */
  status: 'delivered' | 'failed' | 'silenced';
  attempts: number;
  at: number;
  error: string | null;
}

export interface AlertRecord {
  id: string;
  ruleId: string;
  ruleName: string;
  /** The rule's metric, or `burnRate` for an SLO's alert. */
  metric: AlertRuleRecord['metric'] | 'burnRate';
  scope: AlertRuleRecord['scope'];
  state: 'firing' | 'resolved';
  value: number;
  threshold: number;
  startedAt: number;
  endedAt: number | null;
  notifications: AlertNotificationRecord[];
}

export interface RecordStore {
  upsertCustomer(accountId: string, customer: CustomerRecord): Promise<'created' | 'updated'>;
  customer(accountId: string, id: string): Promise<CustomerRecord | undefined>;
  /** Every customer of the account (the host upserts them; an account has hundreds, not millions). */
  customers(accountId: string): Promise<CustomerRecord[]>;
  addNote(accountId: string, note: NoteRecord): Promise<void>;
  notes(accountId: string, customerId: string): Promise<NoteRecord[]>;
  addHistory(accountId: string, item: HistoryRecord): Promise<void>;
  history(accountId: string, customerId: string): Promise<HistoryRecord[]>;
  upsertWebhook(accountId: string, webhook: WebhookRecord): Promise<'created' | 'updated'>;
  webhook(accountId: string, id: string): Promise<WebhookRecord | undefined>;
  /** Every webhook of the account (registered by the host, like customers: hundreds, not millions). */
  webhooks(accountId: string): Promise<WebhookRecord[]>;
  createError(accountId: string, record: ErrorRecordRow): Promise<void>;
  error(accountId: string, id: string): Promise<ErrorRecordRow | undefined>;
  /** Newest first. */
  errors(accountId: string, query: { status?: string; endpoint?: string; limit: number; offset: number }): Promise<ErrorRecordRow[]>;
  /** Applies the change when the stored version is `expectedVersion` (or always without one). */
  updateError(
    accountId: string,
    id: string,
    change: { status?: string; notes?: string | null },
    expectedVersion: number | undefined,
  ): Promise<ErrorRecordRow | 'missing' | 'conflict'>;
  addActivity(accountId: string, item: ActivityRecord): Promise<void>;
  /** Newest first. */
  activity(accountId: string, query: { kind?: string; limit: number; offset: number }): Promise<ActivityRecord[]>;
  latestActivity(accountId: string, kind: string, subject: string): Promise<ActivityRecord | undefined>;
  /** Creates or replaces a deprecation; a new sunset (or none before) waits to be turned off again. */
  upsertDeprecation(accountId: string, record: Omit<DeprecationRecord, 'turnedOffAt'>): Promise<'created' | 'updated'>;
  deprecation(accountId: string, id: string): Promise<DeprecationRecord | undefined>;
  /** Every deprecation of the account, soonest sunset first. */
  deprecations(accountId: string): Promise<DeprecationRecord[]>;
  /** Marks the deprecation turned off at its sunset, if it is due (sunset ≤ `now`) and not yet marked; says whether this call marked it. */
  turnOff(accountId: string, id: string, now: number): Promise<boolean>;
  /** Records a published version, or replaces its date and link. */
  publishVersion(accountId: string, version: PublishedVersion): Promise<'created' | 'updated'>;
  /** Every published version of the account, by version. */
  publishedVersions(accountId: string): Promise<PublishedVersion[]>;
  /** Sets a customer's rate limit (requests a minute); answers the limit it replaced, if any. */
  setRateLimit(accountId: string, customerId: string, requestsPerMinute: number): Promise<number | undefined>;
  /** Every customer's rate limit that was set, by customer id. */
  rateLimits(accountId: string): Promise<Map<string, number>>;
  /** Creates or replaces an API key. */
  upsertKey(accountId: string, key: KeyRecord): Promise<'created' | 'updated'>;
  key(accountId: string, id: string): Promise<KeyRecord | undefined>;
  /** Every registered key of the account (hundreds or thousands, not millions), by id. */
  keys(accountId: string): Promise<KeyRecord[]>;
  upsertAlertChannel(accountId: string, channel: AlertChannelRecord): Promise<'created' | 'updated'>;
  alertChannel(accountId: string, id: string): Promise<AlertChannelRecord | undefined>;
  alertChannels(accountId: string): Promise<AlertChannelRecord[]>;
  deleteAlertChannel(accountId: string, id: string): Promise<void>;
  /** Creates or replaces a rule; a new one is due at once. */
  upsertAlertRule(accountId: string, rule: AlertRuleRecord, options?: { reset?: boolean }): Promise<'created' | 'updated'>;
  alertRule(accountId: string, id: string): Promise<AlertRuleRecord | undefined>;
  alertRules(accountId: string): Promise<AlertRuleRecord[]>;
  deleteAlertRule(accountId: string, id: string): Promise<void>;
  /**
   * Claims every account's rules due at `now` until `until`, in one statement: each rule is
   * claimed by one server, however many evaluate at once. Answers the claimed rules and their state.
   */
  claimDueRules(now: number, until: number): Promise<(Watched & { accountId: string; state: AlertRuleState })[]>;
  upsertSlo(accountId: string, slo: SloRecord, options?: { reset?: boolean }): Promise<'created' | 'updated'>;
  slo(accountId: string, id: string): Promise<SloRecord | undefined>;
  slos(accountId: string): Promise<SloRecord[]>;
  deleteSlo(accountId: string, id: string): Promise<void>;
  /** Every rule's state in the account, by rule id. */
  alertRuleStates(accountId: string): Promise<Map<string, AlertRuleState>>;
  /**
   * Saves the state an evaluation reached, if the rule is still claimed by it (`claimedUntil`, what
   * the claim set): not after the rule was changed, removed or claimed again. Says whether it saved.
   */
  saveAlertRuleState(accountId: string, ruleId: string, state: AlertRuleState, claimedUntil: number): Promise<boolean>;
  /** Adds what became of an alert's notifications, under the row's lock: a resolve saved meanwhile is kept. */
  appendNotifications(accountId: string, alertId: string, outcomes: readonly AlertNotificationRecord[]): Promise<void>;
  saveAlert(accountId: string, alert: AlertRecord): Promise<void>;
  alert(accountId: string, id: string): Promise<AlertRecord | undefined>;
  /** Newest first. */
  alerts(accountId: string, query: { state?: string; ruleId?: string; limit: number; offset: number }): Promise<AlertRecord[]>;
  remembered(accountId: string, key: string): Promise<Remembered | undefined>;
  /** Keeps the key's answer; the account's oldest keys go once its answers take over `budgetBytes` (default `IDEMPOTENCY_BYTES_PER_ACCOUNT`). */
  remember(accountId: string, key: string, value: Remembered, budgetBytes?: number): Promise<void>;
  /** Removes the keys first used before `ts`. */
  forgetBefore(ts: number): Promise<void>;
  /** Ends embed sessions: `session:<id>` one, `customer:<id>` every session of the customer minted before `endedAt`; kept until `keepUntil`. */
  endEmbedSessions(accountId: string, key: string, endedAt: number, keepUntil: number): Promise<void>;
  /** When each of `keys` was ended (epoch ms); keys never ended are absent. */
  embedSessionEnds(accountId: string, keys: readonly string[]): Promise<Map<string, number>>;
  /** The named secret (64 hex digits), made once by whichever server asks first and the same for every server of the store. */
  secret(name: string): Promise<string>;
  /** Runs `work` in one transaction: every write in it lands, or none does. */
  atomically<T>(work: (records: RecordStore) => Promise<T>): Promise<T>;
}
