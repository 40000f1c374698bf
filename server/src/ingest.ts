/**
 * The ingest and admin payloads: each event is checked on its own, good ones are kept, bad
 * ones reported by index with the reason, and the kept ones are written in one transaction.
 */
import * as z from 'zod';
import { MAX_EMBED_SESSION_SECONDS } from '@ops-console/contract/access';
import { CUSTOMER_VIEWS } from '@ops-console/contract/enums';
import { eventsOfColumns } from '@ops-console/contract/ingest-columns';
import { HEADER_NAME, INGEST_LIMITS as LIMIT, INGEST_METHODS } from './limits.ts';
import type { WebhookDelivery } from './store/types.ts';
import { parseCleanJson } from '@ops-console/contract/clean-text';

// Strings arrive cleaned (server/src/text.ts): no NUL, control or bidi character, no lone surrogate.
// Each check says what the field must be in the project's words: the reasons reach the sender.
const text = (max: number) => {
  const words = `must be text of 1 to ${max.toLocaleString('en-US')} characters`;
  return z.string(words).min(1, words).max(max, words);
};
const inRange = (min: number, max: number, words: string, { whole = true } = {}) => {
  const number = z.number(words).min(min, words).max(max, words);
  return whole ? number.int(words) : number;
};
const TIME = 'must be a time from 1970 on: an ISO 8601 timestamp with its offset, or epoch milliseconds';
const timestamp = z.union(
  [
    z.iso
      .datetime({ offset: true, error: TIME })
      .transform((s) => Date.parse(s))
      .pipe(z.number().min(0, TIME)),
    inRange(0, 8_640_000_000_000_000, TIME),
  ],
  { error: TIME },
);
const person = z.object({ id: text(LIMIT.id), name: text(LIMIT.name) }, 'must be a person: { id, name }');
const HTTP_STATUS = 'must be an HTTP status from 100 to 599';

const headersInput = z
  .record(
    text(LIMIT.headerName).regex(HEADER_NAME, 'expected a lower-case header name'),
    text(LIMIT.headerValue),
    'must be an object of header names and values',
  )
  .refine((h) => Object.keys(h).length <= LIMIT.headers, `at most ${LIMIT.headers} headers`);

/**
 * A captured body: its type, its full size, and its text for textual types. Any length of text is
 * taken (the batch's byte bound holds it); the server cuts it to `capture.maxBodyBytes` (contract/src/captured-body.ts).
 */
const bodyInput = z.object(
  {
    contentType: z.string('must be a content type').max(LIMIT.contentType, `must be a content type of at most ${LIMIT.contentType} characters`),
    size: inRange(0, 2 ** 40, "must be the body's whole size in bytes, up to 1 TiB"),
    text: z.string('must be the body as text').optional(),
    truncated: z.boolean('must be true when the text was cut').optional(),
  },
  'must be a body: { contentType, size, text?, truncated? }',
);

export const requestEventInput = z.object(
  {
    ts: timestamp,
    method: z.enum(INGEST_METHODS, `must be one of ${INGEST_METHODS.join(', ')}`),
    // A route is shown as "METHOD /route" and read back from that label: no whitespace in it.
    route: text(LIMIT.route).regex(/^\/\S*$/, 'expected a route such as /contacts/{id}, without spaces'),
    path: text(LIMIT.path).startsWith('/', 'must start with /'),
    status: inRange(100, 599, HTTP_STATUS),
    durationMs: inRange(0, 86_400_000, 'must be a duration from 0 to 86,400,000 ms', { whole: false }),
    apiVersion: text(LIMIT.apiVersion).optional(),
    keyId: text(LIMIT.id).optional(),
    customerId: text(LIMIT.id).optional(),
    actor: person.optional(),
    // Up to 1 TiB per request, so sums over millions of requests stay within 64 bits.
    bytes: inRange(0, 2 ** 40, 'must be a whole number of bytes up to 1 TiB').optional(),
    // Only the headers the collector was allowed to keep; names lower-case as HTTP/2 sends them.
    headers: headersInput.optional(),
    responseHeaders: headersInput.optional(),
    requestBody: bodyInput.optional(),
    responseBody: bodyInput.optional(),
  },
  'must be an event object',
);

export const deliveryInput = z.object({
  webhookId: text(128),
  ts: timestamp,
  delivered: z.boolean(),
  status: inRange(100, 599, HTTP_STATUS).optional(),
});

export const customerInput = z.object({
  name: text(200),
  createdAt: z.iso.date().optional(),
  plan: text(100),
  status: text(50),
  owner: person,
});

export const webhookInput = z.object({
  name: text(200),
  customer: person,
  owner: person,
  endpoints: z
    .array(z.string().regex(/^[A-Z]+ \/\S*$/, 'expected "METHOD /route"'))
    .max(20)
    .default([]),
  createdAt: z.iso.date().optional(),
});

/** What an activity item can lead to: the console's drill-down kinds of one record. */
export const TARGET_KINDS = ['endpoint', 'request', 'customer', 'webhook', 'error', 'key'] as const;

export const activityInput = z.object({
  kind: text(64),
  actor: person,
  text: text(500),
  at: timestamp.optional(),
  subject: text(200).optional(),
  /** Where the item leads in the console: a drill-down kind and the record's id. */
  target: z
    .object({ kind: z.enum(TARGET_KINDS, { error: `must be one of ${TARGET_KINDS.slice(0, -1).join(', ')} or ${TARGET_KINDS.at(-1)}` }), id: text(200) })
    .optional(),
});

