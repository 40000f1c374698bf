/**
 * A batch of request events kept field by field, as the ingest API's column form takes them
 * (`{ "columns": … }`, docs/console-api.md). Recording an event writes a few numbers into typed
 * arrays outside the JS heap and keeps its path: no string is made on the host's time, and a
 * batch waiting for its second is almost no work for the garbage collector. The batch becomes
 * JSON once, when it is sent.
 */
import type { IngestColumns } from '@ops-console/contract/ingest-columns';
import type { MeasuredRequest } from '@ops-console/contract/request-event';

type Person = NonNullable<MeasuredRequest['actor']>;
type Headers = NonNullable<MeasuredRequest['headers']>;
type Body = NonNullable<MeasuredRequest['requestBody']>;

/** Bytes an event costs in the column form beyond its own texts: numbers, indices, commas (a margin, not a measure). */
const EVENT_BYTES = 64;
/** Marks an absent value in an index column. */
const NONE = -1;
const FIRST_CAPACITY = 256;

/** A typed array twice as long, holding what `array` held. */
function grown<T extends Float64Array | Int32Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}

export class EventColumns {
  /** The batch's distinct texts (methods, routes, versions, keys, customers), each once. */
  readonly #strings: string[] = [];
  readonly #stringIndex = new Map<string, number>();
  #count = 0;
  /** Times are kept from this one: offsets are small numbers, cheaper to write. */
  readonly #tsBase = Date.now();
  #ts = new Float64Array(FIRST_CAPACITY);
  #status = new Float64Array(FIRST_CAPACITY);
  #durationMs = new Float64Array(FIRST_CAPACITY);
  /** Response bytes, NaN where unknown. */
  #bytes = new Float64Array(FIRST_CAPACITY);
  /** Indices into `strings` (NONE where absent), one row per field: method, route, apiVersion, keyId, customerId. */
  #indices = [0, 1, 2, 3, 4].map(() => new Int32Array(FIRST_CAPACITY));
  /** The last text of each index row and its index: most requests repeat the method, route and version before them. */
  readonly #last: (string | null | undefined)[] = [undefined, undefined, undefined, undefined, undefined];
  readonly #lastIndex = [NONE, NONE, NONE, NONE, NONE];
  /** Whether some event has a text in the index row, and whether some has none. */
  readonly #someText = [false, false, false, false, false];
  readonly #someNone = [false, false, false, false, false];
  readonly #paths: string[] = [];
  /** The rare fields, by event: absent from the batch when no event has them. */
  readonly #actors = new Map<number, Person>();
  readonly #headers = new Map<number, Headers>();
  /** What `capture` kept: response headers and both bodies, already masked. */
  readonly #payloads = { responseHeaders: new Map<number, Headers>(), requestBody: new Map<number, Body>(), responseBody: new Map<number, Body>() };
  #hasBytes = false;
  #someBytesUnknown = false;
  /** A time, status or duration that is not a finite number was added: it is written as null (the server rejects that event, not the batch). */
  #irregular = false;

  get count(): number {
    return this.#count;
  }

  /**
   * About how many bytes an event adds to a batch's JSON, for the byte bounds: its texts and a
   * margin for its numbers. Texts that repeat (routes, versions) are written once a batch but
   * counted with each event: a batch of routes that never repeat (paths as routes) stays bounded.
   */
  static bytesOf(e: MeasuredRequest): number {
    let bytes = EVENT_BYTES + e.path.length + e.route.length + textLength(e.apiVersion) + textLength(e.keyId) + textLength(e.customerId);
    if (e.actor) bytes += e.actor.id.length + e.actor.name.length + 20;
    if (e.headers) for (const name in e.headers) bytes += name.length + e.headers[name]!.length + 6;
    if (e.responseHeaders) for (const name in e.responseHeaders) bytes += name.length + e.responseHeaders[name]!.length + 6;
    // Body text is JSON-escaped on the wire: quotes and newlines take two characters.
    for (const body of [e.requestBody, e.responseBody]) if (body) bytes += 64 + body.contentType.length + Math.ceil((body.text?.length ?? 0) * 1.1);
    return bytes;
  }

