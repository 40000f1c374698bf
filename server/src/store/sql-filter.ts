/** The WHERE clause of an event filter, as typed SQL (every value a parameter): shared by the SQL stores. */
import { searchPlan } from './search-words.ts';
import { identifier, join, sql, type Sql } from './sql.ts';
import type { EventFilter } from './types.ts';

/**
 * How a dialect tests that a column holds a text literally (no wildcards): DuckDB's `contains`,
 * ClickHouse's `position`; `anyCase` compares both lower-cased.
 */
export type Contains = (column: Sql, needle: string, options?: { anyCase?: boolean }) => Sql;
const duckDbContains: Contains = (column, needle, { anyCase = false } = {}) =>
  // Both sides lower-cased by the engine, one letter to one (JavaScript's would write İ as i and a dot).
  anyCase ? sql`contains(lower(${column}), lower(${needle}))` : sql`contains(${column}, ${needle})`;

/**
 * Where the request log's search also looks: the table of kept payloads, and the instant from
 * which they are kept (`RequestQuery.payloadsFrom`). Without it, words are looked for in paths.
 * `prewhere`: ClickHouse reads the bodies only of the granules whose words match.
 */
export interface BodySearch {
  payloads: Sql;
  keptFrom: number;
  prewhere?: boolean;
}

/** The kept payloads that hold a word, by their `words` column (search-words.ts) and, where that cannot prove it, their text. */
function payloadsHolding(word: string, bounds: Sql[], bodies: BodySearch, contains: Contains): Sql {
  const plan = searchPlan(word);
  // Part of a word, as in the text: a run of word characters lies within one word of the column.
  const indexed = plan.words.map((w) => contains(identifier('words'), w));
  const checked = plan.exact
    ? []
    : [sql`(${contains(identifier('request_text'), word, { anyCase: true })} OR ${contains(identifier('response_text'), word, { anyCase: true })})`];
  if (bodies.prewhere && indexed.length)
    return sql`SELECT ts, seq FROM ${bodies.payloads} PREWHERE ${join(indexed, ' AND ')} WHERE ${join([...bounds, ...checked], ' AND ')}`;
  return sql`SELECT ts, seq FROM ${bodies.payloads} WHERE ${join([...bounds, ...indexed, ...checked], ' AND ')}`;
}

export function eventWhere(accountId: string, filter: EventFilter = {}, contains: Contains = duckDbContains, bodies?: BodySearch): Sql {
  const clauses = [sql`account_id = ${accountId}`];
  const add = (value: string | number | undefined, clause: (value: string | number) => Sql) => {
    if (value !== undefined) clauses.push(clause(value));
  };
  add(filter.from, (from) => sql`ts >= ${from}`);
  add(filter.to, (to) => sql`ts < ${to}`);
  add(filter.method, (method) => sql`method = ${method}`);
  add(filter.route, (route) => sql`route = ${route}`);
  // A request without a version is counted under '' (as the rollup stores it).
  add(filter.apiVersion, (version) => sql`coalesce(api_version, '') = ${version}`);
  add(filter.status, (status) => sql`status = ${status}`);
  add(filter.statusClass, (c) => sql`status >= ${Number(c) * 100} AND status < ${Number(c) * 100 + 100}`);
  // The text is taken literally: no LIKE wildcards from the query string.
  add(filter.pathContains, (needle) => contains(identifier('path'), String(needle)));
  // Each word in the path or, where payloads are searched, in a kept body.
  for (const word of filter.words ?? []) {
    const inPath = contains(identifier('path'), word, { anyCase: true });
    if (!bodies) clauses.push(inPath);
    else {
      const bounds = [
        sql`account_id = ${accountId}`,
        sql`ts >= ${Math.max(bodies.keptFrom, filter.from ?? -Infinity)}`,
        ...(filter.to === undefined ? [] : [sql`ts < ${filter.to}`]),
      ];
      clauses.push(sql`(${inPath} OR (has_payload = 1 AND (ts, seq) IN (${payloadsHolding(word, bounds, bodies, contains)})))`);
    }
  }
  add(filter.customerId, (customer) => sql`customer_id = ${customer}`);
  add(filter.keyId, (key) => sql`key_id = ${key}`);
  add(filter.slowerThanMs, (ms) => sql`duration_ms > ${ms}`);
  return join(clauses, ' AND ');
}
