/**
 * How a query's values reach ClickHouse: as query parameters (`{p0:String}`, sent apart from the
 * SQL) where the server takes them, and written in as literals only for the servers before them,
 * such as 18.16 (Debian's), the one these machines run as a process.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { forClickHouse, type Sql, type SqlValue } from '../../sql.ts';
import type { Row } from '../../sql-rows.ts';
import { inlined } from './literals.ts';

export type Bind = (query: Sql) => { query: string; query_params?: Record<string, SqlValue> };

export const asParameters: Bind = (query) => {
  const { query: text, params } = forClickHouse(query);
  return { query: text, query_params: params };
};
export const asLiterals: Bind = (query) => ({ query: inlined(query) });

/** Query parameters for ClickHouse 20 and later (they came in 19.x); literals before. */
export const bindFor = (version: string): Bind => (Number(/^(\d+)\./.exec(version)?.[1] ?? 0) >= 20 ? asParameters : asLiterals);

/** The version of the server `client` talks to. */
export async function versionOf(client: ClickHouseClient): Promise<string> {
  const [row] = await (await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })).json<{ version: string }>();
  return row?.version ?? '';
}

/** How the server `client` talks to takes values. */
export const bindOf = async (client: ClickHouseClient): Promise<Bind> => bindFor(await versionOf(client));

/** The rows `query` answers, its values bound as `bind` says. */
export async function rowsOf(client: ClickHouseClient, query: Sql, bind: Bind): Promise<Row[]> {
  return (await client.query({ ...bind(query), format: 'JSONEachRow' })).json<Row>();
}
