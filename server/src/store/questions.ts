/**
 * What the SQL telemetry stores share in answering a question (types.ts, `Question`): the
 * grouping columns and their aliases, and folding rows of (group, period, figures) into one
 * answer per group with a figure per period.
 */
import { rollupCan } from './quarter-hours.ts';
import { identifier, join, sql, type Sql } from './sql.ts';
import { num, text, type Row } from './sql-rows.ts';
import type { Counted, Deliveries, EventFilter, Group, Grouping, Latency, LatencyQuestion } from './types.ts';

/** Each grouping's column (the same in the events and the rollups; a request without a version counts under `''`) and its alias in answers. */
const GROUPINGS: Record<Grouping, { column: Sql; alias: string; value: (v: unknown) => string | number }> = {
  apiVersion: { column: sql`coalesce(api_version, '')`, alias: 'g_version', value: text },
  method: { column: sql`method`, alias: 'g_method', value: text },
  route: { column: sql`route`, alias: 'g_route', value: text },
  status: { column: sql`status`, alias: 'g_status', value: num },
  customerId: { column: sql`customer_id`, alias: 'g_customer', value: text },
  keyId: { column: sql`key_id`, alias: 'g_key', value: text },
};

/** `column AS alias, …` of the groupings, with a trailing comma when there are any (to go before other columns). */
export const groupColumns = (by: readonly Grouping[]): Sql =>
  by.length ? sql`${join(by.map((g) => sql`${GROUPINGS[g].column} AS ${identifier(GROUPINGS[g].alias)}`))}, ` : sql``;

/** The aliases, for GROUP BY, with a trailing comma when there are any. */
export const groupNames = (by: readonly Grouping[]): Sql => (by.length ? sql`${join(by.map((g) => identifier(GROUPINGS[g].alias)))}, ` : sql``);

/** The condition grouping adds: by customer (or key), requests without one are left out. */
export const groupCondition = (by: readonly Grouping[]): Sql =>
  sql`${by.includes('customerId') ? sql` AND customer_id IS NOT NULL` : sql``}${by.includes('keyId') ? sql` AND key_id IS NOT NULL` : sql``}`;

/** Whether the rollups (no customer, key or path) hold what the question asks. */
export const rollupAnswers = (filter: EventFilter, by: readonly Grouping[]) => rollupCan(filter) && !by.includes('customerId') && !by.includes('keyId');

/**
 * One entry per group, made by `make` the first time a group is seen; `add` puts a row's
 * figures in it. Without groupings there is one entry, made before any row.
 */
export function folder<T>(by: readonly Grouping[], make: (group: Group) => T) {
  const entries = new Map<string, T>();
  if (!by.length) entries.set('', make({}));
  return {
    add(row: Row, add: (entry: T) => void) {
      const values = by.map((g) => GROUPINGS[g].value(row[GROUPINGS[g].alias]));
      const key = JSON.stringify(values);
      let entry = by.length ? entries.get(key) : entries.get('');
      if (!entry) {
        entry = make(Object.fromEntries(by.map((g, i) => [g, values[i]])));
        entries.set(key, entry);
      }
      add(entry);
    },
    answers: () => [...entries.values()],
  };
}

/**
 * Counts per group and period from rows of the groupings' aliases, `i` (the period's number),
 * `r` (requests), `e` (errors) and `b` (bytes); a group's rows from several sources add up.
 */
export function countsFolder(by: readonly Grouping[], periods: number) {
  const answers = folder(by, (group): Counted => ({
    group,
    requests: Array<number>(periods).fill(0),
    errors: Array<number>(periods).fill(0),
    bytes: Array<number>(periods).fill(0),
  }));
  return {
    add: (r: Row) =>
      answers.add(r, (entry) => {
        const i = num(r['i']);
        entry.requests[i]! += num(r['r']);
        entry.errors[i]! += num(r['e']);
        entry.bytes[i]! += num(r['b']);
      }),
    answers: answers.answers,
  };
}

/** Latency per group and period from rows of the groupings' aliases, `i`, `r`, `e`, `q0`, `q1`… (the quantiles asked) and `newest`. */
export function latencyFolder(by: readonly Grouping[], periods: number, { quantiles, newest }: Pick<LatencyQuestion, 'quantiles' | 'newest'>) {
  const answers = folder(by, (group): Latency => ({
    group,
    requests: Array<number>(periods).fill(0),
    errors: Array<number>(periods).fill(0),
    quantiles: Array.from({ length: periods }, () => quantiles.map(() => 0)),
    ...(newest && { newest: Array<number>(periods).fill(0) }),
  }));
  return {
    add: (r: Row) =>
      answers.add(r, (entry) => {
        const i = num(r['i']);
        entry.requests[i] = num(r['r']);
        entry.errors[i] = num(r['e']);
        entry.quantiles[i] = quantiles.map((_, k) => num(r[`q${k}`]));
        if (entry.newest) entry.newest[i] = num(r['newest']);
      }),
    answers: answers.answers,
  };
}

/** Deliveries per webhook from rows of `webhook_id, total, ok, last` and rows of `webhook_id, i` (a period's number), `n`. */
export function deliveriesFrom(totals: readonly Row[], perPeriod: readonly Row[], periods: number): Deliveries[] {
  const answers = new Map<string, Deliveries>();
  for (const r of totals)
    answers.set(text(r['webhook_id']), {
      webhookId: text(r['webhook_id']),
      total: num(r['total']),
      delivered: num(r['ok']),
      lastTs: num(r['last']),
      perPeriod: Array<number>(periods).fill(0),
    });
  for (const r of perPeriod) {
    const found = answers.get(text(r['webhook_id']));
    if (found) found.perPeriod[num(r['i'])] = num(r['n']);
  }
  return [...answers.values()];
}
