/**
 * Request telemetry on ClickHouse, for an API that outgrows one DuckDB file: events in a
 * MergeTree partitioned by month and ordered by (account, time), a quarter-hour rollup fed by a
 * materialized view, and one per day (series over months and years read them instead of raw rows),
 * latency histograms and key sets per day and quarter hour, and a copy of the durations ordered by
 * histogram slot (so a year's p95 and active keys stay exact without reading a year of rows), whole months of
 * raw events dropped after the retention, and — with several shards — `Distributed` tables over
 * them, sharded by account: writes go through them, and an account's reads go straight to its own
 * shard (`reads.ts` holds the reads). Every console server process may share one ClickHouse; each batch
 * draws a random run of tags for its ids, so no process hands out numbers. The SQL runs on ClickHouse 18.16 (Debian's) as on current releases.
 */
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { readsOf, type TelemetryReads } from './reads.ts';
import { parseClickHouseUrl } from './schema.ts';
import { migrateClickHouse } from './migrations.ts';
import { bindOf, rowsOf, versionOf, type Bind } from './bind.ts';
import { identifier, sql, type Sql } from '../../sql.ts';
import { requestTags } from '../../../request-ids.ts';
import { storeClosed } from '../../unavailable.ts';
import { num, text } from '../../sql-rows.ts';
import { IDEMPOTENCY_TTL_MS, payloadOf, type RequestEvent, type TelemetryStore, type WebhookDelivery } from '../../types.ts';
import { erasePayloads, expirePayloads, hasCodecs, payloadRows } from './payloads.ts';

export interface ClickHouseTelemetryOptions {
  /** `clickhouse://[user[:password]@]host:port[,host:port…]/database[?cluster=name&retention_months=N]` (HTTP ports). */
  url: string;
  /** How the client reaches a host of the URL, instead of HTTP: chDB's in-process ClickHouse, for one (`chdb/connection`). */
  connection?: TelemetryConnection;
}

/**
 * A `@clickhouse/client` connection for a host of the telemetry URL, in place of HTTP. The
 * client's `connection` option is experimental and made for chDB: this is how the store suites
 * run on current ClickHouse in-process.
 */
export type TelemetryConnection = (host: string) => NonNullable<ClickHouseClientConfigOptions['connection']>;

