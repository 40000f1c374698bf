/**
 * The ClickHouse telemetry's tables, and its URL: events partitioned by month, the rollups,
 * histograms, key sets and ordered durations their materialized views feed, and with a cluster
 * `Distributed` tables over them. The tables of a shard are as migration 1 made them
 * (migrations.ts): a change to them is a new migration there, never an edit here. The
 * `Distributed` tables follow the URL's cluster, so they are made on every open instead.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { GRAINS, SLOT } from './reads.ts';
import { rowsOf, type Bind } from './bind.ts';
import { DAY } from '../../period-plan.ts';
import { QUARTER_HOUR } from '../../quarter-hours.ts';
import { sql } from '../../sql.ts';

export interface Target {
  hosts: string[];
  database: string;
  username: string;
  password: string;
  cluster: string | undefined;
  retentionMonths: number | undefined;
}

export function parseClickHouseUrl(url: string): Target {
  const match = /^clickhouse:\/\/(?:([^@/]*)@)?([^/?]+)\/(\w+)\/?(?:\?(.*))?$/.exec(url);
  if (!match) throw new Error(`Expected clickhouse://host:port[,host:port…]/database, got "${url}".`);
  const credentials = match[1] ?? '';
  const colon = credentials.indexOf(':');
  const [user, password] = (colon < 0 ? [credentials, ''] : [credentials.slice(0, colon), credentials.slice(colon + 1)]).map(decodeURIComponent);
  const query = new URLSearchParams(match[4] ?? '');
  const cluster = query.get('cluster') ?? undefined;
  if (cluster !== undefined && !/^\w+$/.test(cluster)) throw new Error(`Unusable cluster name "${cluster}".`);
  const retention = query.get('retention_months');
  const retentionMonths = retention === null ? undefined : Number(retention);
  if (retentionMonths !== undefined && !(Number.isInteger(retentionMonths) && retentionMonths >= 1))
    throw new Error('retention_months must be a whole number of months, at least 1.');
  const hosts = match[2]!.split(',');
  if (hosts.length > 1 && !cluster) throw new Error('Several ClickHouse hosts are shards of a cluster: name it with ?cluster=.');
  return { hosts, database: match[3]!, username: user || 'default', password: password ?? '', cluster, retentionMonths };
}
// Months in UTC whatever the server's time zone, as retention counts them.
const monthPartition = (column: string) => `toYYYYMM(toDateTime(intDiv(${column}, 1000), 'UTC'))`;

/**
 * Which batch an event came in (its Idempotency-Key, its place in the batch, and when the server
 * took it): a retry after a failure between ClickHouse taking the events and PostgreSQL keeping
 * the key's answer adds only what is missing. Added to tables made before them where missing.
 */
const BATCH_COLUMNS = [
  ['ingest_key', "String DEFAULT ''"],
  ['ingest_index', 'UInt32 DEFAULT 0'],
  ['ingested_at', 'Int64 DEFAULT 0'],
  // Whether headers or bodies were kept for the request, in request_payloads.
  ['has_payload', 'UInt8 DEFAULT 0'],
] as const;

/** Adds the batch columns to a `request_events` table made before them (and to its `Distributed` table, where there is one). */
export async function addBatchColumns(client: ClickHouseClient, db: string, bind: Bind): Promise<void> {
  for (const table of ['request_events_local', 'request_events']) {
    const columns = await rowsOf(client, sql`SELECT name FROM system.columns WHERE database = ${db} AND table = ${table}`, bind);
    if (!columns.length) continue; // no such table
    const present = new Set(columns.map((row) => row['name']));
    for (const [name, type] of BATCH_COLUMNS) if (!present.has(name)) await client.command({ query: `ALTER TABLE ${db}.${table} ADD COLUMN ${name} ${type}` });
  }
}

