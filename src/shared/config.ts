import { createContext } from '@lit/context';

/**
 * What the optional `<ops-console>` wrapper provides to every element inside it. An
 * element's own attribute (`api-base`, `locale`, `time-zone`) wins over the wrapper's.
 */
export interface ConsoleConfig {
  apiBase?: string | undefined;
  /** Host-supplied token source; never an attribute, so no secret lands in the markup. */
  getToken?: (() => Promise<string | null | undefined> | string | null | undefined) | undefined;
  credentials?: RequestCredentials | undefined;
  locale?: string | undefined;
  timeZone?: string | undefined;
  /** Milliseconds before a request fails as timed out. */
  timeoutMs?: number | undefined;
  /** A fetch to use instead of the global one (tracing, tests). */
  fetch?: typeof fetch | undefined;
}

export const consoleConfigContext = createContext<ConsoleConfig | undefined>(Symbol.for('ops-console/config'));
