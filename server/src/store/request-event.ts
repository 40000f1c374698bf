/** A request as measured by a collector or sent to the ingest API, before it belongs to an account. */
import type { RequestEvent } from './types.ts';

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
