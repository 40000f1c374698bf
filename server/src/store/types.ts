/**
 * The two storage interfaces of the console server. Request telemetry is append-only and read
 * through aggregates; records are the small, editable things (customers, webhooks, error
 * records, notes, history, activity, idempotency keys). The embedded default implements both
 * on one DuckDB file; other stores implement the same interfaces and run the same tests. The
 * records interface is in record-types.ts.
 */
import type { Period } from '../calendar.ts';
import type { CapturedBody } from '@ops-console/contract/captured-body';
import type { RequestEvent } from '@ops-console/contract/request-event';
import type { RecordStore, Remembered } from './record-types.ts';

export * from './record-types.ts';
export type { Person, RequestEvent } from '@ops-console/contract/request-event';
export type { CapturedBody } from '@ops-console/contract/captured-body';

/**
 * What is kept of a request besides its figures: its headers and bodies, already masked. They
 * live apart from the events, expire on their own (`retention.payloadDays`) and can be erased.
 */
export interface RequestPayload {
  headers: Record<string, string> | null;
  responseHeaders: Record<string, string> | null;
  requestBody: CapturedBody | null;
  responseBody: CapturedBody | null;
}

/** The payload of an event, or null when it carries no header and no body. */
export function payloadOf(e: RequestEvent): RequestPayload | null {
  const headers = e.headers && Object.keys(e.headers).length ? e.headers : null;
  const responseHeaders = e.responseHeaders && Object.keys(e.responseHeaders).length ? e.responseHeaders : null;
  const requestBody = e.requestBody ?? null;
  const responseBody = e.responseBody ?? null;
  return headers || responseHeaders || requestBody || responseBody ? { headers, responseHeaders, requestBody, responseBody } : null;
}

/** A stored request: `seq` (a position or a tag: server/src/request-ids.ts) orders requests that share a timestamp and makes the id. */
export interface StoredRequest extends RequestEvent {
  seq: number;
  /** Whether headers or bodies were kept with it when it was written (they may have expired or been erased since). */
  hasPayload: boolean;
}

/** Narrows the events an aggregate reads. Every field is optional; periods are [from, to). */
export interface EventFilter {
  from?: number;
  to?: number;
  method?: string;
  route?: string;
  apiVersion?: string;
  /** A status code (500) or a class (5 for 5xx). */
  status?: number;
  statusClass?: number;
  /** A substring of the concrete path. */
  pathContains?: string;
  /** Words the path holds, each, in any case (the request log's search). */
  words?: readonly string[];
  customerId?: string;
  keyId?: string;
  /** Only requests slower than this many ms (a latency SLO's bad requests); the rollups cannot answer it. */
  slowerThanMs?: number;
}

export interface RequestQuery extends EventFilter {
  limit: number;
  /** Only requests older than this position (the cursor of the previous page). */
  before?: { ts: number; seq: number };
  /** Only requests newer than this instant. */
  since?: number;
  /** Only the request with this position or tag (its id encodes it: server/src/request-ids.ts). */
  seq?: number;
  /** Search `words` in the bodies kept from this instant on too (payloads older are expired); paths only without it. */
  payloadsFrom?: number;
}

export interface WebhookDelivery {
  accountId: string;
  webhookId: string;
  ts: number;
  delivered: boolean;
  status: number | null;
}

/** What counts and latency can be grouped by. */
export type Grouping = 'apiVersion' | 'method' | 'route' | 'status' | 'customerId' | 'keyId';

/** The values of a row's grouping (only those asked; `apiVersion` is `''` for requests without one). */
export interface Group {
  apiVersion?: string;
  method?: string;
  route?: string;
  status?: number;
  customerId?: string;
  keyId?: string;
}

