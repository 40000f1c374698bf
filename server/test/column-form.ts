/**
 * The ingest API's column form, written and read here from its description in
 * docs/console-api.md alone, as another sender or receiver would: the tests hold the collector
 * and the server to the contract, not to each other's code.
 */

const INDEXED = new Set(['method', 'route', 'apiVersion', 'keyId', 'customerId']);

/** Events in the ingest API's column form, written as any sender could from docs/console-api.md. */
export function inColumns(events: readonly Record<string, unknown>[]) {
  const strings: string[] = [];
  const indexOf = (value: unknown) =>
    value === undefined ? null : strings.includes(value as string) ? strings.indexOf(value as string) : strings.push(value as string) - 1;
  const tsBase = Date.parse(events[0]!['ts'] as string);
  const column = (name: string, write: (value: unknown) => unknown = (value) => value ?? null) => events.map((e) => write(e[name]));
  return {
    columns: {
      count: events.length,
      strings,
      tsBase,
      ts: events.map((e) => Date.parse(e['ts'] as string) - tsBase),
      method: column('method', indexOf),
      route: column('route', indexOf),
      path: column('path'),
      status: column('status'),
      durationMs: column('durationMs'),
      apiVersion: column('apiVersion', indexOf),
      keyId: column('keyId', indexOf),
      customerId: column('customerId', indexOf),
      actor: column('actor'),
      bytes: column('bytes'),
      headers: column('headers'),
      responseHeaders: column('responseHeaders'),
      requestBody: column('requestBody'),
      responseBody: column('responseBody'),
    },
  };
}

type Columns = { count: number; strings: string[]; tsBase: number } & Record<string, unknown[]>;

/** The events of a column-form body, each without the fields it has no value for. */
export function eventsOfBody(body: string): Record<string, unknown>[] {
  const { columns } = JSON.parse(body) as { columns: Columns };
  return Array.from({ length: columns.count }, (_, i) => {
    const event: Record<string, unknown> = {};
    for (const [name, values] of Object.entries(columns)) {
      if (!Array.isArray(values) || name === 'strings' || values[i] === null) continue;
      event[name] = name === 'ts' ? columns.tsBase + (values[i] as number) : INDEXED.has(name) ? columns.strings[values[i] as number] : values[i];
    }
    return event;
  });
}
