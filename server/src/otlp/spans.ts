/**
 * OTLP server spans as request events. A span counts when its kind is SERVER and it names an
 * HTTP method; the current HTTP semantic conventions are read first (`http.request.method`,
 * `http.response.status_code`, `url.path`, `http.route`), then the older names (`http.method`,
 * `http.status_code`, `http.target`, `http.url`). Client, internal and non-HTTP spans are ignored
 * and counted; HTTP server spans that cannot be read are rejected with the reason.
 */
import { z } from 'zod';
import { fittedHeaders } from '@ops-console/contract/ingest-limits';
import type { MeasuredRequest } from '@ops-console/contract/request-event';
import { cleanText } from '@ops-console/contract/clean-text';

/** Which attributes (on the span, then on its resource) say who called and which API version answered. */
export interface OtlpAttributes {
  keyId: string[];
  customerId: string[];
  actorId: string[];
  actorName: string[];
  /** When none is set, a `/v2/…` path prefix is the version (and is left out of the route). */
  apiVersion: string[];
}

export const DEFAULT_OTLP_ATTRIBUTES: OtlpAttributes = {
  keyId: ['ops.key_id'],
  customerId: ['ops.customer_id'],
  actorId: ['user.id', 'enduser.id'],
  actorName: ['user.name'],
  apiVersion: ['ops.api_version'],
};

const SPAN_KIND_SERVER = 2;

// OTLP/JSON writes 64-bit integers as strings (numbers are accepted too); enums as integers (names accepted too).
const int64 = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]);
const anyValue = z.looseObject({
  stringValue: z.string().optional(),
  intValue: z.union([z.string(), z.number()]).optional(),
  doubleValue: z.union([z.number(), z.string()]).optional(),
  boolValue: z.boolean().optional(),
  // Header attributes (`http.request.header.<name>`) are arrays of strings.
  arrayValue: z.looseObject({ values: z.array(z.looseObject({ stringValue: z.string().optional() })).optional() }).optional(),
});
const attributes = z.array(z.looseObject({ key: z.string(), value: anyValue.optional() })).optional();
const span = z.looseObject({
  name: z.string().optional(),
  kind: z.union([z.number(), z.string()]).optional(),
  startTimeUnixNano: int64.optional(),
  endTimeUnixNano: int64.optional(),
  attributes,
});
const exportRequest = z.looseObject({
  resourceSpans: z
    .array(
      z.looseObject({
        resource: z.looseObject({ attributes }).optional(),
        scopeSpans: z.array(z.looseObject({ spans: z.array(span).optional() })).optional(),
      }),
    )
    .optional(),
});

type Span = z.infer<typeof span>;
type Attributes = Map<string, string>;

export interface SpanOutcome {
  /** Requests read from HTTP server spans. */
  requests: MeasuredRequest[];
  /** Each request's span name, for the reasons a request is refused. */
  names: string[];
  /** HTTP server spans that could not be read, with the reason. */
  rejected: string[];
  /** Spans that are not HTTP server spans. */
  ignored: number;
}

/** The requests in an export, or the reason the export itself has the wrong shape. */
export function spansToRequests(request: unknown, names: OtlpAttributes): SpanOutcome | { error: string } {
  // OTLP/JSON readers skip unknown fields, but a body with nothing of an export in it is a mistake to name.
  const fields = request !== null && typeof request === 'object' && !Array.isArray(request) ? Object.keys(request) : [];
  if (fields.length && !fields.includes('resourceSpans'))
    return { error: `Not an OTLP traces export: expected resourceSpans, got ${fields.slice(0, 3).join(', ')}.` };
  const parsed = exportRequest.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { error: `Not an OTLP traces export: ${issue.path.join('.') || 'body'}: ${issue.message}.` };
  }
  const outcome: SpanOutcome = { requests: [], names: [], rejected: [], ignored: 0 };
  for (const resourceSpans of parsed.data.resourceSpans ?? []) {
    const resource = attributeMap(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const s of scope.spans ?? []) {
        const own = attributeMap(s.attributes);
        const method = own.get('http.request.method') ?? own.get('http.method');
        if (!isServer(s) || !method) {
          outcome.ignored++;
          continue;
        }
        const read = toRequest(s, method, own, resource, names);
        if (typeof read === 'string') outcome.rejected.push(`span "${s.name ?? ''}": ${read}`);
        else {
          outcome.requests.push(read);
          outcome.names.push(s.name ?? '');
        }
      }
    }
  }
  return outcome;
}