/** A question about the events: which periods, which events, grouped how. */
export interface Question {
  /** The periods, in order; they must not overlap. Every answer has one figure per period. */
  periods: readonly Period[];
  /** Narrows the events; its `from` and `to` are left aside (the periods say when). */
  filter?: EventFilter;
  /**
   * One row per combination of these that has requests in some period; without any, one row
   * for all requests, there even when there are none. Grouped by `customerId` (or `keyId`),
   * requests without a customer (or key) are left out.
   */
  by?: readonly Grouping[];
}

export interface Counted {
  group: Group;
  /** Per period, in the order asked. */
  requests: number[];
  /** Requests answered with status ≥ 500, per period. */
  errors: number[];
  bytes: number[];
}

/** The quantiles the console reports: median, p95, p99. */
export type Quantile = 0.5 | 0.95 | 0.99;

export interface LatencyQuestion extends Question {
  /** The nearest-rank quantiles to read, in this order. */
  quantiles: readonly Quantile[];
  /** Also the newest request's time in each period. */
  newest?: boolean;
}

export interface Latency {
  group: Group;
  requests: number[];
  errors: number[];
  /** Per period, the quantiles in the order asked (0 for a period without requests). */
  quantiles: number[][];
  /** Per period, the newest request's time (0 without requests); only when asked for. */
  newest?: number[];
}

export interface Deliveries {
  webhookId: string;
  total: number;
  delivered: number;
  /** The newest delivery's time. */
  lastTs: number;
  /** Deliveries in each period asked. */
  perPeriod: number[];
}

/**
 * Request telemetry, asked in the terms of the question, not of what one engine finds cheap:
 * each engine plans its own reads (rollups, sketches, the raw events) for the question it gets.
 */
export interface TelemetryStore {
  /** Appends every event or none. */
  append(events: readonly RequestEvent[]): Promise<void>;
  /** Requests, errors and bytes per period, per group. */
  counts(accountId: string, question: Question): Promise<Counted[]>;
  /** Nearest-rank latency quantiles (with requests and errors) per period, per group. */
  latency(accountId: string, question: LatencyQuestion): Promise<Latency[]>;
  /** Distinct key ids per period. */
  keys(accountId: string, question: Omit<Question, 'by'>): Promise<number[]>;
  /** The minute (from its start, epoch ms) with the most requests matching the filter, and how many; the latest of equals; null without requests. */
  busiestMinute(accountId: string, filter: EventFilter): Promise<{ at: number; requests: number } | null>;
  /** Each key's newest request ever (epoch ms), or only `keyId`'s; keys without requests are absent. */
  lastUsed(accountId: string, filter?: { keyId?: string }): Promise<Map<string, number>>;
  /** The request log: newest first. */
  requests(accountId: string, query: RequestQuery): Promise<StoredRequest[]>;
  /** One request's headers and bodies, or null when none are kept (never sent, expired or erased). */
  payload(accountId: string, request: { ts: number; seq: number }): Promise<RequestPayload | null>;
  /** Removes the headers and bodies of requests before this instant (`retention.payloadDays`). */
  expirePayloads(before: number): Promise<void>;
  /** Erases the headers and bodies of one customer's requests (a right-to-erasure request); the requests and figures stay. Answers how many requests had some. */
  erasePayloads(accountId: string, customerId: string): Promise<number>;
  appendDeliveries(deliveries: readonly WebhookDelivery[]): Promise<void>;
  /** Per webhook with deliveries (or just `webhookId`'s): totals, the newest one's time, and how many fell in each period. */
  deliveries(accountId: string, question: { webhookId?: string; periods: readonly Period[] }): Promise<Deliveries[]>;
}

export interface Stores {
  telemetry: TelemetryStore;
  records: RecordStore;
  /**
   * Appends a batch once per Idempotency-Key: the events and the key's answer land together, and
   * a repeat of the key (a retry after a lost acknowledgement, through any server) appends
   * nothing and gets the first answer back (`appended: false`).
   */
  appendOnce(accountId: string, key: string, answer: Remembered, events: readonly RequestEvent[]): Promise<{ answer: Remembered; appended: boolean }>;
  /** Resolves when every database behind the stores answers; rejects naming the first that does not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
