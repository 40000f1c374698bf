import { createContext } from '@lit/context';
import type { TokenSource } from '../api/client.ts';
import type { NavigateKind, RangeDetail } from './events.ts';

/**
 * URL templates for drill-downs, by kind: `{ endpoint: '/ops/endpoints/{id}', customer: '/ops/customers/{id}' }`.
 * `{id}` is replaced by the resource id, URL-encoded. With a template, a drill-down is a real
 * link (open in a new tab, copy the address); without one it is a button that only fires `ops-navigate`.
 */
/** `operator`: the API's team. `customer`: one of its customers, seeing their own usage. */
export type Audience = 'operator' | 'customer';

export type Routes = Partial<Record<NavigateKind, string>>;

/**
 * What the optional `<ops-console>` wrapper provides to every element inside it. An
 * element's own attribute (`api-base`, `locale`, `time-zone`) wins over the wrapper's.
 */
export interface ConsoleConfig {
  apiBase?: string | undefined;
  /** Host-supplied token source; never an attribute, so no secret lands in the markup. It gets the request URL. */
  getToken?: TokenSource | undefined;
  /** Extra origins allowed to receive the token, beyond the wrapper's `api-base` origin (or the page's for a relative base). */
  tokenOrigins?: readonly string[] | undefined;
  credentials?: RequestCredentials | undefined;
  locale?: string | undefined;
  timeZone?: string | undefined;
  /** Who the elements inside speak to: the API's operators (the default) or one of its customers. */
  audience?: Audience | undefined;
  /** Milliseconds before a request fails as timed out (1,000 or more). */
  timeoutMs?: number | undefined;
  /** A fetch to use instead of the global one (tracing, tests). */
  fetch?: typeof fetch | undefined;
  /** The time range every panel inside shows (`{ range: '24h' }` or `{ from, to }`); empty, each panel's default period. */
  range?: RangeDetail | undefined;
  /** Drill-down URL templates by kind. */
  routes?: Routes | undefined;
  /**
   * True until the wrapper has its configuration (it waits while it has `defer-hydration`):
   * the elements inside wait too, so none sends a request before the host's `getToken` is set.
   */
  waiting?: boolean | undefined;
}

export const consoleConfigContext = createContext<ConsoleConfig | undefined>(Symbol.for('ops-console/config'));
