import { ContextProvider } from '@lit/context';
import { css, html, LitElement, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { DEFAULT_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../../api/client.ts';
import { consoleConfigContext, type Audience, type ConsoleConfig, type Routes } from '../../shared/config.ts';
import type { RangeDetail } from '../../shared/events.ts';
import { numberConverter, type NumberRule } from '../../shared/numbers.ts';
import { consoleRoutes, loadConsoleApp, type RoutingMode } from './console-routes.ts';

const TIMEOUT: NumberRule = { tag: 'ops-console', attribute: 'timeout-ms', fallback: DEFAULT_TIMEOUT_MS, min: MIN_TIMEOUT_MS, max: 600_000 };

/**
 * Optional wrapper that configures every ops element inside it once. An element's own
 * attribute wins over the wrapper's.
 *
 * With `routing`, it is the whole console instead: a navigation (Overview, Endpoints, Requests,
 * Traffic, Customers, Webhooks, Errors, Activity) and each view on its own URL, with back,
 * forward and deep links working; that part is loaded the first time `routing` is set.
 *
 * @summary Provides api-base, getToken, token origins, routes, locale, time zone and time range to the elements inside it; with `routing`, the whole console.
 *
 * @slot - Any markup containing ops elements, at any depth (also inside shadow roots); with `routing`, shown after the console.
 * @csspart nav - With `routing`: the console's navigation.
 * @csspart view - With `routing`: the region showing the current view.
 *
 * @customElement ops-console
 */
export class OpsConsole extends LitElement {
  /** Registers this class under `tag` unless the tag is already taken. */
  static define(tag: string): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

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

  /**
   * `customer` for a console one of the API's customers sees (with an embed session's token):
   * its own usage, worded for it, without the operators' parts; routed, only the pages a
   * customer has. Default `operator`.
   */
  @property() audience?: Audience;

  /** `include` to send cookies to an API on another origin. */
  @property() credentials?: RequestCredentials;

  /** Milliseconds before a request counts as timed out: 1,000 to 600,000 (default 15,000); another value falls back with a warning. */
  @property({ type: Number, attribute: 'timeout-ms', converter: numberConverter(TIMEOUT) }) timeoutMs?: number;

  /**
   * Async token source, called with the request URL; its result is sent as `Authorization: Bearer`
   * only to this wrapper's `api-base` origin (the page's origin for a relative base) and the
   * `token-origins`. A property only, never an attribute.
   */
  @property({ attribute: false }) getToken?: ConsoleConfig['getToken'];

  /** More origins that may receive the token, space-separated (`https://api.example.com https://eu.api.example.com`). */
  @property({ attribute: 'token-origins', converter: { fromAttribute: (value) => (value ?? '').split(/\s+/).filter(Boolean) } })
  tokenOrigins?: string[];

  /**
   * Drill-down URL templates, e.g. `{ endpoint: '/ops/endpoints/{id}', customer: '/ops/customers/{id}', errors: '/ops/errors' }`.
   * With one, drill-downs are real links (new tab, copy address); a plain click still fires the cancelable `ops-navigate` first.
   */
  @property({ attribute: false }) routes?: Routes;

  /**
   * `hash` (`#/endpoints/ep_1`, works on any host) or `history` (`/ops/endpoints/ep_1`, the host
   * serves the console's page on every path below `base-path`): the wrapper becomes the whole
   * console. Its drill-downs lead to its own views unless the host gives `routes`.
   */
  @property({ reflect: true }) routing?: RoutingMode;

  /** With `routing="history"`, the path the console lives under (`/ops`). */
  @property({ attribute: 'base-path' }) basePath = '';

  /**
   * The time range of every element inside (unless it sets its own): `1h`, `24h`, `7d`, `30d` or
   * `12m`. Unset, each shows its default period. An `<ops-time-range>` inside (the routed console
   * has one) changes it for everyone; this attribute is then the range to return to.
   */
  @property({ reflect: true }) range?: string;

  /** Start of a custom time range for every element inside, an ISO timestamp (with `to`). */
  @property() from?: string;

  /** End of a custom time range for every element inside, exclusive, an ISO timestamp (with `from`). */
  @property() to?: string;

  /** The range last chosen inside (an `<ops-time-range>`, or the routed console's address); it wins over the attributes. */
  @state() private chosenRange?: RangeDetail;

  /** A fetch to use instead of the global one. */
  @property({ attribute: false }) fetch?: typeof globalThis.fetch;

  /**
   * Present while a framework is still setting this wrapper's properties (the React wrappers
   * render it and remove it once `getToken`, `routes` and `fetch` are set, also after server
   * rendering). Until then the elements inside wait and send no request.
   */
  @property({ type: Boolean, attribute: 'defer-hydration' }) deferHydration = false;

  // The controller rather than the @provide decorator: the same provider, in less of the core's bytes.
  // `waiting` until the first update: an element inside never loads with a configuration not yet given.
  readonly #config = new ContextProvider(this, { context: consoleConfigContext, initialValue: { waiting: true } });

  constructor() {
    super();
    // A range chosen anywhere inside applies to every element inside; an empty one returns to the attributes'.
    this.addEventListener('ops-range-change', (event) => {
      if (event.defaultPrevented) return;
      const { range, from, to } = event.detail;
      this.chosenRange = range || from || to ? { range, from, to } : undefined;
    });
  }

  /** The time range in force: the one chosen inside, else the attributes'. */
  private get timeRange(): RangeDetail | undefined {
    return this.chosenRange ?? (this.range || this.from || this.to ? { range: this.range, from: this.from, to: this.to } : undefined);
  }

  protected override shouldUpdate(): boolean {
    return !this.deferHydration;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const asked: string = this.routing ?? '';
    if (changed.has('routing') && asked && !this.mode()) {
      console.warn(
        asked === 'hash' || asked === 'history'
          ? 'ignored routing on ops-console: this browser has no URLPattern (load a polyfill such as urlpattern-polyfill first).'
          : `ignored routing="${asked.slice(0, 20)}" on ops-console: use hash or history.`,
      );
    }
    if (changed.size) {
      // A new object, so consumers see the change and rebuild their client.
      this.#config.setValue({
        apiBase: this.apiBase,
        locale: this.locale,
        timeZone: this.timeZone,
        audience: this.audience,
        credentials: this.credentials,
        timeoutMs: this.timeoutMs,
        getToken: this.getToken,
        tokenOrigins: this.tokenOrigins,
        fetch: this.fetch,
        range: this.timeRange,
        // The host's templates win one by one; the console's own lead everywhere else.
        routes: this.mode() ? { ...consoleRoutes(this.mode()!, this.basePath, this.timeRange, this.audience), ...this.routes } : this.routes,
      });
    }
    // Loaded once, the first time it is wanted: hosts that route themselves never download the views.
    if (this.mode() && !customElements.get('ops-console-app')) {
      loadConsoleApp().catch((error: unknown) => console.warn('ops-console could not load its views:', error));
    }
  }

  /** The routing mode in force: a known one in a browser that matches addresses (URLPattern), else none. */
  private mode(): RoutingMode | undefined {
    return (this.routing === 'hash' || this.routing === 'history') && 'URLPattern' in globalThis ? this.routing : undefined;
  }

  override render() {
    const mode = this.mode();
    return mode
      ? html`<ops-console-app part="app" exportparts="nav, view" routing=${mode} base-path=${this.basePath}></ops-console-app><slot></slot>`
      : html`<slot></slot>`;
  }
}
