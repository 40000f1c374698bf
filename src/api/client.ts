import type * as z from 'zod/mini';
import { configError, ConsoleApiError, httpWords } from './errors.ts';
import { msg, plural, renderingLanguage, str } from '../localize/localize.ts';
import { loadValidation, type Validation } from './load-validation.ts';
import type * as schema from './schemas.ts';
import { ROUTES, type ConsoleRouteName } from '@ops-console/contract/routes';
import type {
  ActivityItem,
  Alert,
  AlertChannel,
  AlertChannelPatch,
  AlertNotification,
  AlertRule,
  AlertRulePatch,
  NewAlertChannel,
  NewAlertRule,
  NewSlo,
  Slo,
  SloDetail,
  SloPatch,
  Customer,
  CustomerSummary,
  Endpoint,
  EndpointSort,
  ApiKey,
  KeySummary,
  TimeRange,
  ErrorOptions,
  ErrorPatch,
  ErrorRecord,
  NewErrorRecord,
  NewNote,
  Note,
  Overview,
  Page,
  RequestEntry,
  RequestDetail,
  RequestSummary,
  Traffic,
  Versions,
  Webhook,
  EndpointDetail,
  WebhookSummary,
} from './schemas.ts';

export interface ConsoleClientOptions {
  /** Base URL of the console API, absolute or relative to the page, e.g. `/api/v1`. */
  baseUrl: string;
  /** Defaults to the global `fetch`; inject one for tests or to add tracing. */
  fetch?: typeof fetch;
  /**
   * Called before every request to an allowed origin (see `tokenOrigins`) with the request's
   * URL; a returned token is sent as `Authorization: Bearer`. It runs inside the request's
   * timeout and cancellation, so a token source that never settles cannot hang a panel.
   */
  getToken?: TokenSource;
  /**
   * Origins (`https://api.example.com`) that may receive the token. Default: the origin of
   * `baseUrl` (the page's own origin for a relative base). A request elsewhere goes without it.
   */
  tokenOrigins?: readonly string[];
  /** `include` for cookie sessions on another origin. Defaults to `same-origin`. */
  credentials?: RequestCredentials;
  /** Milliseconds before a call fails with kind `timeout`: 1,000 or more; default 15,000. */
  timeoutMs?: number;
  /** Largest response body accepted, in bytes (default 10 MB); a larger one is an `invalid-response`. */
  maxResponseBytes?: number;
}

/**
 * A host's token source. It gets the URL the token would be sent to and, when the console API
 * refused the token it gave last (a 401: an embed session expired), `{ refused: true }`: return a
 * new token then, not a cached one. The request is retried once with it.
 */
export type TokenSource = (requestUrl: string, context?: { refused: boolean }) => Promise<string | null | undefined> | string | null | undefined;

export interface CallOptions {
  signal?: AbortSignal;
}

export interface WriteOptions extends CallOptions {
  /** Reuse the same key when retrying one submission, so the server creates one record. */
  idempotencyKey?: string;
}

export interface PatchOptions extends CallOptions {
  /** The record's `version` as loaded: sent as `If-Match`, so a change made elsewhere is refused with 412. */
  version?: number | undefined;
}

