import { ContextConsumer } from '@lit/context';
import { LitElement, type CSSResultArray, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { createConsoleClient, resolveBase, type ConsoleClient } from '../api/client.ts';
import type { FormatOptions } from '../format/format.ts';
import { renderInLocale, renderingLanguage } from '../localize/localize.ts';
import { pageLocale, watchLocale } from '../localize/page-locale.ts';
import { consoleConfigContext, type Audience, type ConsoleConfig } from './config.ts';
import { createOpsEvent, type EventDetail, type NavigateDetail, type OpsEventMap } from './events.ts';
import { renderLink, routeHref, safeHref, type LinkState } from './navigate.ts';
import { sharedStyles, tokens } from './styles.ts';
import { CUSTOMER_KINDS, OPERATOR_TAGS } from './view-paths.ts';

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
  /** Tokens and the shared panel styles; an element adds its own after these. */
  static override styles: CSSResultArray = [tokens, sharedStyles];

  /** Registers this class under `tag` unless the tag is already taken (a second copy of the library on the page). */
  static define(tag: string): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** Base URL of the console API, e.g. `/api/v1` or `https://portal.example.com/console/v1`. */
  @property({ attribute: 'api-base' }) apiBase?: string;

  /**
   * BCP 47 locale of the UI text, numbers and dates: `de`, `ja-JP`, `en-GB`. Unset, the
   * `<ops-console>` wrapper's applies, else the page's `<html lang>`, else `en-US`. Text is in
   * English, German or Japanese, or a language the host registered (`registerTranslations`).
   */
  @property() locale?: string;

  /** IANA time zone for times such as `14 Sep 2026 at 09:41` (default: the browser's). */
  @property({ attribute: 'time-zone' }) timeZone?: string;

  /**
   * Who the element speaks to. `customer` shows one of the API's customers their own usage: the
   * parts for the API's team (links to customers, owners, notes, error records, activity) are
   * left out and the wording says "your"; the console API decides what the token may read.
   * Unset, the `<ops-console>` wrapper's applies, else `operator`.
   */
  @property() audience?: Audience;

  /** `light` or `dark` forces a scheme, `auto` follows the OS; unset follows the page's `color-scheme`. */
  @property({ reflect: true }) theme?: 'light' | 'dark' | 'auto';

  /**
   * Present while a framework is still setting this element's properties (the React wrappers
   * render it and remove it once they are set, also after server rendering): until it is
   * removed the element renders nothing and sends no request.
   */
  @property({ type: Boolean, attribute: 'defer-hydration' }) deferHydration = false;

  // The controller rather than the @consume decorator: the same consumer, in less of the core's bytes.
  readonly #config = new ContextConsumer(this, { context: consoleConfigContext, subscribe: true, callback: () => this.requestUpdate() });

  /** The `<ops-console>` wrapper's configuration, when the element is inside one. */
  protected get consoleConfig(): ConsoleConfig | undefined {
    return this.#config.value;
  }

  #client?: { key: readonly unknown[]; client: ConsoleClient };

  /** Changes made while the element waited, handed to the update that ends the wait. */
  readonly #held = new Map<PropertyKey, unknown>();

  /**
   * Waits while deferred, and while the wrapper around it has no configuration yet. Lit forgets
   * the changes of a skipped update, so they are kept and given to the next one: a `limit` or
   * `ageRefreshMs` set while waiting still reaches `willUpdate`.
   */
  protected override shouldUpdate(changed: PropertyValues): boolean {
    // An operators' panel in a customer's page is left out rather than refused by the API.
    if (this.deferHydration || this.consoleConfig?.waiting || (this.forCustomer && OPERATOR_TAGS.includes(this.localName))) {
      for (const [key, old] of changed) if (!this.#held.has(key)) this.#held.set(key, old);
      return false;
    }
    for (const [key, old] of this.#held) if (!changed.has(key)) changed.set(key, old);
    this.#held.clear();
    return true;
  }

  /**
   * The API base in force, or `undefined` when neither the element nor a wrapper sets one.
   * @internal
   */
  get resolvedApiBase(): string | undefined {
    return this.apiBase?.trim() || this.consoleConfig?.apiBase?.trim() || undefined;
  }

  /**
   * Whether the element speaks to a customer: its own `audience`, else the wrapper's.
   * @internal
   */
  get forCustomer(): boolean {
    return (this.audience || this.consoleConfig?.audience) === 'customer';
  }

  /**
   * The parts only the API's team sees (a customer column, an owner, a notes form), left out for
   * a customer: spread into a list of facts, columns or sections.
   */
  protected forOperators<T>(...parts: T[]): T[] {
    return this.forCustomer ? [] : parts;
  }

  #zoneChecked?: { zone: string; valid: boolean };

  /**
   * The locale in force: the element's own, else the wrapper's, else the page's `<html lang>`.
   * @internal
   */
  get resolvedLocale(): string | undefined {
    // `pt_BR` as `pt-BR`: Intl refuses the underscore, and would format in en-US beside Portuguese text.
    return (this.locale?.trim() || this.consoleConfig?.locale?.trim() || pageLocale())?.replace(/_/g, '-');
  }

  #unwatchLocale?: () => void;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatchLocale = watchLocale(() => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatchLocale?.();
    // Moved elsewhere, the element takes the configuration found there (or none), not the old wrapper's.
    this.#config.value = undefined;
  }

  /** Renders with `msg()` answering in this element's locale (see `localize.ts`). */
  protected override update(changed: PropertyValues): void {
    renderInLocale(this.resolvedLocale, () => {
      super.update(changed);
      this.#markLanguage(renderingLanguage());
    });
  }

  #markedLanguage?: string;

  /**
   * `lang` on the element names the language its text is in (a Japanese panel on an English page,
   * or English where no translation exists), so screen readers pick the right voice and the
   * browser the right glyphs; a `lang` the host set itself is left alone.
   */
  #markLanguage(language: string): void {
    const own = this.getAttribute('lang');
    if (own !== null && own !== this.#markedLanguage) return;
    if (own !== language) this.setAttribute('lang', language);
    this.#markedLanguage = language;
  }

  /**
   * Locale and time zone in force (own attributes over the wrapper's); an unknown zone falls back with a warning.
   * @internal
   */
  get formatOptions(): FormatOptions {
    return { locale: this.resolvedLocale, timeZone: this.#validZone(this.timeZone || this.consoleConfig?.timeZone) };
  }

  /** An unknown IANA zone falls back to the browser's, and the page is told once per value. */
  #validZone(zone: string | undefined): string | undefined {
    if (!zone) return undefined;
    // Checked once per value: building a formatter to find out takes about a millisecond, and every render asks.
    if (this.#zoneChecked?.zone !== zone) {
      let valid = true;
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
      } catch {
        valid = false;
        console.warn(`<${this.localName}> ignored time-zone="${zone.slice(0, 40)}": not an IANA time zone; using the browser's.`);
      }
      this.#zoneChecked = { zone, valid };
    }
    return this.#zoneChecked.valid ? zone : undefined;
  }

  /**
   * The client for the configuration in force; the same object until the configuration
   * changes. The wrapper's token goes only to the wrapper's API origin (or the page's, for a
   * relative base) and the host's `token-origins`, never to wherever an element's own api-base points.
   * @internal
   */
  get client(): ConsoleClient | undefined {
    const baseUrl = this.resolvedApiBase;
    if (!baseUrl) return undefined;
    const config = this.consoleConfig;
    const key = [baseUrl, config?.apiBase, config?.getToken, config?.tokenOrigins, config?.credentials, config?.fetch, config?.timeoutMs] as const;
    if (!this.#client || key.some((part, i) => !Object.is(part, this.#client!.key[i]))) {
      this.#client = {
        key,
        client: createConsoleClient({
          baseUrl,
          getToken: config?.getToken,
          tokenOrigins: [...trustedOrigin(config?.apiBase), ...(config?.tokenOrigins ?? [])],
          credentials: config?.credentials,
          fetch: config?.fetch,
          timeoutMs: config?.timeoutMs,
        }),
      };
    }
    return this.#client.client;
  }

  /** The host's href for a drill-down target (from the wrapper's `routes`), if any. */
  protected hrefFor(target: Pick<NavigateDetail, 'kind' | 'id'>): string | undefined {
    return routeHref(this.consoleConfig?.routes, target);
  }

  /**
   * The one way elements navigate: fires the cancelable `ops-navigate` with `{ kind, id, label, href }`.
   * Returns `true` when the host cancelled it (and so routes itself).
   * @internal
   */
  navigate = (target: NavigateDetail): boolean => {
    const detail: NavigateDetail = { kind: target.kind, id: target.id };
    if (target.label !== undefined) detail.label = target.label;
    if (target.href !== undefined) detail.href = target.href;
    if (target.q !== undefined) detail.q = target.q;
    if (target.state !== undefined) detail.state = target.state;
    if (target.from !== undefined) detail.from = target.from;
    if (target.to !== undefined) detail.to = target.to;
    if (target.customerId !== undefined) detail.customerId = target.customerId;
    if (target.endpointId !== undefined) detail.endpointId = target.endpointId;
    if (target.keyId !== undefined) detail.keyId = target.keyId;
    if (target.status !== undefined) detail.status = target.status;
    return !this.emit('ops-navigate', detail, { cancelable: true });
  };

  /** A list page (`errors`, `webhooks`, `endpoints`, `customers`): the element's own `*-href` if safe, else the wrapper's route, else `#<kind>`. */
  protected listTarget(
    kind: 'errors' | 'webhooks' | 'endpoints' | 'customers' | 'keys' | 'requests' | 'new-error' | 'alerts',
    ownHref: string | undefined,
    attribute: string,
    /** What the list opens with (`{ q }`, `{ from, to }`): in the detail, and in the href's query. */
    opens: { q?: string; from?: string; to?: string; customerId?: string; endpointId?: string; keyId?: string; status?: string; state?: string } = {},
    label?: string,
  ): NavigateDetail {
    const fallback = this.hrefFor({ kind, id: '' }) ?? `#${kind}`;
    const href = safeHref(ownHref, fallback, attribute);
    const query = new URLSearchParams(opens).toString();
    return {
      kind,
      id: '',
      ...opens,
      ...(label === undefined ? {} : { label }),
      href: href && query ? `${href}${href.includes('?') ? '&' : '?'}${query}` : href,
    };
  }

  /** A drill-down without a link of its own (a bar or slice of a canvas): fires `ops-navigate`, and follows its href unless the host took it over. */
  protected follow(target: NavigateDetail): void {
    if (!this.navigate(target) && target.href) location.assign(target.href);
  }

  /** A drill-down to `target`: a real link when the host supplies a route for it, else a button. */
  protected renderLink(target: NavigateDetail, label: unknown, className?: string, part?: string) {
    // A customer's drill-downs stay inside what its console has: the rest is plain text.
    if (this.forCustomer && !(CUSTOMER_KINDS as readonly string[]).includes(target.kind)) return label;
    const state: LinkState = { target: { ...target, href: target.href ?? this.hrefFor(target) }, label, className, part };
    return renderLink(state, { navigate: this.navigate });
  }

  /**
   * Fires a prefixed, bubbling, composed event; returns `false` when a listener cancelled it.
   * @internal
   */
  emit<K extends keyof OpsEventMap>(type: K, detail: EventDetail<K>, { cancelable = false } = {}): boolean {
    return this.dispatchEvent(createOpsEvent(type, detail, cancelable));
  }
}

/** The wrapper's API origin, trusted with its token: absolute bases by their origin, relative ones by the page's. */
function trustedOrigin(apiBase: string | undefined): string[] {
  try {
    return [resolveBase(apiBase?.trim() || '.').origin];
  } catch {
    return [];
  }
}
