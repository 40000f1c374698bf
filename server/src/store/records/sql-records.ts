/**
 * The records (customers, notes, history, webhooks, error records, activity, idempotency keys,
 * secrets) once, for every SQL database the console keeps them in: each record a JSON document
 * beside the columns it is looked up by. Text sorts byte by byte (`COLLATE "C"`) on every
 * engine, so pages come in the same order whichever database holds them.
 */
import { randomBytes } from 'node:crypto';
import { empty, identifier, join, sql, type Sql } from '../sql.ts';
import { num, text, type Row } from '../sql-rows.ts';
import type {
  ActivityRecord,
  AlertChannelRecord,
  AlertRecord,
  AlertRuleRecord,
  AlertRuleState,
  SloRecord,
  CustomerRecord,
  DeprecationRecord,
  ErrorRecordRow,
  HistoryRecord,
  KeyRecord,
  NoteRecord,
  PublishedVersion,
  RecordStore,
  Remembered,
  WebhookRecord,
} from '../types.ts';
import { IDEMPOTENCY_BYTES_PER_ACCOUNT } from '../record-types.ts';
import type { RecordDb } from './record-db.ts';

/** A `doc` column: DuckDB answers JSON as text, PostgreSQL as a parsed value. */
/** Answers under this many characters are weighed against their account's budget only now and then. */
const SMALL_ANSWER = 8 * 1024;
const PRUNE_EVERY = 64;
/** Small answers remembered by this process: every PRUNE_EVERY-th weighs its account's. */
let remembered = 0;

const docOf = <T>(row: Row): T => (typeof row['doc'] === 'string' ? JSON.parse(row['doc']) : row['doc']) as T;