export interface PageQuery {
  limit?: number;
  cursor?: string | null;
}
/** A time range (see the contract's "Time ranges"): a named `range`, or a custom `from`–`to` (ISO timestamps); empty, each route's default. */
export interface TimeRangeQuery {
  range?: TimeRange | undefined;
  from?: string | undefined;
  to?: string | undefined;
}
/** GET /traffic: calendar months (`range: '12m'`) or a time range, of every request or one customer's. */
export interface TrafficQuery extends Omit<TimeRangeQuery, 'range'> {
  range?: string | undefined;
  customerId?: string | undefined;
}
export interface EndpointQuery extends PageQuery, TimeRangeQuery {
  status?: string;
  q?: string;
  sort?: EndpointSort;
}
/** Which requests a log or its summary is about: one endpoint row's, one customer's, in a time range, or (empty) all. */
export interface RequestScope extends TimeRangeQuery {
  /** Only the requests an endpoint row counts (its id from GET /endpoints). */
  endpointId?: string;
  /** Only one customer's requests. */
  customerId?: string;
  /** Only the requests made with one API key. */
  keyId?: string;
}
export interface RequestQuery extends PageQuery, RequestScope {
  method?: string;
  /** A code such as `500` or a class such as `5xx`. */
  status?: string;
  path?: string;
  /** Words each in the path or a kept body (an order id, an error code), any case. */
  q?: string;
  since?: string;
}
export interface ErrorQuery extends PageQuery {
  status?: string;
  /** Only the records of one endpoint, by its label (`POST /webhooks`). */
  endpoint?: string;
  sort?: string;
}
export interface CustomerQuery extends PageQuery {
  q?: string;
  sort?: string;
}
/** GET /keys: searched by id, name or customer, of one customer or status, sorted, over a time range (the last 30 days unless asked). */
export interface KeyQuery extends PageQuery, TimeRangeQuery {
  q?: string;
  customerId?: string;
  status?: string;
  sort?: string;
}
export interface WebhookQuery extends PageQuery {
  q?: string;
  sort?: string;
}
export interface ActivityQuery extends PageQuery {
  kind?: string;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** Shortest timeout accepted: below it, ordinary answers would fail as timed out. */
export const MIN_TIMEOUT_MS = 1_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

type Query = Record<string, string | number | null | undefined>;

/** A UUID v4 for `Idempotency-Key`; `randomUUID` is missing on insecure origins, hence the fallback. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function joinUrl(baseUrl: string, path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.size ? `?${params}` : '';
  return `${baseUrl.replace(/\/+$/, '')}${path}${search}`;
}

/**
 * One path segment. `.` and `..` (also percent-encoded) would be resolved by the URL parser and
 * leave the segment, so they are refused, like an empty id.
 */
function segment(id: string, name: string): string {
  const encoded = encodeURIComponent(id);
  if (!id.trim() || /^(\.|%2e){1,2}$/i.test(encoded))
    throw configError(() => msg(str`"${id}" is not a valid ${name} id. Set the ${name}-id attribute to a record's id.`));
  return encoded;
}

/** The page's address, for resolving relative URLs (none during server rendering). */
export const pageUrl = (): string => (typeof location === 'undefined' ? 'http://localhost/' : location.href);

/** The base as an absolute URL, or a `config` error when it is not http(s). */
export function resolveBase(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl, pageUrl());
  } catch {
    throw configError(() => msg(str`The api-base "${baseUrl}" is not a valid URL.`), baseUrl);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(() => msg(str`The api-base "${baseUrl}" is not an http(s) URL. Point api-base at the console API.`), baseUrl);
  }
  return url;
}

/** `https://x.example` from an origin or URL; nothing for a malformed entry. */
function originOf(value: string): string[] {
  try {
    return [new URL(value).origin];
  } catch {
    return [];
  }
}

/** Resolves with `work`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type Schemas = typeof schema;
/** The name of a response schema in `schemas.ts`. */
type SchemaName = { [K in keyof Schemas]: Schemas[K] extends z.ZodMiniType ? K : never }[keyof Schemas];
/** What a console route of the contract's table answers. */
type ResponseOf<R extends ConsoleRouteName> = z.infer<Schemas[(typeof ROUTES)[R]['response'] & SchemaName]>;

export type ConsoleClient = ReturnType<typeof createConsoleClient>;

/**
 * A typed client for the console API. Every response is validated against the contract's
 * schemas; every failure is a {@link ConsoleApiError}.
 */
