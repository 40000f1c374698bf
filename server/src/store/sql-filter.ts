/** The WHERE clause of an event filter, with positional parameters: shared by the SQL stores. */
import type { EventFilter } from './types.ts';

export interface Where {
  sql: string;
  params: (string | number)[];
}

export function eventWhere(accountId: string, filter: EventFilter = {}): Where {
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
  // contains() takes the text literally: no LIKE wildcards from the query string.
  add('contains(path, ?)', filter.pathContains);
  add('customer_id = ?', filter.customerId);
  return { sql: clauses.join(' AND '), params };
}
