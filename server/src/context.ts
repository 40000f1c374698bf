/** What every route computation gets: the stores, the account's calendar and the clock. */
import { createHash } from 'node:crypto';
import type { Thresholds } from './figures.ts';
import type { Principal } from './auth.ts';
import type { RequestIds } from './request-ids.ts';
import type { Stores } from './store/types.ts';
import type { ResolvedWindow } from '@ops-console/contract/time-window';

export interface ViewContext {
  stores: Stores;
  principal: Principal;
  accountId: string;
  timeZone: string;
  thresholds: Thresholds;
  now: number;
  /** Request ids to and from stored positions. */
  requestIds: RequestIds;
  /**
   * The one customer a customer-scoped token sees. Its telemetry is already narrowed to that
   * customer's events (store/customer-scope.ts); views check records (keys, webhooks) against it.
   */
  customerId?: string | undefined;
  /** Whether this caller reads kept headers and bodies, and the instant from which they are kept (`retention.payloadDays`). */
  payloads: { shown: boolean; keptFrom: number };
  /** The time range the request asked for (`range`, or `from`–`to`); absent, each route reads its default period. */
  window?: ResolvedWindow | undefined;
}

/**
 * A console write, prepared: its answer, computed from what it read (telemetry included) before
 * anything is written, and its writes, which run in one transaction. Nothing slow happens inside
 * the transaction, so on DuckDB the one writer is never held by a read.
 */
export interface PreparedWrite<T> {
  answer: T;
  write(ctx: ViewContext): Promise<void>;
}

/** How far back the endpoint table, customers' figures and related endpoints look. */
export const RECENT_DAYS = 30;
export const DAY_MS = 86_400_000;
/** Days that request headers and bodies are kept, by default (`retention.payloadDays`): long enough to look into last week's failures. */
export const DEFAULT_PAYLOAD_DAYS = 7;

/** An endpoint's id: stable for its (API version, method, route), opaque to clients. */
export function endpointId(apiVersion: string, method: string, route: string): string {
  return `ep_${createHash('sha256').update(`${apiVersion}\u0000${method}\u0000${route}`).digest('hex').slice(0, 12)}`;
}

export const endpointLabel = (method: string, route: string) => `${method} ${route}`;

/** `"POST /webhooks"` → method and route; undefined when it is not a label. */
export function parseEndpointLabel(label: string): { method: string; route: string } | undefined {
  const match = /^([A-Z]+) (\/\S*)$/.exec(label);
  return match ? { method: match[1]!, route: match[2]! } : undefined;
}

export { isoSeconds } from '@ops-console/contract/time-window';
