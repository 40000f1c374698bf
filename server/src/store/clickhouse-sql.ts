/**
 * SQL for ClickHouse 18.16 (Debian's) and current releases alike. 18.16 has no query
 * parameters, so values are written into the SQL as literals, quoted by ClickHouse's rules for
 * string literals (backslash escapes); numbers must be finite.
 */
export type Value = string | number;

export function literal(value: Value): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replace(/[\\'\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`))}'`;
}

/** Puts the values into the `?` of a SQL template, in order (the template itself holds no `?` of its own). */
export function bind(sql: string, params: readonly Value[]): string {
  const parts = sql.split('?');
  if (parts.length - 1 !== params.length) throw new Error(`${parts.length - 1} placeholders for ${params.length} values`);
  return parts.reduce((out, part, i) => out + literal(params[i - 1]!) + part);
}

/**
 * `quantileExact(level)` answers the value at index ⌊level·n⌋ of the sorted values; the
 * nearest rank the console reports is at ⌈q·n⌉ − 1. Since q·n is a multiple of 1/100 for the
 * levels used, a level a hair below q gives exactly the nearest rank for any n below 10⁹.
 */
export const nearestRank = (q: number, column: string) => `quantileExact(${(q - 1e-11).toFixed(12)})(${column})`;

/** `position` takes the needle literally: no LIKE wildcards from the query string. */
export const contains = (column: string) => `position(${column}, ?) > 0`;
