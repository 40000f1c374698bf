/** A request as measured by a collector or sent to the ingest API, before it belongs to an account. */
import type { Person, RequestEvent } from './types.ts';

export interface MeasuredRequest {
  ts: number;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  bytes?: number | null;
  apiVersion?: string | null;
  keyId?: string | null;
  customerId?: string | null;
  actor?: Person | null;
}

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
  };
}