const DOCS_URL = 'must be an http or https URL';
const docsUrl = z.url({ protocol: /^https?$/, error: DOCS_URL }).max(2048, DOCS_URL);
const ENDPOINT = 'expected "METHOD /route", such as "DELETE /contacts"';

/** PUT /admin/v1/deprecations/{id}: the endpoint (in one API version, or in all) and its sunset. */
export const deprecationInput = z.object({
  endpoint: text(LIMIT.route + 8).regex(new RegExp(`^(${INGEST_METHODS.join('|')}) \\/\\S*$`), ENDPOINT),
  apiVersion: text(LIMIT.apiVersion).optional(),
  sunsetAt: timestamp,
  replacement: text(LIMIT.route + 8).optional(),
  docsUrl: docsUrl.optional(),
  /** Who deprecated it, for the activity feed; the console's own name without one. */
  actor: person.optional(),
});

/** PUT /admin/v1/customers/{id}/limits: the customer's rate limit. */
export const rateLimitInput = z.object({
  requestsPerMinute: inRange(1, 1_000_000_000, 'must be a whole number of requests a minute, from 1 to 1,000,000,000'),
  /** Who changed it, for the activity feed; the console's own name without one. */
  actor: person.optional(),
});

/** PUT /admin/v1/keys/{id}: an API key, its customer, and when it was created and revoked (`null` un-revokes). */
export const keyInput = z.object({
  name: text(200),
  customerId: text(LIMIT.id),
  createdAt: timestamp.optional(),
  revokedAt: timestamp.nullable().optional(),
});

/** POST /admin/v1/versions: a version's documentation was published. */
export const versionInput = z.object({
  version: text(LIMIT.apiVersion),
  publishedAt: timestamp,
  docsUrl: docsUrl.optional(),
  actor: person.optional(),
});

export interface Rejected {
  index: number;
  reason: string;
}

/** The events of a batch body: `{ "events": [...] }` (or, for request events, `{ "columns": {...} }`) as JSON, or one event per line (NDJSON). */
export function batchItems(body: string, contentType: string | undefined, field: string): unknown[] | string {
  if (/ndjson|jsonl/i.test(contentType ?? '')) {
    const items: unknown[] = [];
    const lines = body.split('\n');
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        items.push(parseCleanJson(line));
      } catch {
        items.push(new LineError(`line ${i + 1} is not JSON`));
      }
    }
    return items;
  }
  let parsed: unknown;
  try {
    parsed = parseCleanJson(body);
  } catch {
    return 'The body is not JSON.';
  }
  const batch = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (field === 'events' && 'columns' in batch) return 'events' in batch ? 'Send either events or columns, not both.' : eventsOfColumns(batch['columns']);
  const list = batch[field];
  return Array.isArray(list) ? list : `Send { "${field}": [ … ] }${field === 'events' ? ', { "columns": { … } }' : ''} or NDJSON.`;
}

/** An NDJSON line that could not be read: rejected with its reason, like an invalid event. */
export class LineError {
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

/** Issues named in one item's reason, and the reason's length at most: an answer's size follows its count of rejections, not what they hold. */
const MAX_ISSUES = 3;
const MAX_REASON = 300;

/** `field: what is wrong; …`, the first issues, then how many more; cut to its length. */
function reasonOf(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const named = issues.slice(0, MAX_ISSUES).map((i) => `${i.path.map(String).join('.') || 'event'}: ${i.message}`);
  if (issues.length > MAX_ISSUES) named.push(`and ${issues.length - MAX_ISSUES} more`);
  const reason = named.join('; ');
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}

/** The valid items with their index in the batch, and the others with the reason. */
export function sortOut<T>(items: readonly unknown[], schema: z.ZodType<T>): { good: { index: number; value: T }[]; rejected: Rejected[] } {
  const good: { index: number; value: T }[] = [];
  const rejected: Rejected[] = [];
  for (const [index, item] of items.entries()) {
    if (item instanceof LineError) {
      rejected.push({ index, reason: item.reason });
      continue;
    }
    const result = schema.safeParse(item);
    if (result.success) good.push({ index, value: result.data });
    else rejected.push({ index, reason: reasonOf(result.error.issues) });
  }
  return { good, rejected };
}

/**
 * Moves items stamped later than `latest` to the rejected ones: "so far" figures read up to now,
 * so a time in the future is a clock problem, not traffic.
 */
export function upTo<T extends { ts: number }>(good: { index: number; value: T }[], rejected: Rejected[], latest: number): T[] {
  const kept = good.flatMap(({ index, value }) => {
    if (value.ts <= latest) return [value];
    rejected.push({ index, reason: 'ts: more than 5 minutes in the future' });
    return [];
  });
  rejected.sort((a, b) => a.index - b.index);
  return kept;
}

export function toDelivery(accountId: string, d: z.infer<typeof deliveryInput>): WebhookDelivery {
  return { accountId, webhookId: d.webhookId, ts: d.ts, delivered: d.delivered, status: d.status ?? null };
}

/** POST /admin/v1/embed-sessions: a short-lived token for one customer's console. */
export const embedSessionInput = z.object({
  customerId: text(LIMIT.id),
  expiresInSeconds: inRange(1, MAX_EMBED_SESSION_SECONDS, `must be whole seconds from 1 to ${MAX_EMBED_SESSION_SECONDS}`),
  views: z
    .array(z.enum(CUSTOMER_VIEWS, `must be views among ${CUSTOMER_VIEWS.join(', ')}`))
    .max(CUSTOMER_VIEWS.length)
    .optional(),
});
