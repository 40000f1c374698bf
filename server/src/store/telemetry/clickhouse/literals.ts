/**
 * The one place SQL values are written into SQL text: for ClickHouse 18.16 (Debian's), which has
 * no query parameters. Text is quoted by ClickHouse's rules for string literals (backslash
 * escapes); numbers must be finite. Everything else renders parameters (`sql.ts`).
 */
import { valuesOf, type Sql, type SqlValue } from '../../sql.ts';

export function literal(value: SqlValue): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replace(/[\\'\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`))}'`;
}

/** The query with its values written in as literals. */
export function inlined(query: Sql): string {
  const values = valuesOf(query);
  return values.reduce<string>((text, value, i) => text + literal(value) + query.strings[i + 1]!, query.strings[0]!);
}
