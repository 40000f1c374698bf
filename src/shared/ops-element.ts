import { consume } from '@lit/context';
import { LitElement } from 'lit';
import { property, state } from 'lit/decorators.js';
import { createConsoleClient, type ConsoleClient } from '../api/client.ts';
import type { FormatOptions } from '../format/format.ts';
import { consoleConfigContext, type ConsoleConfig } from './config.ts';
import { createOpsEvent, type EventDetail, type OpsEventMap } from './events.ts';

/**
 * The thin base of every element: configuration (own attributes over the `<ops-console>`
 * context), a memoised API client, format options and a typed `emit()`. Nothing else.
 *
 * @cssprop --ops-font-family - Font stack of every element.
 * @cssprop --ops-font-size - Base font size.
 * @cssprop --ops-color-surface - Panel background.
 * @cssprop --ops-color-surface-raised - Header rows, hover and skeleton background.
 * @cssprop --ops-color-text - Main text.
 * @cssprop --ops-color-text-muted - Secondary text.
 * @cssprop --ops-color-border - Borders and separators.
 * @cssprop --ops-color-accent - Links, buttons and focus.
 * @cssprop --ops-color-success - Healthy, Active, Fixed and good changes.
 * @cssprop --ops-color-warning - Slow and Open.
 * @cssprop --ops-color-danger - Failing, Expired, errors and bad changes.
 * @cssprop --ops-color-neutral - Unknown enum values and flat changes.
 * @cssprop --ops-chart-1 - First series colour of charts (then -2 … -5).
 * @cssprop --ops-chart-2 - Second series colour.
 * @cssprop --ops-chart-3 - Third series colour.
 * @cssprop --ops-chart-4 - Fourth series colour.
 * @cssprop --ops-chart-5 - Fifth series colour.
 * @cssprop --ops-chart-height - Height of a chart (default 220px).
 * @cssprop --ops-radius - Corner radius.
 * @cssprop --ops-space - Base spacing unit.
 */
export class OpsElement extends LitElement {
  /** Base URL of the console API, e.g. `/api/v1` or `https://portal.example.com/console/v1`. */
  @property({ attribute: 'api-base' }) apiBase?: string;

  /** BCP 47 locale for numbers and dates (default `en-US`). */
  @property() locale?: string;

  /** IANA time zone for times such as `14 Sep 2026 at 09:41` (default: the browser's). */
  @property({ attribute: 'time-zone' }) timeZone?: string;

  /** `light` or `dark` forces a scheme, `auto` follows the OS; unset follows the page's `color-scheme`. */
  @property({ reflect: true }) theme?: 'light' | 'dark' | 'auto';

  @consume({ context: consoleConfigContext, subscribe: true })
  @state()
  protected consoleConfig?: ConsoleConfig;

  #client?: { key: readonly unknown[]; client: ConsoleClient };

  /** The API base in force, or `undefined` when neither the element nor a wrapper sets one. */
  get resolvedApiBase(): string | undefined {
    return this.apiBase?.trim() || this.consoleConfig?.apiBase?.trim() || undefined;
  }

  protected get formatOptions(): FormatOptions {
    return { locale: this.locale || this.consoleConfig?.locale, timeZone: this.timeZone || this.consoleConfig?.timeZone };
  }

  /** The client for the configuration in force; the same object until the configuration changes. */
  get client(): ConsoleClient | undefined {
    const baseUrl = this.resolvedApiBase;
    if (!baseUrl) return undefined;
    const config = this.consoleConfig;
    const key = [baseUrl, config?.getToken, config?.credentials, config?.fetch, config?.timeoutMs] as const;
    if (!this.#client || key.some((part, i) => part !== this.#client!.key[i])) {
      this.#client = {
        key,
        client: createConsoleClient({
          baseUrl,
          getToken: config?.getToken,
          credentials: config?.credentials,
          fetch: config?.fetch,
          timeoutMs: config?.timeoutMs,
        }),
      };
    }
    return this.#client.client;
  }

  /** Fires a prefixed, bubbling, composed event; returns `false` when a listener cancelled it. */
  emit<K extends keyof OpsEventMap>(type: K, detail: EventDetail<K>, { cancelable = false } = {}): boolean {
    return this.dispatchEvent(createOpsEvent(type, detail, cancelable));
  }
}
