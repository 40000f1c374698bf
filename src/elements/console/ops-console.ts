import { provide } from '@lit/context';
import { css, html, LitElement, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { consoleConfigContext, type ConsoleConfig } from '../../shared/config.ts';

/**
 * Optional wrapper that configures every ops element inside it once. An element's own
 * attribute wins over the wrapper's.
 *
 * @summary Provides api-base, getToken, locale and time zone to the elements inside it.
 *
 * @slot - Any markup containing ops elements, at any depth (also inside shadow roots).
 */
export class OpsConsole extends LitElement {
  static override styles = css`
    :host {
      display: contents;
    }
  `;

  /** Base URL of the console API. */
  @property({ attribute: 'api-base' }) apiBase?: string;

  /** BCP 47 locale for every element inside. */
  @property() locale?: string;

  /** IANA time zone for every element inside. */
  @property({ attribute: 'time-zone' }) timeZone?: string;

  /** `include` to send cookies to an API on another origin. */
  @property() credentials?: RequestCredentials;

  /** Milliseconds before a request counts as timed out. */
  @property({ type: Number, attribute: 'timeout-ms' }) timeoutMs?: number;

  /** Async token source; its result is sent as `Authorization: Bearer`. A property only, never an attribute. */
  @property({ attribute: false }) getToken?: ConsoleConfig['getToken'];

  /** A fetch to use instead of the global one. */
  @property({ attribute: false }) fetch?: typeof globalThis.fetch;

  @provide({ context: consoleConfigContext }) protected config: ConsoleConfig = {};

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.size) {
      // A new object, so consumers see the change and rebuild their client.
      this.config = {
        apiBase: this.apiBase,
        locale: this.locale,
        timeZone: this.timeZone,
        credentials: this.credentials,
        timeoutMs: this.timeoutMs,
        getToken: this.getToken,
        fetch: this.fetch,
      };
    }
  }

  override render() {
    return html`<slot></slot>`;
  }
}
