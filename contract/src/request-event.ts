/**
 * A request as a collector measures it and the ingest API takes it, and as the console server
 * keeps it once it belongs to an account: the wire's event, shared by the collectors and the server.
 */
import type { CapturedBody } from './captured-body.ts';

/** Someone the console names: a user, a customer acting through its key, or the server itself. */
export interface Person {
  id: string;
  name: string;
}

/** One request of the reported API, as ingested. Times are epoch milliseconds. */
export interface RequestEvent {
  accountId: string;
  ts: number;
  method: string;
  /** The route template, e.g. `/contacts/{id}`. */
  route: string;
  /** The concrete path, e.g. `/contacts/c_42`. */
  path: string;
  status: number;
  durationMs: number;
  apiVersion: string | null;
  keyId: string | null;
  customerId: string | null;
  actor: Person | null;
  bytes: number | null;
  /** Request headers the collector was allowed to keep (by name), masked. Kept with the bodies, apart from the figures. */
  headers?: Record<string, string> | null;
  /** Response headers, as `headers`. */
  responseHeaders?: Record<string, string> | null;
  requestBody?: CapturedBody | null;
  responseBody?: CapturedBody | null;
}

/** A request as measured by a collector or sent to the ingest API, before it belongs to an account. */
type Optional = 'bytes' | 'apiVersion' | 'keyId' | 'customerId' | 'actor' | 'headers' | 'responseHeaders' | 'requestBody' | 'responseBody';
export type MeasuredRequest = Omit<RequestEvent, 'accountId' | Optional> & { [K in Optional]?: RequestEvent[K] };

export function toRequestEvent(accountId: string, e: MeasuredRequest): RequestEvent {
  return {
    accountId,
    ts: e.ts,
    method: e.method,
    route: e.route,
    path: e.path,
    status: e.status,
    durationMs: e.durationMs,
    apiVersion: e.apiVersion ?? null,
    keyId: e.keyId ?? null,
    customerId: e.customerId ?? null,
    actor: e.actor ?? null,
    bytes: e.bytes ?? null,
    headers: e.headers && Object.keys(e.headers).length ? e.headers : null,
    responseHeaders: e.responseHeaders && Object.keys(e.responseHeaders).length ? e.responseHeaders : null,
    requestBody: e.requestBody ?? null,
    responseBody: e.responseBody ?? null,
  };
}
