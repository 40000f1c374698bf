/**
 * Request headers and bodies on ClickHouse, apart from the events: a MergeTree partitioned by day,
 * so that retention drops whole days (on every version, 18.16 included, whose MergeTree has no
 * TTL), and text compressed with ZSTD where the server has column codecs (19.1 on).
 * Erasure is a mutation, waited for until every part holding the customer's rows is rewritten.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { rowsOf, type Bind } from './bind.ts';
import { identifier, join, sql, type Sql } from '../../sql.ts';
import { num, payloadColumns, text } from '../../sql-rows.ts';
import { payloadOf, type RequestEvent } from '../../types.ts';

const dayPartition = (column: string) => `toYYYYMMDD(toDateTime(intDiv(${column}, 1000), 'UTC'))`;

/** Whether a server of this version takes column codecs (`CODEC(ZSTD(3))`). */
export const hasCodecs = (version: string) => Number(/^(\d+)\./.exec(version)?.[1] ?? 0) >= 19;

/** The payload table of one shard (its `Distributed` table is in schema.ts's `distributedSchema`). */
export function payloadSchema(db: string, codecs: boolean): string[] {
  const packed = (type: string) => (codecs ? `${type} CODEC(ZSTD(3))` : type);
  return [
    `CREATE TABLE IF NOT EXISTS ${db}.request_payloads_local (
       account_id String, ts Int64, seq UInt64, customer_id Nullable(String),
       headers ${packed('Nullable(String)')}, response_headers ${packed('Nullable(String)')},
       request_type Nullable(String), request_size Nullable(Int64), request_truncated Nullable(UInt8), request_text ${packed('Nullable(String)')},
       response_type Nullable(String), response_size Nullable(Int64), response_truncated Nullable(UInt8), response_text ${packed('Nullable(String)')},
       words ${packed('String')}
     ) ENGINE = MergeTree PARTITION BY ${dayPartition('ts')} ORDER BY (account_id, ts, seq)`,
  ];
}

/** Rows of `request_payloads` for the events that carry headers or bodies, each with its event's tag. */
export function payloadRows(events: readonly RequestEvent[], tags: readonly number[]): Record<string, unknown>[] {
  return events.flatMap((e, i) => {
    const payload = payloadOf(e);
    return payload ? [{ account_id: e.accountId, ts: e.ts, seq: tags[i], customer_id: e.customerId, ...payloadColumns(payload) }] : [];
  });
}

/** How often, and how long at most, an erasure looks whether its mutation is done. */
const MUTATION_POLL_MS = 100;
const MUTATION_WAIT_MS = 120_000;

/**
 * Runs a mutation of one shard's table where rows match, and waits until it has rewritten them
 * (18.16 has no mutations_sync). Answers how many rows matched; none, and nothing is rewritten.
 * Only the mutations it started are waited for: another one, pending or failing, holds nothing.
 */
async function mutate(client: ClickHouseClient, db: string, bind: Bind, table: string, mutation: Sql, where: Sql): Promise<number> {
  const local = identifier(`${db}.${table}`);
  const [row] = await rowsOf(client, sql`SELECT count() AS n FROM ${local} WHERE ${where}`, bind);
  const found = num(row?.['n']);
  if (!found) return 0;
  const mutationIds = async () =>
    (await rowsOf(client, sql`SELECT mutation_id FROM system.mutations WHERE database = ${db} AND table = ${table}`, bind)).map((r) => text(r['mutation_id']));
  const before = new Set(await mutationIds());
  await client.command(bind(sql`ALTER TABLE ${local} ${mutation} WHERE ${where}`));
  const started = (await mutationIds()).filter((id) => !before.has(id));
  const deadline = Date.now() + MUTATION_WAIT_MS;
  while (started.length) {
    const pending = await rowsOf(
      client,
      sql`SELECT count() AS n FROM system.mutations WHERE database = ${db} AND table = ${table} AND is_done = 0 AND mutation_id IN (${join(
        started.map((id) => sql`${id}`),
        ', ',
      )})`,
      bind,
    );
    if (!num(pending[0]?.['n'])) break;
    if (Date.now() > deadline) throw new Error(`ClickHouse has not finished ${table}'s mutation after ${MUTATION_WAIT_MS / 1000} s.`);
    await sleep(MUTATION_POLL_MS);
  }
  return found;
}

/** The shards whose events hold no headers of versions before payloads: none are written any more, so none come back. */
const withoutLegacyHeaders = new WeakSet<ClickHouseClient>();

/** Headers that versions before payloads kept with the events: erased and expired with the payloads. */
async function forgetLegacyHeaders(client: ClickHouseClient, db: string, bind: Bind, where: Sql): Promise<void> {
  if (withoutLegacyHeaders.has(client)) return;
  const events = identifier(`${db}.request_events_local`);
  if (!(await rowsOf(client, sql`SELECT 1 FROM ${events} WHERE headers IS NOT NULL LIMIT 1`, bind)).length) {
    withoutLegacyHeaders.add(client);
    return;
  }
  await mutate(client, db, bind, 'request_events_local', sql`UPDATE headers = NULL`, sql`${where} AND headers IS NOT NULL`);
}

/** Erases one customer's payloads on every host, and waits until their parts are rewritten. Answers how many there were. */
export async function erasePayloads(clients: readonly ClickHouseClient[], db: string, bind: Bind, accountId: string, customerId: string): Promise<number> {
  let erased = 0;
  const where = sql`account_id = ${accountId} AND customer_id = ${customerId}`;
  for (const client of clients) {
    erased += await mutate(client, db, bind, 'request_payloads_local', sql`DELETE`, where);
    await forgetLegacyHeaders(client, db, bind, where);
  }
  return erased;
}

/** Drops the days of payloads wholly before `before` (UTC days) on every host; the rest of a day is hidden by the reads' bound. */
export async function expirePayloads(clients: readonly ClickHouseClient[], db: string, bind: Bind, before: number): Promise<void> {
  const day = new Date(before);
  const oldestKept = day.getUTCFullYear() * 10_000 + (day.getUTCMonth() + 1) * 100 + day.getUTCDate();
  for (const client of clients) {
    const parts = await rowsOf(
      client,
      sql`SELECT DISTINCT partition FROM system.parts WHERE database = ${db} AND table = 'request_payloads_local' AND active`,
      bind,
    );
    for (const partition of parts.map((row) => text(row['partition']))) {
      if (/^\d{8}$/.test(partition) && Number(partition) < oldestKept)
        await client.command({ query: `ALTER TABLE ${db}.request_payloads_local DROP PARTITION ${partition}` });
    }
    await forgetLegacyHeaders(client, db, bind, sql`ts < ${before}`);
  }
}