export interface ClickHouseTelemetry extends TelemetryStore {
  /**
   * Appends the events of a batch sent with an Idempotency-Key (`key`, first taken at `at`),
   * leaving out those an earlier attempt of the same batch already added.
   */
  appendBatch(accountId: string, events: readonly RequestEvent[], batch: { key: string; at: number }): Promise<void>;
  /** Drops the whole months of raw events (and deliveries) older than the retention; the rollups stay. */
  applyRetention(now?: number): Promise<string[]>;
  /** Resolves when every listed ClickHouse host answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A read's periods and filter bounds from 1970 on: no event is older, and a bound before it
 * (the window before one in January 1970) makes ClickHouse mix signed and unsigned times.
 */
function fromEpoch(argument: unknown): unknown {
  if (Array.isArray(argument)) return argument.map(fromEpoch);
  if (argument === null || typeof argument !== 'object') return argument;
  // A question: its periods and its filter.
  if ('periods' in argument) {
    const question = argument as { periods: unknown; filter?: unknown };
    return { ...argument, periods: fromEpoch(question.periods), ...(question.filter !== undefined && { filter: fromEpoch(question.filter) }) };
  }
  const bounds = argument as { from?: unknown; to?: unknown };
  const clamp = (time: unknown) => (typeof time === 'number' ? Math.max(0, time) : time);
  return 'from' in bounds || 'to' in bounds
    ? { ...argument, ...('from' in bounds && { from: clamp(bounds.from) }), ...('to' in bounds && { to: clamp(bounds.to) }) }
    : argument;
}

export async function openClickHouseTelemetry({ url, connection }: ClickHouseTelemetryOptions): Promise<ClickHouseTelemetry> {
  const target = parseClickHouseUrl(url);
  const clients: ClickHouseClient[] = target.hosts.map((host) =>
    createClient({
      url: `http://${host}`,
      ...(connection && { connection: connection(host) }),
      username: target.username,
      password: target.password,
      request_timeout: 30_000,
      // The store reports its failures as answers (503); the client's own logging would repeat them.
      log: { level: ClickHouseLogLevel.OFF },
    }),
  );
  const db = target.database;
  let bind: Bind;
  try {
    bind = await bindOf(clients[0]!);
    const codecs = hasCodecs(await versionOf(clients[0]!));
    for (const client of clients) await migrateClickHouse({ client, db, cluster: target.cluster, bind, codecs });
  } catch (error) {
    await Promise.all(clients.map((c) => c.close()));
    throw error;
  }
  const main = clients[0]!;
  let closed = false;
  const isClosed = () => closed;
  /** The first instant whose events retention keeps: the start of the oldest kept month (UTC); −∞ without retention. */
  const retainedFrom = (now = Date.now()) => {
    if (target.retentionMonths === undefined) return -Infinity;
    const start = new Date(now);
    start.setUTCMonth(start.getUTCMonth() - target.retentionMonths, 1);
    return start.setUTCHours(0, 0, 0, 0);
  };

  // Through a Distributed table, an insert is acknowledged once every shard has its rows, not when they are queued.
  const insertSettings = target.cluster ? { insert_distributed_sync: 1 as const } : {};
  const EVENTS = `${db}.request_events${target.cluster ? '' : '_local'}`;
  const DELIVERIES = `${db}.webhook_deliveries${target.cluster ? '' : '_local'}`;
  const PAYLOADS = `${db}.request_payloads${target.cluster ? '' : '_local'}`;
  // Reads through the Distributed tables ask every shard; an account's rows are all on one, so
  // its reads go to that shard's own tables when the URL lists it.
  const everywhere = readsOf({ client: main, bind, database: db, suffix: target.cluster ? '' : '_local', retainedFrom, isClosed });
  const readsFor = target.cluster
    ? await ownShards(clients, target.cluster, bind, (client) => readsOf({ client, bind, database: db, suffix: '_local', retainedFrom, isClosed }))
    : undefined;
  const reads = async (accountId: string) => (readsFor ? ((await readsFor(accountId)) ?? everywhere) : everywhere);
  /** A read of the account's own shard. */
  const via = <K extends keyof TelemetryReads>(name: K): TelemetryReads[K] => {
    const read = async (accountId: string, ...rest: unknown[]) =>
      ((await reads(accountId))[name] as (accountId: string, ...rest: unknown[]) => Promise<unknown>)(accountId, ...rest.map(fromEpoch));
    return read as TelemetryReads[K];
  };

  /** Inserts events, each with its place in its batch and the batch's key and time (`''` and 0 without a key). */
  async function insertEvents(events: readonly { event: RequestEvent; index: number }[], batch: { key: string; at: number }): Promise<void> {
    if (!events.length) return;
    const tags = requestTags(events.length);
    // Payloads first: a failure between the two inserts leaves payloads no event points to, never an event missing its own.
    const payloads = payloadRows(
      events.map(({ event }) => event),
      tags,
    );
    if (payloads.length) await main.insert({ table: PAYLOADS, format: 'JSONEachRow', clickhouse_settings: insertSettings, values: payloads });
    await main.insert({
      table: EVENTS,
      format: 'JSONEachRow',
      clickhouse_settings: insertSettings,
      values: events.map(({ event: e, index }, i) => ({
        account_id: e.accountId,
        seq: tags[i],
        ts: e.ts,
        method: e.method,
        route: e.route,
        path: e.path,
        status: e.status,
        duration_ms: e.durationMs,
        api_version: e.apiVersion,
        key_id: e.keyId,
        customer_id: e.customerId,
        actor_id: e.actor?.id ?? null,
        actor_name: e.actor?.name ?? null,
        bytes: e.bytes,
        has_payload: payloadOf(e) ? 1 : 0,
        ingest_key: batch.key,
        ingest_index: index,
        ingested_at: batch.at,
      })),
    });
  }

  const telemetry: ClickHouseTelemetry = {
    append: (events: readonly RequestEvent[]) =>
      insertEvents(
        events.map((event, index) => ({ event, index })),
        { key: '', at: 0 },
      ),

    async appendBatch(accountId, events, batch) {
      if (!events.length) return;
      // What an earlier attempt of this batch left (its events went in, its answer was not kept);
      // the batch's own times bound the search to a few granules of the account's rows.
      let [from, to] = [Infinity, -Infinity];
      for (const e of events) [from, to] = [Math.min(from, e.ts), Math.max(to, e.ts)];
      const found = await rowsOf(
        main,
        sql`SELECT DISTINCT ingest_index AS i FROM ${identifier(EVENTS)} WHERE account_id = ${accountId} AND ts >= ${from} AND ts <= ${to}
            AND ingest_key = ${batch.key} AND ingested_at >= ${batch.at - IDEMPOTENCY_TTL_MS}`,
        bind,
      );
      const present = new Set(found.map((row) => num(row['i'])));
      await insertEvents(
        events.flatMap((event, index) => (present.has(index) ? [] : [{ event, index }])),
        batch,
      );
    },

    async appendDeliveries(deliveries: readonly WebhookDelivery[]) {
      if (!deliveries.length) return;
      await main.insert({
        table: DELIVERIES,
        format: 'JSONEachRow',
        clickhouse_settings: insertSettings,
        values: deliveries.map((d) => ({ account_id: d.accountId, webhook_id: d.webhookId, ts: d.ts, delivered: d.delivered ? 1 : 0, status: d.status })),
      });
    },

    counts: via('counts'),
    latency: via('latency'),
    keys: via('keys'),
    busiestMinute: via('busiestMinute'),
    lastUsed: via('lastUsed'),
    requests: via('requests'),
    deliveries: via('deliveries'),
    payload: via('payload'),
    erasePayloads: (accountId, customerId) => erasePayloads(clients, db, bind, accountId, customerId),
    expirePayloads: (before) => expirePayloads(clients, db, bind, before),

    async applyRetention(now = Date.now()) {
      if (target.retentionMonths === undefined) return [];
      const cutoff = new Date(retainedFrom(now));
      const oldest = cutoff.getUTCFullYear() * 100 + cutoff.getUTCMonth() + 1;
      const dropped: string[] = [];
      for (const client of clients) {
        for (const local of ['request_events_local', 'request_durations_local', 'webhook_deliveries_local']) {
          const parts = await rowsOf(client, sql`SELECT DISTINCT partition FROM system.parts WHERE database = ${db} AND table = ${local} AND active`, bind);
          for (const partition of parts.map((row) => text(row['partition']))) {
            if (!/^\d{6}$/.test(partition) || Number(partition) >= oldest) continue;
            await client.command({ query: `ALTER TABLE ${db}.${local} DROP PARTITION ${partition}` });
            dropped.push(`${local} ${partition}`);
          }
        }
      }
      return dropped;
    },

    async ping() {
      if (closed) throw storeClosed();
      // SELECT 1 rather than the client's ping(): it needs the server to run a query, as readiness means.
      await Promise.all(clients.map(async (client) => (await client.query({ query: 'SELECT 1', format: 'JSONEachRow' })).json()));
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(clients.map((c) => c.close()));
    },
  };
  return telemetry;
}

/**
 * Which of the listed hosts holds an account's rows, as the `Distributed` tables shard them
 * (`sipHash64(account_id)` over the shards' weights): each host says which shard it is, and the
 * hash is ClickHouse's own, asked once per account of whichever host answers. An account whose
 * shard the URL does not list (or a cluster that cannot be read) is read through the
 * `Distributed` tables.
 */
async function ownShards<Reads>(clients: readonly ClickHouseClient[], cluster: string, bind: Bind, readsOn: (client: ClickHouseClient) => Reads) {
  const rows = (client: ClickHouseClient, query: Sql) => rowsOf(client, query, bind);
  /** The answer of the first host that gives one: any host can say these. */
  const anyHost = async (query: Sql) => {
    let failure: unknown;
    for (const client of clients) {
      try {
        return await rows(client, query);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  };
  try {
    const shards = await anyHost(
      sql`SELECT shard_num, any(shard_weight) AS weight FROM system.clusters WHERE cluster = ${cluster} GROUP BY shard_num ORDER BY shard_num`,
    );
    // Distributed's slots: each shard in order, once per unit of its weight.
    const slots = shards.flatMap((s) => Array.from({ length: num(s['weight']) }, () => num(s['shard_num'])));
    const byShard = new Map<number, Reads>();
    for (const client of clients) {
      const local = await rows(client, sql`SELECT DISTINCT shard_num FROM system.clusters WHERE cluster = ${cluster} AND is_local = 1`);
      // A host that is several shards (or none) is read through the Distributed tables.
      if (local.length === 1 && !byShard.has(num(local[0]!['shard_num']))) byShard.set(num(local[0]!['shard_num']), readsOn(client));
    }
    if (!slots.length || !byShard.size) throw new Error(`no listed host is a shard of the cluster ${cluster}`);
    // Each account's slot is asked once, also by reads that ask at the same moment (a route's
    // first reads then still join one batch); an answer that failed is asked again next time.
    const slotOf = new Map<string, Promise<number>>();
    const ask = async (accountId: string) => {
      const [row] = await anyHost(sql`SELECT sipHash64(${accountId}) % ${slots.length} AS slot`);
      return num(row?.['slot']);
    };
    return async (accountId: string): Promise<Reads | undefined> => {
      let slot = slotOf.get(accountId);
      if (!slot) {
        // A bound on what is remembered: accounts are few, but ids come from outside.
        if (slotOf.size >= 100_000) slotOf.clear();
        slot = ask(accountId);
        slotOf.set(accountId, slot);
        slot.catch(() => slotOf.delete(accountId));
      }
      return byShard.get(slots[await slot]!);
    };
  } catch (error) {
    console.warn(
      `[ops-console server] ClickHouse: reads go through the Distributed tables (to every shard): ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
