/**
 * The DuckDB store's telemetry: the request events (appended with their quarter-hour rollup by
 * the store) and the webhook deliveries, read with one connection per read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { split } from '../../quarter-hours.ts';
import { eventWhere } from '../../sql-filter.ts';
import { raw } from 'sql-template-tag';
import { forDuckDb, identifier, join, sql, type Sql } from '../../sql.ts';
import { num, payloadOfRow, requestWhere, storedRequestOf, text, type Row } from '../../sql-rows.ts';
import { countsFolder, deliveriesFrom, groupColumns, groupCondition, latencyFolder, rollupAnswers } from '../../questions.ts';
import type { RequestEvent, RequestQuery, StoredRequest, TelemetryStore, WebhookDelivery } from '../../types.ts';

type Read = (query: Sql) => Promise<Row[]>;
type Write = <T>(work: (c: DuckDBConnection) => Promise<T>) => Promise<T>;

/** `CASE WHEN time >= from AND time < to THEN i … END`: the number of the range a row's time falls in (NULL for none). */
const bucketCases = (time: Sql, ranges: readonly { from: number; to: number; i: number }[]) =>
  sql`CASE ${join(
    ranges.map((r) => sql`WHEN ${time} >= ${r.from} AND ${time} < ${r.to} THEN ${r.i}`),
    ' ',
  )} END`;

/** A query as DuckDB's run takes it: its text and parameters. */
const sqlArgs = (query: Sql) => {
  const { sql: text, params } = forDuckDb(query);
  return [text, params] as const;
};

