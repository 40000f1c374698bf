import type { ConsoleApiError } from '../api/errors.ts';
import type { ErrorRecord, NewErrorRecord } from '../api/schemas.ts';
import type { NavigateKind } from './view-paths.ts';

/** The kinds of thing a drill-down can point at (plural kinds are lists): one per console page with a `kind` in the element registry. */
export type { NavigateKind };

/**
 * What a drill-down points at: `{ kind: 'endpoint', id: 'ep_1', label: 'POST /messages' }`.
 * `id` is always the resource's id from the API (empty for a list kind such as `errors`).
 */
export interface NavigateDetail {
  kind: NavigateKind | (string & {});
  id: string;
  /** What the person saw and activated, e.g. `POST /messages`. */
  label?: string | undefined;
  /** The link's href, when the element renders a real link (a `routes` template or an `*-href` attribute). */
  href?: string | undefined;
  /** For a list kind: the search the list opens with (`/messages` from a slice of the overview's share chart). */
  q?: string | undefined;
  /** For the `requests` list: the time the log opens on (a bucket of a time chart), `from` inclusive, `to` exclusive, ISO timestamps. */
  from?: string | undefined;
  to?: string | undefined;
  /** For the `requests` list: only one customer's (a bucket of a customer's traffic). */
  customerId?: string | undefined;
  /** For the `requests` list: only one endpoint row's (a bucket of an endpoint's charts). */
  endpointId?: string | undefined;
  /** For the `requests` list: only one API key's (a bucket of a key's chart). */
  keyId?: string | undefined;
  /** For the `requests` list: only this status code (a bucket of an error record's occurrences). */
  status?: string | undefined;
  /** For the `alerts` list: only `firing` (the overview's banner) or `resolved` alerts. */
  state?: string | undefined;
}

/** A time range: a named `range` (`24h`), or a custom `from`–`to` (ISO timestamps); all empty, each panel's default period. */
export interface RangeDetail {
  range?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface LoadErrorDetail {
  error: ConsoleApiError;
}

export interface ErrorRecordDetail {
  record: ErrorRecord;
}

export interface SortDetail {
  /** The new order, as the API's `sort` parameter writes it (`-requests`: most first). */
  sort: string;
}

export interface CancelDetail {
  /** Whether the person typed or chose anything. */
  dirty: boolean;
  /** What the form holds, as typed. */
  values: Partial<Record<keyof NewErrorRecord, string>>;
}

/** Every event the elements fire: prefixed `ops-`, bubbling and composed, detail typed here. */
export interface OpsEventMap {
  /** A drill-down was activated; cancel it (`preventDefault()`) to route in the host instead. */
  'ops-navigate': CustomEvent<NavigateDetail>;
  /** Loading data failed; the element shows the error and a Retry button. */
  'ops-load-error': CustomEvent<LoadErrorDetail>;
  /** ops-error-form saved a new error record. */
  'ops-error-created': CustomEvent<ErrorRecordDetail>;
  /** ops-error saved a change of status or notes. */
  'ops-error-updated': CustomEvent<ErrorRecordDetail>;
  /** ops-error-form's Cancel; cancel the event to keep the form as it is and decide yourself. */
  'ops-cancel': CustomEvent<CancelDetail>;
  /** The person changed a table's order (a column header). */
  'ops-sort': CustomEvent<SortDetail>;
  /** ops-time-range: the person chose a time range; `<ops-console>` applies it to every element inside unless cancelled. */
  'ops-range-change': CustomEvent<RangeDetail>;
}

export type EventDetail<K extends keyof OpsEventMap> = OpsEventMap[K] extends CustomEvent<infer D> ? D : never;

/** Every ops event bubbles and crosses shadow roots, so a listener on `document` hears it. */
export function createOpsEvent<K extends keyof OpsEventMap>(type: K, detail: EventDetail<K>, cancelable = false): OpsEventMap[K] {
  return new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }) as OpsEventMap[K];
}

declare global {
  interface HTMLElementEventMap {
    'ops-navigate': CustomEvent<NavigateDetail>;
    'ops-load-error': CustomEvent<LoadErrorDetail>;
    'ops-error-created': CustomEvent<ErrorRecordDetail>;
    'ops-error-updated': CustomEvent<ErrorRecordDetail>;
    'ops-cancel': CustomEvent<CancelDetail>;
    'ops-sort': CustomEvent<SortDetail>;
    'ops-range-change': CustomEvent<RangeDetail>;
  }
  /** So `document.addEventListener('ops-navigate', …)` is typed too. */
  interface DocumentEventMap {
    'ops-navigate': CustomEvent<NavigateDetail>;
    'ops-load-error': CustomEvent<LoadErrorDetail>;
    'ops-error-created': CustomEvent<ErrorRecordDetail>;
    'ops-error-updated': CustomEvent<ErrorRecordDetail>;
    'ops-cancel': CustomEvent<CancelDetail>;
    'ops-sort': CustomEvent<SortDetail>;
    'ops-range-change': CustomEvent<RangeDetail>;
  }
}
