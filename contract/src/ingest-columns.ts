/**
 * The ingest API's column form: `{ "columns": { … } }`, a batch of request events written field
 * by field, which the collector sends because it costs the host API far less to write than one
 * object per event. It is read back into events here, and from then on checked and kept exactly
 * as `{ "events": [ … ] }` is: each event on its own, rejected by its index with a reason.
 */
import * as z from 'zod';

/** An index into the batch's `strings`, or null where the event has no such value. */
const index = z.number().int().min(0).nullable();
/** Optional columns: absent when no event of the batch has the field. */
const indices = z.array(index).optional();
const values = z.array(z.unknown()).optional();

export const ingestColumns = z.object(
  {
    /** How many events; every column has this many entries. */
    count: z.number().int().min(0),
    /** The batch's distinct texts, each once: methods, routes, versions, key and customer ids point into it. */
    strings: z.array(z.string()),
    /** Epoch milliseconds that every `ts` is added to. */
    tsBase: z.number(),
    /** Milliseconds from `tsBase`; null where the sender had no time it could write (the event is then rejected). */
    ts: z.array(z.number().nullable()),
    method: z.array(index),
    route: z.array(index),
    path: z.array(z.unknown()),
    status: z.array(z.unknown()),
    durationMs: z.array(z.unknown()),
    apiVersion: indices,
    keyId: indices,
    customerId: indices,
    actor: values,
    bytes: values,
    headers: values,
    responseHeaders: values,
    requestBody: values,
    responseBody: values,
  },
  'must be the column form: { count, strings, tsBase, ts, method, route, path, status, durationMs, … }',
);

export type IngestColumns = z.infer<typeof ingestColumns>;

const INDEXED = ['method', 'route', 'apiVersion', 'keyId', 'customerId'] as const;
const PLAIN = ['path', 'status', 'durationMs', 'actor', 'bytes', 'headers', 'responseHeaders', 'requestBody', 'responseBody'] as const;

/**
 * The events of a column-form batch, as `{ "events": [ … ] }` would have sent them (a null is an
 * absent field), or why the batch cannot be read. Each event's own values are checked later,
 * with the events; here only the form is.
 */
export function eventsOfColumns(input: unknown): unknown[] | string {
  const parsed = ingestColumns.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `columns${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`;
  }
  const columns = parsed.data;
  const { count, strings } = columns;
  for (const name of ['ts', ...INDEXED, ...PLAIN] as const) {
    const column = columns[name];
    if (column !== undefined && column.length !== count) return `columns.${name}: must have one entry per event (count is ${count}), not ${column.length}`;
  }
  for (const name of INDEXED) {
    const outside = columns[name]?.findIndex((i) => i !== null && i >= strings.length) ?? -1;
    if (outside !== -1) return `columns.${name}[${outside}]: must be an index into strings (0 to ${strings.length - 1}) or null`;
  }
  const events: unknown[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const ts = columns.ts[i];
    const event: Record<string, unknown> = ts === null || ts === undefined ? {} : { ts: columns.tsBase + ts };
    for (const name of INDEXED) {
      const at = columns[name]?.[i];
      if (at !== undefined && at !== null) event[name] = strings[at];
    }
    for (const name of PLAIN) {
      const value = columns[name]?.[i];
      if (value !== undefined && value !== null) event[name] = value;
    }
    events[i] = event;
  }
  return events;
}
