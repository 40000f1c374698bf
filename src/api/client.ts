import type * as z from 'zod/mini';
import { ConsoleApiError, describeIssues, httpMessage } from './errors.ts';
import * as schema from './schemas.ts';
import type {
  ActivityItem,
  Customer,
  Endpoint,
  EndpointSort,
  ErrorOptions,
  ErrorPatch,
  ErrorRecord,
  NewErrorRecord,
  NewNote,
  Note,
  Overview,
  Page,
  RequestEntry,
  RequestSummary,
  Traffic,
  Webhook,
} from './schemas.ts';

export interface ConsoleClientOptions {
  /** Base URL of the console API, absolute or relative to the page, e.g. `/api/v1`. */
  baseUrl: string;
  /** Defaults to the global `fetch`; inject one for tests or to add tracing. */
  fetch?: typeof fetch;
  /** Called before every request; a returned token is sent as `Authorization: Bearer`. */
  getToken?: () => Promise<string | null | undefined> | string | null | undefined;
  /** `include` for cookie sessions on another origin. Defaults to `same-origin`. */
  credentials?: RequestCredentials;
  /** Milliseconds before a call fails with kind `timeout`. Defaults to 15 000. */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface WriteOptions extends CallOptions {
  /** Reuse the same key when retrying one submission, so the server creates one record. */
  idempotencyKey?: string;
}

export interface PageQuery {
  limit?: number;
  cursor?: string | null;
}
export interface EndpointQuery extends PageQuery {
  status?: string;
  q?: string;
  sort?: EndpointSort;
}
export interface RequestQuery extends PageQuery {
  method?: string;
  /** A code such as `500` or a class such as `5xx`. */
  status?: string;
  path?: string;
  since?: string;
}
export interface ErrorQuery extends PageQuery {
  status?: string;
}
export interface ActivityQuery extends PageQuery {
  kind?: string;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

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

const segment = (id: string) => encodeURIComponent(id);

export type ConsoleClient = ReturnType<typeof createConsoleClient>;

/**
 * A typed client for the console API. Every response is validated against the contract's
 * schemas; every failure is a {@link ConsoleApiError}.
 */
export function createConsoleClient(options: ConsoleClientOptions) {
  const { baseUrl, getToken, credentials = 'same-origin', timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  async function call<S extends z.core.SomeType>(
    responseSchema: S,
    method: string,
    path: string,
    { query, body, signal, idempotencyKey }: { query?: Query; body?: unknown; idempotencyKey?: string } & CallOptions = {},
  ): Promise<z.infer<S>> {
    const url = joinUrl(baseUrl, path, query);
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers = new Headers({ Accept: 'application/json, application/problem+json' });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    if (method === 'POST') headers.set('Idempotency-Key', idempotencyKey ?? newIdempotencyKey());

    let response: Response;
    let text: string;
    try {
      const token = await getToken?.();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      signal?.throwIfAborted();
      response = await fetchImpl(url, {
        method,
        headers,
        credentials,
        signal: combined,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await response.text();
    } catch (cause) {
      throw transportError(cause, url, signal, timeout, timeoutMs);
    }

    if (!response.ok) throw problemError(response, text, url);
    const parsed = parseJson(text);
    if (!parsed.ok) {
      throw new ConsoleApiError('The console API sent a response this console cannot read (not JSON).', {
        kind: 'invalid-response',
        url,
        status: response.status,
        issues: [`expected JSON, got ${preview(text)}`],
      });
    }
    const result = (responseSchema as unknown as z.ZodMiniType).safeParse(parsed.value, { reportInput: true });
    if (!result.success) {
      const issues = describeIssues(result.error.issues);
      throw new ConsoleApiError('The console API sent data in a shape this console does not understand.', {
        kind: 'invalid-response',
        url,
        status: response.status,
        issues,
        cause: result.error,
      });
    }
    return result.data as z.infer<S>;
  }

  return {
    baseUrl,
    getOverview: (o?: CallOptions): Promise<Overview> => call(schema.overview, 'GET', '/overview', o),
    listEndpoints: (query: EndpointQuery = {}, o?: CallOptions): Promise<Page<Endpoint>> =>
      call(schema.endpointPage, 'GET', '/endpoints', { ...o, query: { ...query } }),
    listRequests: (query: RequestQuery = {}, o?: CallOptions): Promise<Page<RequestEntry>> =>
      call(schema.requestPage, 'GET', '/requests', { ...o, query: { ...query } }),
    getRequestSummary: (o?: CallOptions): Promise<RequestSummary> =>
      call(schema.requestSummary, 'GET', '/requests/summary', o),
    getTraffic: (range = '12m', o?: CallOptions): Promise<Traffic> =>
      call(schema.traffic, 'GET', '/traffic', { ...o, query: { range } }),
    getCustomer: (id: string, o?: CallOptions): Promise<Customer> =>
      call(schema.customer, 'GET', `/customers/${segment(id)}`, o),
    addNote: (customerId: string, note: NewNote, o?: WriteOptions): Promise<Note> =>
      call(schema.note, 'POST', `/customers/${segment(customerId)}/notes`, { ...o, body: note }),
    getWebhook: (id: string, o?: CallOptions): Promise<Webhook> =>
      call(schema.webhook, 'GET', `/webhooks/${segment(id)}`, o),
    listErrors: (query: ErrorQuery = {}, o?: CallOptions): Promise<Page<ErrorRecord>> =>
      call(schema.errorPage, 'GET', '/errors', { ...o, query: { ...query } }),
    getError: (id: string, o?: CallOptions): Promise<ErrorRecord> =>
      call(schema.errorRecord, 'GET', `/errors/${segment(id)}`, o),
    getErrorOptions: (o?: CallOptions): Promise<ErrorOptions> =>
      call(schema.errorOptions, 'GET', '/errors/options', o),
    createError: (record: NewErrorRecord, o?: WriteOptions): Promise<ErrorRecord> =>
      call(schema.errorRecord, 'POST', '/errors', { ...o, body: record }),
    patchError: (id: string, patch: ErrorPatch, o?: CallOptions): Promise<ErrorRecord> =>
      call(schema.errorRecord, 'PATCH', `/errors/${segment(id)}`, { ...o, body: patch }),
    listActivity: (query: ActivityQuery = {}, o?: CallOptions): Promise<Page<ActivityItem>> =>
      call(schema.activityPage, 'GET', '/activity', { ...o, query: { ...query } }),
  };
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
    return new ConsoleApiError('The request was cancelled.', { kind: 'aborted', url, cause });
  }
  if (timeout.aborted) {
    const seconds = Math.round(timeoutMs / 100) / 10;
    return new ConsoleApiError(`The console API did not answer within ${seconds} seconds.`, { kind: 'timeout', url, cause });
  }
  return new ConsoleApiError('Could not reach the console API. Check the connection and the api-base setting.', {
    kind: 'network',
    url,
    cause,
  });
}

function problemError(response: Response, text: string, url: string): ConsoleApiError {
  const parsed = parseJson(text);
  const body = parsed.ok ? schema.problem.safeParse(parsed.value) : undefined;
  const problem = body?.success ? body.data : {};
  return new ConsoleApiError(httpMessage(response.status, problem.title, problem.detail), {
    kind: 'http',
    url,
    status: response.status,
    title: problem.title,
    detail: problem.detail,
    fieldErrors: problem.errors,
  });
}