  /** Adds an event, fitted to the ingest limits. */
  add(e: MeasuredRequest): void {
    const row = this.#count;
    if (row === this.#ts.length) this.#grow();
    const ts = finite(e.ts) - this.#tsBase;
    const status = finite(e.status);
    const durationMs = finite(e.durationMs);
    if (Number.isNaN(ts + status + durationMs)) this.#irregular = true;
    this.#ts[row] = ts;
    this.#status[row] = status;
    this.#durationMs[row] = durationMs;
    if (e.bytes === undefined || e.bytes === null) {
      this.#bytes[row] = NaN;
      this.#someBytesUnknown = true;
    } else {
      this.#bytes[row] = e.bytes;
      this.#hasBytes = true;
    }
    this.#index(0, row, e.method);
    this.#index(1, row, e.route);
    this.#index(2, row, e.apiVersion);
    this.#index(3, row, e.keyId);
    this.#index(4, row, e.customerId);
    this.#paths.push(e.path);
    if (e.actor) this.#actors.set(row, { id: e.actor.id, name: e.actor.name });
    // A copy: the host's hook may reuse or change its object before the batch is written.
    if (e.headers) this.#headers.set(row, { ...e.headers });
    if (e.responseHeaders) this.#payloads.responseHeaders.set(row, { ...e.responseHeaders });
    if (e.requestBody) this.#payloads.requestBody.set(row, e.requestBody);
    if (e.responseBody) this.#payloads.responseBody.set(row, e.responseBody);
    this.#count++;
  }

  #index(field: number, row: number, value: string | null | undefined): void {
    if (value !== this.#last[field]) {
      this.#last[field] = value;
      // Only texts go in `strings`: anything else (a host's hook may return it) is left out, and the server rejects an event without its method or route.
      this.#lastIndex[field] = typeof value === 'string' ? this.#stringOf(value) : NONE;
    }
    const index = this.#lastIndex[field]!;
    if (index === NONE) this.#someNone[field] = true;
    else this.#someText[field] = true;
    this.#indices[field]![row] = index;
  }

  #stringOf(value: string): number {
    let index = this.#stringIndex.get(value);
    if (index === undefined) {
      index = this.#strings.push(value) - 1;
      this.#stringIndex.set(value, index);
    }
    return index;
  }

  #grow(): void {
    this.#ts = grown(this.#ts);
    this.#status = grown(this.#status);
    this.#durationMs = grown(this.#durationMs);
    this.#bytes = grown(this.#bytes);
    this.#indices = this.#indices.map(grown);
  }

  /** The texts the events from `from` to `to` use, and their index rows pointing into those texts. */
  #textsOf(from: number, to: number): [string[], Int32Array[]] {
    const strings: string[] = [];
    const renumbered = new Map<number, number>();
    const rows = this.#indices.map((values) =>
      values.slice(from, to).map((index) => {
        if (index === NONE) return NONE;
        let mine = renumbered.get(index);
        if (mine === undefined) renumbered.set(index, (mine = strings.push(this.#strings[index]!) - 1));
        return mine;
      }),
    );
    return [strings, rows];
  }

  /**
   * The events from `from` to `to` (an index past the last) as the JSON of a column-form batch.
   * Written once a batch, so never optimized: the engine's own `join` and `JSON.stringify` do the
   * work, not a loop of script over every event.
   */
  json(from = 0, to = this.#count): string {
    const column = (name: keyof IngestColumns, values: string) => `,"${name}":${values}`;
    const whole = from === 0 && to === this.#count;
    // A part of a split batch carries only its own texts, or each part would carry all of them.
    const [strings, rows] = whole ? [this.#strings, this.#indices.map((values) => values.subarray(from, to))] : this.#textsOf(from, to);
    const indices = (field: number) => numbers(rows[field]!, this.#someNone[field] ? '-1' : undefined);
    const measured = (values: Float64Array) => numbers(values.subarray(from, to), this.#irregular ? 'NaN' : undefined);
    let json = `{"columns":{"count":${to - from},"strings":${JSON.stringify(strings)},"tsBase":${this.#tsBase}`;
    json += column('ts', measured(this.#ts));
    json += column('method', indices(0));
    json += column('route', indices(1));
    json += column('path', JSON.stringify(whole ? this.#paths : this.#paths.slice(from, to)));
    json += column('status', measured(this.#status));
    json += column('durationMs', measured(this.#durationMs));
    if (this.#someText[2]) json += column('apiVersion', indices(2));
    if (this.#someText[3]) json += column('keyId', indices(3));
    if (this.#someText[4]) json += column('customerId', indices(4));
    if (this.#hasBytes) json += column('bytes', numbers(this.#bytes.subarray(from, to), this.#someBytesUnknown ? 'NaN' : undefined));
    if (this.#actors.size) json += column('actor', sparse(this.#actors, from, to));
    if (this.#headers.size) json += column('headers', sparse(this.#headers, from, to));
    for (const name of ['responseHeaders', 'requestBody', 'responseBody'] as const)
      if (this.#payloads[name].size) json += column(name, sparse<unknown>(this.#payloads[name], from, to));
    return `${json}}}`;
  }
}

const textLength = (value: string | null | undefined) => (typeof value === 'string' ? value.length + 3 : 0);

/** A value of a number column: NaN for anything but a finite number. */
const finite = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : NaN);

/**
 * A column as a JSON array: a typed array writes its numbers as JSON does. `absent` is how the
 * column marks an event without a value (NONE in an index column, NaN in a number column), written
 * as null; neither can be part of another number's text.
 */
function numbers(values: Float64Array | Int32Array, absent?: '-1' | 'NaN'): string {
  const json = `[${values.join(',')}]`;
  return absent ? json.replaceAll(absent, 'null') : json;
}

/** A rare field's values by event, as a JSON array with nulls where events have none. */
function sparse<T>(values: Map<number, T>, from: number, to: number): string {
  const list = new Array<T | null>(to - from);
  for (let i = from; i < to; i++) list[i - from] = values.get(i) ?? null;
  return JSON.stringify(list);
}
