/**
 * The order the list routes define for `sort` (GET /customers, GET /webhooks): `-` reverses,
 * numbers by value, text by its letters in any case with the numbers in it read as numbers,
 * ties by id. The mocks and the console server both sort with it, so they cannot disagree.
 */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function sortRows<T extends { id: string }>(rows: T[], sort: string): T[] {
  const key = sort.replace(/^-/, '') as keyof T;
  const sign = sort.startsWith('-') ? -1 : 1;
  return rows.sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return sign * order || a.id.localeCompare(b.id);
  });
}

/** A key as GET /keys sorts it: the row's own fields, and any others it carries. */
interface SortedKey {
  id: string;
  name: string | null;
  requests: number;
  lastUsedAt: string | null;
  createdAt: string | null;
}

/**
 * GET /keys's order: `sortRows`'s, with a key without a name under its id, and one never used
 * (or never registered) before the rest by last use (or creation), after them reversed.
 */
export function sortKeys<T extends SortedKey>(rows: readonly T[], sort: string): T[] {
  const sortable = rows.map((row) => ({
    id: row.id,
    name: row.name ?? row.id,
    requests: row.requests,
    lastUsedAt: row.lastUsedAt ?? '',
    createdAt: row.createdAt ?? '',
    row,
  }));
  return sortRows(sortable, sort).map((s) => s.row);
}
