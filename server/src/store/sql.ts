/**
 * Typed SQL. Every value in a `sql` template becomes a parameter, numbers included, and
 * fragments compose by nesting (`sql` inside `sql`, `join`), never by pasting strings: what is
 * not a value is the code's own text, or a name passed through `identifier`. Rendered per engine:
 * `?` for DuckDB, `$n` for PostgreSQL, `{pN:Type}` query parameters for current ClickHouse; the
 * literals 18.16 needs (it has no query parameters) are written only by `telemetry/clickhouse/literals.ts`,
 * and `telemetry/clickhouse/bind.ts` picks one or the other by the server's version.
 * Built on sql-template-tag's `Sql`, which flattens nested fragments and their values.
 */
import { Sql, empty, join as joinValues, raw } from 'sql-template-tag';

export { Sql, empty };

/** What a parameter may be: text or a finite number. */
export type SqlValue = string | number;

export function sql(strings: TemplateStringsArray, ...values: readonly (SqlValue | Sql)[]): Sql {
  return new Sql(strings, values);
}

/** Fragments or values one after another, `separator` between them (`, ` unless told). */
export const join = (parts: readonly (SqlValue | Sql)[], separator = ', '): Sql => (parts.length ? joinValues(parts, separator) : empty);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** A table or column the code names (`ops.request_events`): letters, digits, `_`, one `.`; anything else is refused. */
export function identifier(name: string): Sql {
  if (!NAME.test(name)) throw new Error(`Not a plain SQL name: ${JSON.stringify(name)}`);
  return raw(name);
}

/** The values of a fragment, each checked: text, or a finite number. */
export function valuesOf(query: Sql): SqlValue[] {
  return query.values.map((value) => {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    throw new Error(`Not a SQL value (text or a finite number): ${String(value)}`);
  });
}

/** For DuckDB: `?` placeholders and their values in order. */
export const forDuckDb = (query: Sql): { sql: string; params: SqlValue[] } => ({ sql: query.sql, params: valuesOf(query) });

/** For PostgreSQL (`pg`): `$1`, `$2`… and their values. */
export const forPostgres = (query: Sql): { text: string; values: SqlValue[] } => ({ text: query.text, values: valuesOf(query) });

/** For ClickHouse with query parameters (not 18.16): `{p0:String}`, `{p1:Int64}`… and their values by name. */
export function forClickHouse(query: Sql): { query: string; params: Record<string, SqlValue> } {
  const values = valuesOf(query);
  const params: Record<string, SqlValue> = {};
  let text = query.strings[0]!;
  values.forEach((value, i) => {
    params[`p${i}`] = value;
    const type = typeof value === 'string' ? 'String' : Number.isSafeInteger(value) ? 'Int64' : 'Float64';
    text += `{p${i}:${type}}${query.strings[i + 1]!}`;
  });
  return { query: text, params };
}