export function createConsoleClient(options: ConsoleClientOptions) {
  const { baseUrl, getToken, credentials = 'same-origin' } = options;
  const timeoutMs = validTimeout(options.timeoutMs);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  let tokenOrigins: Set<string> | undefined;
  const mayReceiveToken = (url: string) => {
    tokenOrigins ??= new Set(options.tokenOrigins ? options.tokenOrigins.flatMap(originOf) : [resolveBase(baseUrl).origin]);
    return tokenOrigins.has(new URL(url).origin);
  };

  /** Calls the console route `name` of the contract's table (with the record `target` in its path). */
  async function call<R extends ConsoleRouteName>(
    name: R,
    {
      target,
      query,
      body,
      signal,
      idempotencyKey,
      ifMatch,
    }: { target?: { id: string; kind: string }; query?: Query; body?: unknown; idempotencyKey?: string; ifMatch?: string } & CallOptions = {},
  ): Promise<ResponseOf<R>> {
    const route = ROUTES[name];
    const method = route.method;
    const responseSchema = route.response;
    // Configuration problems (a javascript: base, an id of "..") throw before anything is sent.
    const path = route.path.replace('{id}', () => (target ? segment(target.id, target.kind) : ''));
    const url = new URL(joinUrl(resolveBase(baseUrl).href, path, query)).href;
    // The schemas come with the first request. If their chunk cannot be fetched, say so: the
    // console API is not at fault, and nothing can be read without them.
    const validation = loadValidation().catch((cause: unknown) => {
      throw new ConsoleApiError(() => msg('This console could not load the code that reads the console API’s answers. Check the connection and retry.'), {
        kind: 'network',
        url,
        cause,
      });
    });
    validation.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers = new Headers({ Accept: 'application/json, application/problem+json' });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    if (method === 'POST') headers.set('Idempotency-Key', idempotencyKey ?? newIdempotencyKey());
    if (ifMatch) headers.set('If-Match', ifMatch);

    const withToken = getToken !== undefined && mayReceiveToken(url);
    /** Sends the request with a token from the host (`refused`: the one before was refused with a 401). */
    const send = async (refused: boolean) => {
      if (withToken) {
        const token = await untilAborted(
          Promise.resolve()
            .then(() => getToken(url, refused ? { refused } : undefined))
            .catch((cause: unknown) => {
              throw new ConsoleApiError(() => msg('Could not get a sign-in token for the console API (getToken failed).'), { kind: 'network', url, cause });
            }),
          combined,
        );
        if (token) headers.set('Authorization', `Bearer ${token}`);
        else headers.delete('Authorization');
      }
      // A write waits for the schemas before it is sent, so that if they cannot load nothing has
      // changed on the server (they are here already when a form submits).
      if (method !== 'GET') await untilAborted(validation, combined);
      combined.throwIfAborted();
      return fetchImpl(url, {
        method,
        headers,
        credentials,
        signal: combined,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    };

    let response: Response;
    let text: string;
    let check: Validation;
    try {
      response = await send(false);
      // A short-lived token (an embed session) that expired: the host's getToken is asked for a
      // new one, once. A write goes again with the same Idempotency-Key, so it lands at most once.
      if (response.status === 401 && withToken) {
        await response.body?.cancel();
        response = await send(true);
      }
      text = await readLimited(response, maxBytes, url);
      check = await untilAborted(validation, combined);
    } catch (cause) {
      if (cause instanceof ConsoleApiError) throw cause;
      throw transportError(cause, url, signal, timeout, timeoutMs);
    }

    if (!response.ok) throw problemError(response, text, url, check.schemas.problem);
    const parsed = parseJson(text);
    if (!parsed.ok) {
      throw new ConsoleApiError(() => msg('The console API sent a response this console cannot read (not JSON).'), {
        kind: 'invalid-response',
        url,
        status: response.status,
        issues: [`expected JSON, got ${preview(text)}`],
      });
    }
    const result = (check.schemas[responseSchema] as z.ZodMiniType).safeParse(parsed.value, { reportInput: true });
    if (!result.success) {
      // The issues name the field and the type it had, never the value (it may be personal data),
      // and zod's error (which holds the values) is not kept as the cause.
      throw new ConsoleApiError(() => msg('The console API sent data in a shape this console does not understand.'), {
        kind: 'invalid-response',
        url,
        status: response.status,
        issues: check.describeIssues(result.error.issues),
      });
    }
    return result.data as ResponseOf<R>;
  }

  return {
    baseUrl,
    getOverview: (o?: CallOptions, range: TimeRangeQuery = {}): Promise<Overview> => call('overview', { ...o, query: { ...range } }),
    listEndpoints: (query: EndpointQuery = {}, o?: CallOptions): Promise<Page<Endpoint>> => call('endpoints', { ...o, query: { ...query } }),
    getEndpoint: (id: string, o?: CallOptions, range: TimeRangeQuery = {}): Promise<EndpointDetail> =>
      call('endpoint', { ...o, target: { id, kind: 'endpoint' }, query: { ...range } }),
    listRequests: (query: RequestQuery = {}, o?: CallOptions): Promise<Page<RequestEntry>> => call('requests', { ...o, query: { ...query } }),
    getRequest: (id: string, o?: CallOptions): Promise<RequestDetail> => call('request', { ...o, target: { id, kind: 'request' } }),
    // The scope second, so callers from before it (`getRequestSummary({ signal })`) keep working.
    getRequestSummary: (o?: CallOptions, scope: RequestScope = {}): Promise<RequestSummary> => call('requestSummary', { ...o, query: { ...scope } }),
    /** `range`: the calendar months (`12m`, `6m`, …) or a time range, named or custom; `customerId`: one customer's traffic. */
    getTraffic: (range: string | TrafficQuery = '12m', o?: CallOptions): Promise<Traffic> =>
      call('traffic', { ...o, query: typeof range === 'string' ? { range } : { ...range } }),
    listCustomers: (query: CustomerQuery = {}, o?: CallOptions): Promise<Page<CustomerSummary>> => call('customers', { ...o, query: { ...query } }),
    getCustomer: (id: string, o?: CallOptions): Promise<Customer> => call('customer', { ...o, target: { id, kind: 'customer' } }),
    addNote: (customerId: string, note: NewNote, o?: WriteOptions): Promise<Note> =>
      call('addNote', { ...o, target: { id: customerId, kind: 'customer' }, body: note }),
    listWebhooks: (query: WebhookQuery = {}, o?: CallOptions): Promise<Page<WebhookSummary>> => call('webhooks', { ...o, query: { ...query } }),
    getWebhook: (id: string, o?: CallOptions, range: TimeRangeQuery = {}): Promise<Webhook> =>
      call('webhook', { ...o, target: { id, kind: 'webhook' }, query: { ...range } }),
    listErrors: (query: ErrorQuery = {}, o?: CallOptions): Promise<Page<ErrorRecord>> => call('errors', { ...o, query: { ...query } }),
    getError: (id: string, o?: CallOptions, range: TimeRangeQuery = {}): Promise<ErrorRecord> =>
      call('error', { ...o, target: { id, kind: 'error' }, query: { ...range } }),
    getErrorOptions: (o?: CallOptions): Promise<ErrorOptions> => call('errorOptions', o),
    /** GET /versions: requests per API version over the last 30 days, or the time range asked. */
    getVersions: (o?: CallOptions, range: TimeRangeQuery = {}): Promise<Versions> => call('versions', { ...o, query: { ...range } }),
    listKeys: (query: KeyQuery = {}, o?: CallOptions): Promise<Page<KeySummary>> => call('keys', { ...o, query: { ...query } }),
    getKey: (id: string, o?: CallOptions, range: TimeRangeQuery = {}): Promise<ApiKey> =>
      call('key', { ...o, target: { id, kind: 'key' }, query: { ...range } }),
    createError: (record: NewErrorRecord, o?: WriteOptions): Promise<ErrorRecord> => call('createError', { ...o, body: record }),
    patchError: (id: string, patch: ErrorPatch, { version, ...o }: PatchOptions = {}): Promise<ErrorRecord> =>
      call('updateError', {
        ...o,
        target: { id, kind: 'error' },
        body: patch,
        ifMatch: version === undefined ? undefined : `"${version}"`,
      }),
    listActivity: (query: ActivityQuery = {}, o?: CallOptions): Promise<Page<ActivityItem>> => call('activity', { ...o, query: { ...query } }),
    listAlertChannels: (o?: CallOptions): Promise<{ items: AlertChannel[] }> => call('alertChannels', o),
    createAlertChannel: (channel: NewAlertChannel, o?: WriteOptions): Promise<AlertChannel> => call('createAlertChannel', { ...o, body: channel }),
    updateAlertChannel: (id: string, change: AlertChannelPatch, o?: CallOptions): Promise<AlertChannel> =>
      call('updateAlertChannel', { ...o, target: { id, kind: 'alert-channel' }, body: change }),
    deleteAlertChannel: (id: string, o?: CallOptions): Promise<AlertChannel> => call('deleteAlertChannel', { ...o, target: { id, kind: 'alert-channel' } }),
    /** Sends a test notification to the channel now; answers how it went. */
    testAlertChannel: (id: string, o?: WriteOptions): Promise<AlertNotification> =>
      call('testAlertChannel', { ...o, target: { id, kind: 'alert-channel' }, body: {} }),
    listAlertRules: (o?: CallOptions): Promise<{ items: AlertRule[] }> => call('alertRules', o),
    createAlertRule: (rule: NewAlertRule, o?: WriteOptions): Promise<AlertRule> => call('createAlertRule', { ...o, body: rule }),
    updateAlertRule: (id: string, change: AlertRulePatch, o?: CallOptions): Promise<AlertRule> =>
      call('updateAlertRule', { ...o, target: { id, kind: 'alert-rule' }, body: change }),
    deleteAlertRule: (id: string, o?: CallOptions): Promise<AlertRule> => call('deleteAlertRule', { ...o, target: { id, kind: 'alert-rule' } }),
    /** Firing and resolved alerts, newest first. */
    listSlos: (o?: CallOptions): Promise<{ items: Slo[] }> => call('slos', o),
    getSlo: (id: string, o?: CallOptions): Promise<SloDetail> => call('slo', { ...o, target: { id, kind: 'slo' } }),
    createSlo: (slo: NewSlo, o?: WriteOptions): Promise<Slo> => call('createSlo', { ...o, body: slo }),
    updateSlo: (id: string, change: SloPatch, o?: CallOptions): Promise<Slo> => call('updateSlo', { ...o, target: { id, kind: 'slo' }, body: change }),
    deleteSlo: (id: string, o?: CallOptions): Promise<Slo> => call('deleteSlo', { ...o, target: { id, kind: 'slo' } }),
    listAlerts: (query: { state?: 'firing' | 'resolved'; ruleId?: string; limit?: number; cursor?: string } = {}, o?: CallOptions): Promise<Page<Alert>> =>
      call('alerts', { ...o, query: { ...query } }),
  };
}

/** A timeout the client can work with: finite and at least {@link MIN_TIMEOUT_MS}, else the default. */
export function validTimeout(timeoutMs: number | undefined): number {
  return timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs >= MIN_TIMEOUT_MS ? timeoutMs : DEFAULT_TIMEOUT_MS;
}

/** The body as text, refusing one larger than `maxBytes` (by Content-Length, or while reading). */
async function readLimited(response: Response, maxBytes: number, url: string): Promise<string> {
  const tooLarge = () =>
    new ConsoleApiError(
      () => msg(str`The console API sent a response larger than ${Math.round(maxBytes / 1024 / 1024)} MB, which this console does not read.`),
      {
        kind: 'invalid-response',
        url,
        status: response.status,
      },
    );
  if (Number(response.headers.get('Content-Length') ?? 0) > maxBytes) {
    void response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      void reader.cancel();
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function preview(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'an empty body';
  return `"${trimmed.slice(0, 40)}${trimmed.length > 40 ? '…' : ''}"`;
}

function transportError(cause: unknown, url: string, signal: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number) {
  if (signal?.aborted) {
    return new ConsoleApiError(() => msg('The request was cancelled.'), { kind: 'aborted', url, cause });
  }
  if (timeout.aborted) {
    const seconds = Math.round(timeoutMs / 100) / 10;
    // Written when shown: `2,5 Sekunden` in German, `1 second` in the singular.
    const sentence = () => {
      const n = new Intl.NumberFormat(renderingLanguage(), { maximumFractionDigits: 1 }).format(seconds);
      return plural(seconds, {
        one: () => msg(str`The console API did not answer within ${n} second.`),
        other: () => msg(str`The console API did not answer within ${n} seconds.`),
      });
    };
    return new ConsoleApiError(sentence, { kind: 'timeout', url, cause });
  }
  return new ConsoleApiError(() => msg('Could not reach the console API. Check the connection and the api-base setting.'), {
    kind: 'network',
    url,
    cause,
  });
}

function problemError(response: Response, text: string, url: string, problemSchema: Schemas['problem']): ConsoleApiError {
  const parsed = parseJson(text);
  const body = parsed.ok ? problemSchema.safeParse(parsed.value) : undefined;
  const problem = body?.success ? body.data : {};
  return new ConsoleApiError(httpWords(response.status, problem.title, problem.detail), {
    kind: 'http',
    url,
    status: response.status,
    title: problem.title,
    detail: problem.detail,
    fieldErrors: problem.errors,
    retryAfterMs: response.status === 429 || response.status === 503 ? retryAfter(response.headers.get('Retry-After')) : undefined,
  });
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds; at most an hour. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(3600, Math.max(0, seconds)) * 1000 : undefined;
}
