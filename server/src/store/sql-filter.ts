/** The WHERE clause of an event filter, with positional parameters: shared by the SQL stores. */
import type { EventFilter } from './types.ts';

export interface Where {
  sql: string;
  params: (string | number)[];
}

/** How a dialect tests that a column holds a text literally (no wildcards): DuckDB's `contains`, ClickHouse's `position`. */
export type Contains = (column: string) => string;
const duckDbContains: Contains = (column) => `contains(${column}, ?)`;

export function eventWhere(accountId: string, filter: EventFilter = {}, contains: Contains = duckDbContains): Where {
  const clauses = ['account_id = ?'];
  const params: (string | number)[] = [accountId];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params.push(value);
  };
  add('ts >= ?', filter.from);
  add('ts < ?', filter.to);
  add('method = ?', filter.method);
  add('route = ?', filter.route);
  // A request without a version is counted under '' (as the rollup stores it).
  add("coalesce(api_version, '') = ?", filter.apiVersion);
  add('status = ?', filter.status);
  if (filter.statusClass !== undefined) {
    clauses.push('status >= ? AND status < ?');
    params.push(filter.statusClass * 100, filter.statusClass * 100 + 100);
  }
  // The text is taken literally: no LIKE wildcards from the query string.
  add(contains('path'), filter.pathContains);
  add('customer_id = ?', filter.customerId);
  return { sql: clauses.join(' AND '), params };
}