/** The tables of one shard. */
export const schema = (db: string) => [
  `CREATE DATABASE IF NOT EXISTS ${db}`,
  `CREATE TABLE IF NOT EXISTS ${db}.request_events_local (
     account_id String, seq UInt64, ts Int64, method String, route String, path String, status UInt16, duration_ms Float64,
     api_version Nullable(String), key_id Nullable(String), customer_id Nullable(String),
     actor_id Nullable(String), actor_name Nullable(String), bytes Nullable(Int64), headers Nullable(String),
     ${BATCH_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')}
   ) ENGINE = MergeTree PARTITION BY ${monthPartition('ts')} ORDER BY (account_id, ts, seq)`,
  // Counts per quarter hour and per day: SummingMergeTree adds rows of the same key as parts merge, and reads sum what is not merged yet.
  ...[
    ['request_rollup', QUARTER_HOUR],
    ['request_rollup_daily', DAY],
  ].flatMap(([name, unit]) => [
    `CREATE TABLE IF NOT EXISTS ${db}.${name}_local (
       account_id String, bucket Int64, api_version String, method String, route String, status UInt16, requests UInt64, bytes Int64
     ) ENGINE = SummingMergeTree((requests, bytes)) PARTITION BY ${monthPartition('bucket')} ORDER BY (account_id, bucket, api_version, method, route, status)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${name}_feed TO ${db}.${name}_local AS
     SELECT account_id, ts - ts % ${unit} AS bucket, ifNull(api_version, '') AS api_version, method, route, status,
            count() AS requests, sum(ifNull(bytes, 0)) AS bytes
     FROM ${db}.request_events_local GROUP BY account_id, bucket, api_version, method, route, status`,
  ]),
  // Exact percentiles over long periods: requests per day (and per quarter hour, for the ragged
  // ends) and latency slot say which slot holds the wanted rank; the durations ordered by slot give
  // the value within it. Active keys likewise: the distinct keys of each day and quarter hour
  // ('' stands for requests without a key: key ids are never empty).
  ...GRAINS.flatMap(([suffix, unit]) => [
    `CREATE TABLE IF NOT EXISTS ${db}.request_latency${suffix}_local (account_id String, bucket Int64, slot UInt16, requests UInt64)
     ENGINE = SummingMergeTree((requests)) PARTITION BY ${monthPartition('bucket')} ORDER BY (account_id, bucket, slot)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.request_latency${suffix}_feed TO ${db}.request_latency${suffix}_local AS
     SELECT account_id, ts - ts % ${unit} AS bucket, ${SLOT} AS slot, count() AS requests FROM ${db}.request_events_local GROUP BY account_id, bucket, slot`,
    `CREATE TABLE IF NOT EXISTS ${db}.request_keys${suffix}_local (account_id String, bucket Int64, key_id String)
     ENGINE = ReplacingMergeTree PARTITION BY ${monthPartition('bucket')} ORDER BY (account_id, bucket, key_id)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.request_keys${suffix}_feed TO ${db}.request_keys${suffix}_local AS
     SELECT account_id, ts - ts % ${unit} AS bucket, ifNull(key_id, '') AS key_id FROM ${db}.request_events_local GROUP BY account_id, bucket, key_id`,
  ]),
  `CREATE TABLE IF NOT EXISTS ${db}.request_durations_local (account_id String, slot UInt16, ts Int64, duration_ms Float64)
   ENGINE = MergeTree PARTITION BY ${monthPartition('ts')} ORDER BY (account_id, slot, ts)`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.request_durations_feed TO ${db}.request_durations_local AS
   SELECT account_id, ${SLOT} AS slot, ts, duration_ms FROM ${db}.request_events_local`,
  `CREATE TABLE IF NOT EXISTS ${db}.webhook_deliveries_local (
     account_id String, webhook_id String, ts Int64, delivered UInt8, status Nullable(UInt16)
   ) ENGINE = MergeTree PARTITION BY ${monthPartition('ts')} ORDER BY (account_id, webhook_id, ts)`,
];

/**
 * With a cluster, `Distributed` tables of the same names without `_local`, which read and write
 * all shards: made as the shard's tables are now, on every open (a database first served
 * without a cluster gets them when one is named).
 */
export const distributedSchema = (db: string, cluster: string | undefined) =>
  cluster
    ? [
        'request_events',
        'request_rollup',
        'request_rollup_daily',
        ...GRAINS.flatMap(([suffix]) => [`request_latency${suffix}`, `request_keys${suffix}`]),
        'request_durations',
        'webhook_deliveries',
        'request_payloads',
      ].map(
        (table) =>
          `CREATE TABLE IF NOT EXISTS ${db}.${table} AS ${db}.${table}_local ENGINE = Distributed(${cluster}, ${db}, ${table}_local, sipHash64(account_id))`,
      )
    : [];