/** The record operations over `db`; `atomically` is the engine's, since only it knows how to open a transaction. */
export function sqlRecords(db: RecordDb): Omit<RecordStore, 'atomically'> {
  const docs = async <T>(statement: Sql) => (await db.read(statement)).map((row) => docOf<T>(row));
  const first = async <T>(statement: Sql) => (await docs<T>(statement))[0];

  /** Inserts the document, or replaces the one with its id: says which it did. */
  const upsert =
    (table: 'customers' | 'webhooks' | 'api_keys' | 'alert_channels' | 'alert_rules' | 'slos') => async (accountId: string, doc: { id: string }) => {
      const name = identifier(table);
      const json = JSON.stringify(doc);
      const inserted = await db.write(
        sql`INSERT INTO ${name} (account_id, id, doc) VALUES (${accountId}, ${doc.id}, ${json}) ON CONFLICT (account_id, id) DO NOTHING RETURNING id`,
      );
      if (inserted.rows.length) return 'created' as const;
      await db.write(sql`UPDATE ${name} SET doc = ${json} WHERE account_id = ${accountId} AND id = ${doc.id}`);
      return 'updated' as const;
    };
  const byId = <T>(
    table: 'customers' | 'webhooks' | 'error_records' | 'api_keys' | 'alert_channels' | 'alert_rules' | 'alerts' | 'slos',
    accountId: string,
    id: string,
  ) => first<T>(sql`SELECT doc FROM ${identifier(table)} WHERE account_id = ${accountId} AND id = ${id}`);
  const all = <T>(table: 'customers' | 'webhooks' | 'api_keys' | 'alert_channels' | 'alert_rules' | 'slos', accountId: string) =>
    docs<T>(sql`SELECT doc FROM ${identifier(table)} WHERE account_id = ${accountId} ORDER BY id COLLATE "C"`);

  /** A customer's notes and history: appended, read newest first (in the order they came within one instant). */
  const addTo = (table: 'notes' | 'history') => async (accountId: string, item: { customerId: string; ts: number }) => {
    await db.write(
      sql`INSERT INTO ${identifier(table)} (account_id, customer_id, ts, doc) VALUES (${accountId}, ${item.customerId}, ${item.ts}, ${JSON.stringify(item)})`,
    );
  };
  const listOf = <T>(table: 'notes' | 'history', accountId: string, customerId: string) =>
    docs<T>(sql`SELECT doc FROM ${identifier(table)} WHERE account_id = ${accountId} AND customer_id = ${customerId} ORDER BY ts DESC, n DESC`);

  const deprecationsWhere = async (where: Sql) =>
    (await db.read(sql`SELECT doc, turned_off_at FROM deprecations WHERE ${where} ORDER BY sunset_at, id COLLATE "C"`)).map((row): DeprecationRecord => ({
      ...docOf<Omit<DeprecationRecord, 'turnedOffAt'>>(row),
      turnedOffAt: row['turned_off_at'] == null ? null : num(row['turned_off_at']),
    }));

  /** Makes a rule or SLO due at once (a new one with no state; a changed one keeps what it holds since and its firing alert). */
  const due = async (accountId: string, id: string, { reset = false } = {}) => {
    const state = JSON.stringify({ holdingSince: null, value: null, evaluatedAt: null, alertId: null } satisfies AlertRuleState);
    // Any claim under way loses (its save finds next_eval changed); `reset` also forgets what the old condition held.
    await db.write(sql`INSERT INTO alert_rule_state (account_id, rule_id, next_eval, doc) VALUES (${accountId}, ${id}, 0, ${state})
      ON CONFLICT (account_id, rule_id) DO UPDATE SET next_eval = 0${reset ? sql`, doc = ${state}` : empty}`);
  };

  return {
    upsertCustomer: upsert('customers'),
    customer: (accountId, id) => byId<CustomerRecord>('customers', accountId, id),
    customers: (accountId) => all<CustomerRecord>('customers', accountId),
    addNote: addTo('notes'),
    notes: (accountId, customerId) => listOf<NoteRecord>('notes', accountId, customerId),
    addHistory: addTo('history'),
    history: (accountId, customerId) => listOf<HistoryRecord>('history', accountId, customerId),
    upsertWebhook: upsert('webhooks'),
    webhook: (accountId, id) => byId<WebhookRecord>('webhooks', accountId, id),
    webhooks: (accountId) => all<WebhookRecord>('webhooks', accountId),
    async createError(accountId, record) {
      await db.write(sql`INSERT INTO error_records (account_id, id, status, endpoint, created_ts, version, doc)
        VALUES (${accountId}, ${record.id}, ${record.status}, ${record.endpoint}, ${record.createdTs}, ${record.version}, ${JSON.stringify(record)})`);
    },
    error: (accountId, id) => byId<ErrorRecordRow>('error_records', accountId, id),
    errors: (accountId, { status, endpoint, limit, offset }) =>
      docs<ErrorRecordRow>(sql`SELECT doc FROM error_records WHERE account_id = ${accountId}
        ${status ? sql`AND status = ${status}` : empty} ${endpoint ? sql`AND endpoint = ${endpoint}` : empty}
        ORDER BY created_ts DESC, id COLLATE "C" DESC LIMIT ${limit} OFFSET ${offset}`),
    async updateError(accountId, id, change, expectedVersion) {
      // In a transaction the row stays locked until it ends: a change through another server waits instead of turning this one into a conflict.
      const current = await first<ErrorRecordRow>(sql`SELECT doc FROM error_records WHERE account_id = ${accountId} AND id = ${id} ${db.lockRows}`);
      if (!current) return 'missing';
      if (expectedVersion !== undefined && expectedVersion !== current.version) return 'conflict';
      const next: ErrorRecordRow = { ...current, ...change, version: current.version + 1 };
      // Optimistic: the row changes only if nobody changed it since it was read.
      const { changed } = await db.write(sql`UPDATE error_records SET status = ${next.status}, version = ${next.version}, doc = ${JSON.stringify(next)}
        WHERE account_id = ${accountId} AND id = ${id} AND version = ${current.version}`);
      return changed ? next : 'conflict';
    },
    async addActivity(accountId, item) {
      // A value is text or a number; an empty subject stands for none.
      await db.write(sql`INSERT INTO activity (account_id, id, kind, subject, ts, doc)
        VALUES (${accountId}, ${item.id}, ${item.kind}, NULLIF(${item.subject ?? ''}, ''), ${item.ts}, ${JSON.stringify(item)})`);
    },
    activity: (accountId, { kind, limit, offset }) =>
      docs<ActivityRecord>(sql`SELECT doc FROM activity WHERE account_id = ${accountId} ${kind ? sql`AND kind = ${kind}` : empty}
        ORDER BY ts DESC, id COLLATE "C" DESC LIMIT ${limit} OFFSET ${offset}`),
    async latestActivity(accountId, kind, subject) {
      // In a transaction, a second look at the same subject (from another server) waits until this one ends.
      await db.hold(accountId, `${kind} ${subject}`);
      return first<ActivityRecord>(
        sql`SELECT doc FROM activity WHERE account_id = ${accountId} AND kind = ${kind} AND subject = ${subject} ORDER BY ts DESC, id COLLATE "C" DESC LIMIT 1`,
      );
    },
    async upsertDeprecation(accountId, record) {
      const json = JSON.stringify(record);
      const inserted =
        await db.write(sql`INSERT INTO deprecations (account_id, id, sunset_at, doc) VALUES (${accountId}, ${record.id}, ${record.sunsetAt}, ${json})
        ON CONFLICT (account_id, id) DO NOTHING RETURNING id`);
      if (inserted.rows.length) return 'created';
      // Every SET reads the row as it was: a sunset that moved is turned off anew when it comes.
      await db.write(sql`UPDATE deprecations SET doc = ${json}, sunset_at = ${record.sunsetAt},
        turned_off_at = CASE WHEN sunset_at = ${record.sunsetAt} THEN turned_off_at ELSE NULL END
        WHERE account_id = ${accountId} AND id = ${record.id}`);
      return 'updated';
    },
    deprecation: async (accountId, id) => (await deprecationsWhere(sql`account_id = ${accountId} AND id = ${id}`))[0],
    deprecations: (accountId) => deprecationsWhere(sql`account_id = ${accountId}`),
    async turnOff(accountId, id, now) {
      const { changed } = await db.write(sql`UPDATE deprecations SET turned_off_at = sunset_at
        WHERE account_id = ${accountId} AND id = ${id} AND turned_off_at IS NULL AND sunset_at <= ${now}`);
      return changed > 0;
    },
    async publishVersion(accountId, version) {
      const json = JSON.stringify(version);
      const inserted = await db.write(sql`INSERT INTO published_versions (account_id, version, doc) VALUES (${accountId}, ${version.version}, ${json})
        ON CONFLICT (account_id, version) DO NOTHING RETURNING version`);
      if (inserted.rows.length) return 'created';
      await db.write(sql`UPDATE published_versions SET doc = ${json} WHERE account_id = ${accountId} AND version = ${version.version}`);
      return 'updated';
    },
    publishedVersions: (accountId) =>
      docs<PublishedVersion>(sql`SELECT doc FROM published_versions WHERE account_id = ${accountId} ORDER BY version COLLATE "C"`),
    async setRateLimit(accountId, customerId, requestsPerMinute) {
      // In a transaction the row stays locked: two changes through two servers each see the one before.
      const [before] = await db.read(
        sql`SELECT requests_per_minute FROM rate_limits WHERE account_id = ${accountId} AND customer_id = ${customerId} ${db.lockRows}`,
      );
      await db.write(sql`INSERT INTO rate_limits (account_id, customer_id, requests_per_minute) VALUES (${accountId}, ${customerId}, ${requestsPerMinute})
        ON CONFLICT (account_id, customer_id) DO UPDATE SET requests_per_minute = excluded.requests_per_minute`);
      return before ? num(before['requests_per_minute']) : undefined;
    },
    async rateLimits(accountId) {
      const rows = await db.read(sql`SELECT customer_id, requests_per_minute FROM rate_limits WHERE account_id = ${accountId}`);
      return new Map(rows.map((r) => [text(r['customer_id']), num(r['requests_per_minute'])]));
    },
    upsertKey: upsert('api_keys'),
    key: (accountId, id) => byId<KeyRecord>('api_keys', accountId, id),
    keys: (accountId) => all<KeyRecord>('api_keys', accountId),
    upsertAlertChannel: upsert('alert_channels'),
    alertChannel: (accountId, id) => byId<AlertChannelRecord>('alert_channels', accountId, id),
    alertChannels: (accountId) => all<AlertChannelRecord>('alert_channels', accountId),
    async deleteAlertChannel(accountId, id) {
      await db.write(sql`DELETE FROM alert_channels WHERE account_id = ${accountId} AND id = ${id}`);
    },
    async upsertAlertRule(accountId, rule, options) {
      const outcome = await upsert('alert_rules')(accountId, rule);
      await due(accountId, rule.id, options);
      return outcome;
    },
    async upsertSlo(accountId, slo, options) {
      const outcome = await upsert('slos')(accountId, slo);
      await due(accountId, slo.id, options);
      return outcome;
    },
    slo: (accountId, id) => byId<SloRecord>('slos', accountId, id),
    slos: (accountId) => all<SloRecord>('slos', accountId),
    async deleteSlo(accountId, id) {
      await db.write(sql`DELETE FROM slos WHERE account_id = ${accountId} AND id = ${id}`);
      await db.write(sql`DELETE FROM alert_rule_state WHERE account_id = ${accountId} AND rule_id = ${id}`);
    },
    alertRule: (accountId, id) => byId<AlertRuleRecord>('alert_rules', accountId, id),
    alertRules: (accountId) => all<AlertRuleRecord>('alert_rules', accountId),
    async deleteAlertRule(accountId, id) {
      await db.write(sql`DELETE FROM alert_rules WHERE account_id = ${accountId} AND id = ${id}`);
      await db.write(sql`DELETE FROM alert_rule_state WHERE account_id = ${accountId} AND rule_id = ${id}`);
    },
    async claimDueRules(now, until) {
      // One UPDATE claims the due rows: a second server's statement waits on the rows the first
      // changes, then reads their new next_eval and leaves them.
      const claimed = await db.write(sql`UPDATE alert_rule_state SET next_eval = ${until} WHERE next_eval <= ${now} RETURNING account_id, rule_id, doc`);
      const found = await Promise.all(
        claimed.rows.map(async (row) => {
          const accountId = text(row['account_id']);
          const id = text(row['rule_id']);
          const state = docOf<AlertRuleState>(row);
          if (id.startsWith('slo_')) {
            const slo = await byId<SloRecord>('slos', accountId, id);
            return slo ? [{ accountId, slo, state }] : [];
          }
          const rule = await byId<AlertRuleRecord>('alert_rules', accountId, id);
          return rule ? [{ accountId, rule, state }] : [];
        }),
      );
      return found.flat();
    },
    async alertRuleStates(accountId) {
      const rows = await db.read(sql`SELECT rule_id, doc FROM alert_rule_state WHERE account_id = ${accountId}`);
      return new Map(rows.map((row) => [text(row['rule_id']), docOf<AlertRuleState>(row)]));
    },
    async saveAlertRuleState(accountId, ruleId, state, claimedUntil) {
      const { changed } = await db.write(
        sql`UPDATE alert_rule_state SET doc = ${JSON.stringify(state)} WHERE account_id = ${accountId} AND rule_id = ${ruleId} AND next_eval = ${claimedUntil}`,
      );
      return changed > 0;
    },
    async appendNotifications(accountId, alertId, outcomes) {
      const current = await first<AlertRecord>(sql`SELECT doc FROM alerts WHERE account_id = ${accountId} AND id = ${alertId} ${db.lockRows}`);
      if (!current) return;
      const next = { ...current, notifications: [...current.notifications, ...outcomes] };
      await db.write(sql`UPDATE alerts SET doc = ${JSON.stringify(next)} WHERE account_id = ${accountId} AND id = ${alertId}`);
    },
    async saveAlert(accountId, alert) {
      const json = JSON.stringify(alert);
      await db.write(sql`INSERT INTO alerts (account_id, id, rule_id, state, started_ts, doc)
        VALUES (${accountId}, ${alert.id}, ${alert.ruleId}, ${alert.state}, ${alert.startedAt}, ${json})
        ON CONFLICT (account_id, id) DO UPDATE SET state = excluded.state, doc = excluded.doc`);
    },
    alert: (accountId, id) => byId<AlertRecord>('alerts', accountId, id),
    alerts: (accountId, { state, ruleId, limit, offset }) =>
      docs<AlertRecord>(sql`SELECT doc FROM alerts WHERE account_id = ${accountId}
        ${state ? sql`AND state = ${state}` : empty} ${ruleId ? sql`AND rule_id = ${ruleId}` : empty}
        ORDER BY started_ts DESC, id COLLATE "C" DESC LIMIT ${limit} OFFSET ${offset}`),
    async remembered(accountId, key) {
      // Two console servers given the same key at once: the second waits here until the first commits, then finds its answer.
      await db.hold(accountId, key);
      return first<Remembered>(sql`SELECT doc FROM idempotency WHERE account_id = ${accountId} AND "key" = ${key}`);
    },
    async remember(accountId, key, value, budgetBytes = IDEMPOTENCY_BYTES_PER_ACCOUNT) {
      const doc = JSON.stringify(value);
      // No ON CONFLICT: a second answer for one key is a fault, and the unique key makes its transaction fail.
      await db.write(sql`INSERT INTO idempotency (account_id, "key", doc) VALUES (${accountId}, ${key}, ${doc})`);
      // Weighing the account's answers reads them all: done for each large answer, and for every
      // PRUNE_EVERY-th small one, so what the budget is overrun by stays small too.
      if (doc.length < SMALL_ANSWER && ++remembered % PRUNE_EVERY !== 0) return;
      await db.write(sql`DELETE FROM idempotency WHERE account_id = ${accountId} AND "key" <> ${key} AND "key" IN (
        SELECT "key" FROM (
          SELECT "key", sum(length(CAST(doc AS text))) OVER (
            ORDER BY coalesce(CAST(doc->>'at' AS bigint), 0) DESC, "key" DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS newer
          FROM idempotency WHERE account_id = ${accountId}) AS weighed
        WHERE newer > ${budgetBytes})`);
    },
    async secret(name) {
      await db.write(sql`INSERT INTO secrets (name, value) VALUES (${name}, ${randomBytes(32).toString('hex')}) ON CONFLICT (name) DO NOTHING`);
      return text((await db.read(sql`SELECT value FROM secrets WHERE name = ${name}`))[0]?.['value']);
    },
    async endEmbedSessions(accountId, key, endedAt, keepUntil) {
      await db.write(sql`DELETE FROM embed_session_ends WHERE account_id = ${accountId} AND keep_until < ${endedAt}`);
      await db.write(sql`INSERT INTO embed_session_ends (account_id, "key", ended_at, keep_until) VALUES (${accountId}, ${key}, ${endedAt}, ${keepUntil})
        ON CONFLICT (account_id, "key") DO UPDATE SET ended_at = excluded.ended_at, keep_until = excluded.keep_until`);
    },
    async embedSessionEnds(accountId, keys) {
      if (!keys.length) return new Map();
      const rows = await db.read(sql`SELECT "key", ended_at FROM embed_session_ends WHERE account_id = ${accountId} AND "key" IN (${join(keys)})`);
      return new Map(rows.map((row) => [text(row['key']), num(row['ended_at'])]));
    },
    async forgetBefore(ts) {
      await db.write(sql`DELETE FROM idempotency WHERE coalesce((doc->>'at')::bigint, 0) < ${ts}`);
    },
  };
}