/** The telemetry over the store's reads, its appending of events, and its writer (for deliveries). */
export function duckDbTelemetry(read: Read, append: (events: readonly RequestEvent[]) => Promise<void>, write: Write): TelemetryStore {
  const telemetry: TelemetryStore = {
    async append(events: readonly RequestEvent[]) {
      if (events.length) await append(events);
    },

    async counts(accountId, { periods, filter = {}, by = [] }) {
      const answers = countsFolder(by, periods.length);
      if (!periods.length) return answers.answers();
      const where = sql`${eventWhere(accountId, { ...filter, from: undefined, to: undefined })}${groupCondition(by)}`;
      const figures = (counted: Sql, bytes: Sql) => sql`sum(${counted}) AS r, sum(CASE WHEN status >= 500 THEN ${counted} ELSE 0 END) AS e, sum(${bytes}) AS b`;
      /** Ragged edges are short and scattered: one small range query each, so each reads only its own row groups. */
      const edgeCounts = async (ranges: { from: number; to: number; i: number }[]) => {
        if (!ranges.length) return;
        const parts = ranges.map(
          (r) =>
            sql`SELECT ${r.i} AS i, ${groupColumns(by)}${figures(sql`1`, sql`coalesce(bytes, 0)`)}
             FROM request_events WHERE ${where} AND ts >= ${r.from} AND ts < ${r.to} GROUP BY ALL`,
        );
        (await read(join(parts, ' UNION ALL '))).forEach(answers.add);
      };
      const bucketed = async (table: 'request_rollup' | 'request_events', ranges: { from: number; to: number; i: number }[]) => {
        if (!ranges.length) return;
        const rollup = table === 'request_rollup';
        const time = identifier(rollup ? 'bucket' : 'ts');
        const [from, to] = [Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))];
        const rows = await read(
          sql`SELECT bucket_index AS i, ${groupColumns(by)}${rollup ? figures(sql`requests`, sql`bytes`) : figures(sql`1`, sql`coalesce(bytes, 0)`)}
         FROM (SELECT ${bucketCases(time, ranges)} AS bucket_index, * FROM ${identifier(table)} WHERE ${where} AND ${time} >= ${from} AND ${time} < ${to})
         WHERE bucket_index IS NOT NULL GROUP BY ALL`,
        );
        rows.forEach(answers.add);
      };
      if (!rollupAnswers(filter, by))
        await bucketed(
          'request_events',
          periods.map((p, i) => ({ ...p, i })),
        );
      else {
        const parts = periods.map((p) => split(p));
        await Promise.all([
          bucketed(
            'request_rollup',
            parts.flatMap((p, i) => (p.core ? [{ ...p.core, i }] : [])),
          ),
          edgeCounts(parts.flatMap((p, i) => p.edges.map((e) => ({ ...e, i })))),
        ]);
      }
      return answers.answers();
    },

    async latency(accountId, { periods, filter = {}, by = [], quantiles, newest }) {
      const answers = latencyFolder(by, periods.length, { quantiles, newest });
      if (!periods.length) return answers.answers();
      const where = eventWhere(accountId, { ...filter, from: Math.min(...periods.map((p) => p.from)), to: Math.max(...periods.map((p) => p.to)) });
      // A quantile's level is text in the query (DuckDB takes no parameter there): one of the three the type allows.
      const rows = await read(
        sql`SELECT bucket_index AS i, ${groupColumns(by)}count(*) AS r, count(*) FILTER (WHERE status >= 500) AS e,
              ${join([...quantiles.map((q, k) => sql`quantile_disc(duration_ms, ${raw(String(q))}) AS ${identifier(`q${k}`)}`), sql`max(ts) AS newest`])}
         FROM (SELECT ${bucketCases(
           sql`ts`,
           periods.map((p, i) => ({ ...p, i })),
         )} AS bucket_index, * FROM request_events WHERE ${where}${groupCondition(by)})
         WHERE bucket_index IS NOT NULL GROUP BY ALL`,
      );
      rows.forEach(answers.add);
      return answers.answers();
    },

    // Separate scans run side by side on DuckDB's threads; one scan with a FILTER per period measured slower.
    keys: (accountId, { periods, filter = {} }) =>
      Promise.all(
        periods.map(async (p) => {
          const [row] = await read(sql`SELECT count(DISTINCT key_id) AS keys FROM request_events WHERE ${eventWhere(accountId, { ...filter, ...p })}`);
          return num(row?.['keys']);
        }),
      ),

    async busiestMinute(accountId, filter) {
      const [row] = await read(
        sql`SELECT (ts // 60000) * 60000 AS m, count(*) AS n FROM request_events WHERE ${eventWhere(accountId, filter)} GROUP BY m ORDER BY n DESC, m DESC LIMIT 1`,
      );
      return row ? { at: num(row['m']), requests: num(row['n']) } : null;
    },

    async lastUsed(accountId, { keyId } = {}) {
      const rows = await read(
        sql`SELECT key_id, max(ts) AS newest FROM request_events WHERE ${eventWhere(accountId, { keyId })} AND key_id IS NOT NULL GROUP BY key_id`,
      );
      return new Map(rows.map((r) => [text(r['key_id']), num(r['newest'])]));
    },

    async requests(accountId: string, query: RequestQuery): Promise<StoredRequest[]> {
      const rows = await read(sql`SELECT * FROM request_events WHERE ${requestWhere(accountId, query)} ORDER BY ts DESC, seq DESC LIMIT ${query.limit}`);
      return rows.map(storedRequestOf);
    },

    async payload(accountId, { ts, seq }) {
      const [row] = await read(sql`SELECT * FROM request_payloads WHERE account_id = ${accountId} AND ts = ${ts} AND seq = ${seq} LIMIT 1`);
      return row ? payloadOfRow(row) : null;
    },

    erasePayloads: (accountId, customerId) =>
      write(async (c) => {
        const where = sql`account_id = ${accountId} AND customer_id = ${customerId}`;
        const erased = await c.runAndReadAll(...sqlArgs(sql`DELETE FROM request_payloads WHERE ${where}`));
        // Headers an older version kept with the events go too.
        await c.run(...sqlArgs(sql`UPDATE request_events SET headers = NULL WHERE ${where} AND headers IS NOT NULL`));
        return num(erased.getRowObjectsJS()[0]?.['Count']);
      }),

    async expirePayloads(before) {
      await write(async (c) => {
        await c.run(...sqlArgs(sql`DELETE FROM request_payloads WHERE ts < ${before}`));
        await c.run(...sqlArgs(sql`UPDATE request_events SET headers = NULL WHERE ts < ${before} AND headers IS NOT NULL`));
      });
    },

    async appendDeliveries(deliveries: readonly WebhookDelivery[]) {
      if (!deliveries.length) return;
      await write(async (c) => {
        const appender = await c.createAppender('webhook_deliveries');
        for (const d of deliveries) {
          appender.appendVarchar(d.accountId);
          appender.appendVarchar(d.webhookId);
          appender.appendBigInt(BigInt(d.ts));
          appender.appendBoolean(d.delivered);
          if (d.status === null) appender.appendNull();
          else appender.appendSmallInt(d.status);
          appender.endRow();
        }
        appender.closeSync();
      });
    },

    async deliveries(accountId, { webhookId, periods }) {
      const where = sql`account_id = ${accountId}${webhookId === undefined ? sql`` : sql` AND webhook_id = ${webhookId}`}`;
      const [totals, perPeriod] = await Promise.all([
        read(
          sql`SELECT webhook_id, count(*) AS total, count(*) FILTER (WHERE delivered) AS ok, max(ts) AS last
         FROM webhook_deliveries WHERE ${where} GROUP BY webhook_id ORDER BY webhook_id`,
        ),
        periods.length
          ? read(
              sql`SELECT webhook_id, bucket AS i, count(*) AS n
              FROM (SELECT ${bucketCases(
                sql`ts`,
                periods.map((p, i) => ({ ...p, i })),
              )} AS bucket, webhook_id FROM webhook_deliveries WHERE ${where})
         WHERE bucket IS NOT NULL GROUP BY ALL`,
            )
          : [],
      ]);
      return deliveriesFrom(totals, perPeriod, periods.length);
    },
  };
  return telemetry;
}