function toRequest(s: Span, method: string, own: Attributes, resource: Attributes, names: OtlpAttributes): MeasuredRequest | string {
  const status = Number(own.get('http.response.status_code') ?? own.get('http.status_code'));
  if (!Number.isInteger(status)) return 'no http.response.status_code';
  if (s.startTimeUnixNano === undefined || s.endTimeUnixNano === undefined) return 'no start or end time';
  const start = BigInt(s.startTimeUnixNano);
  const end = BigInt(s.endTimeUnixNano);
  if (end < start) return 'ends before it starts';
  const path = pathOf(own);
  const pick = (keys: string[]) => keys.map((k) => own.get(k) ?? resource.get(k)).find((v) => v !== undefined && v !== '');
  const named = pick(names.apiVersion);
  const prefixed = named === undefined ? /^\/(v\d+)(?:\/|$)/.exec(path)?.[1] : undefined;
  let route = routeOf(own.get('http.route')) || path;
  if (prefixed && (route === `/${prefixed}` || route.startsWith(`/${prefixed}/`))) route = route.slice(prefixed.length + 1) || '/';
  const actorId = pick(names.actorId);
  const bytes = Number(own.get('http.response.body.size') ?? own.get('http.response_content_length'));
  return {
    ts: Number(start / 1_000_000n),
    method: method.toUpperCase(),
    route,
    path,
    status,
    // Nanoseconds to milliseconds, kept to the microsecond.
    durationMs: Number((end - start) / 1_000n) / 1_000,
    apiVersion: named ?? prefixed,
    keyId: pick(names.keyId),
    customerId: pick(names.customerId),
    actor: actorId ? { id: actorId, name: pick(names.actorName) ?? actorId } : undefined,
    bytes: Number.isInteger(bytes) && bytes >= 0 ? bytes : undefined,
    headers: headersOf(own, REQUEST_HEADER),
    responseHeaders: headersOf(own, RESPONSE_HEADER),
  };
}

/**
 * `http.route` as a template of the path: ASP.NET Core names its routes without the leading
 * slash (`contacts/{id}`), and Rails ends them in the optional format (`/contacts/:id(.:format)`).
 * Anything else that is no template (`*`, a URL) is left as it came, to be refused with a reason.
 */
function routeOf(route: string | undefined): string | undefined {
  if (!route) return undefined;
  const template = route.replace(/(?<=.)\(\.:format\)$/, '');
  return /^[\w{:]/.test(template) && !template.includes('://') ? `/${template}` : template;
}

const REQUEST_HEADER = 'http.request.header.';
const RESPONSE_HEADER = 'http.response.header.';

/**
 * The headers the instrumentation captured (`http.request.header.<name>` and
 * `http.response.header.<name>`, semantic conventions), fitted as the collector fits its events'
 * (so a span is never refused for them). The server masks them as it masks any event's.
 */
function headersOf(own: Attributes, prefix: string): Record<string, string> | undefined {
  const captured: Record<string, string> = {};
  for (const [key, value] of own) if (key.startsWith(prefix)) captured[key.slice(prefix.length).toLowerCase()] = value;
  return fittedHeaders(captured);
}

const isServer = (s: Span) => s.kind === SPAN_KIND_SERVER || s.kind === 'SPAN_KIND_SERVER';

/** The path without its query: `url.path`, else `http.target`, else the path of `url.full` / `http.url`. */
function pathOf(own: Attributes): string {
  const target = own.get('url.path') ?? own.get('http.target');
  if (target) return target.split('?')[0] || '/';
  const full = own.get('url.full') ?? own.get('http.url');
  if (full && URL.canParse(full)) return new URL(full).pathname;
  return '/';
}

/** Attribute values as text (OTLP sends ints as strings or numbers); arrays and maps are not needed here. */
function attributeMap(list: z.infer<typeof attributes>): Attributes {
  const map: Attributes = new Map();
  for (const { key, value } of list ?? []) {
    const v =
      value?.stringValue ??
      value?.intValue ??
      value?.doubleValue ??
      value?.boolValue ??
      // A header's values, joined as HTTP joins a repeated header's.
      value?.arrayValue?.values?.flatMap((item) => (item.stringValue === undefined ? [] : [item.stringValue])).join(', ');
    if (v !== undefined) map.set(key, cleanText(String(v)));
  }
  return map;
}
