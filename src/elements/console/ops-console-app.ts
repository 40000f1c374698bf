import { Routes } from '@lit-labs/router';
import { html, type PropertyValues } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { property, query } from 'lit/decorators.js';
import { msg } from '../../localize/localize.ts';
import type { NavigateDetail, RangeDetail } from '../../shared/events.ts';
import { isModifiedClick } from '../../shared/navigate.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { rangeQuery, type RoutingMode } from './console-routes.ts';
import { styles } from './ops-console-app.styles.ts';
import { SECTIONS, VIEWS } from './views.ts';

/**
 * The whole console inside `<ops-console routing>`: a navigation and one view per URL, with
 * back/forward and deep links working. Loaded by the wrapper the first time `routing` is set.
 *
 * @customElement ops-console-app
 * @internal
 */
export class OpsConsoleApp extends OpsElement {
  static override styles = [...OpsElement.styles, styles];

  /** `hash` (`#/endpoints/ep_1`) or `history` (`/ops/endpoints/ep_1` under `base-path`). */
  @property() routing: RoutingMode = 'hash';

  /** With `history`, the path the console lives under (`/ops`). */
  @property({ attribute: 'base-path' }) basePath = '';

  @query('.view') private viewEl?: HTMLElement;

  /** The path below the base, as the router matches it (`/endpoints/ep_1`). */
  private path = '/';
  /** The address's query (`?q=/messages` from the overview's share chart): a list opens with its search. */
  private query = new URLSearchParams();
  /** The whole address last followed, so a change of the query alone is followed too. */
  private followed = '';
  private navigated = false;

  private readonly router = new Routes(
    this,
    VIEWS.map((view) => ({
      path: view.path,
      // A customer's console has only the pages of the contract's customer views.
      render: (params: Record<string, string | undefined>) =>
        this.forCustomer && !view.customerView ? this.renderNotFound() : view.render(params, this.query),
    })),
    { fallback: { render: () => this.renderNotFound() } },
  );

  private renderNotFound() {
    return html`<div class="not-found" role="status">
      <p>${msg('There is no such page in this console.')}</p>
      <a class="link" href=${this.hrefOf('/')} @click=${this.onLinkClick}>${msg('Go to the overview')}</a>
    </div>`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.followAddress);
    addEventListener('popstate', this.followAddress);
    // On the window, after the host's own listeners: a host that cancels a drill-down routes it itself.
    addEventListener('ops-navigate', this.onNavigate);
    this.addEventListener('ops-error-created', this.onCreated);
    this.followAddress();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('hashchange', this.followAddress);
    removeEventListener('popstate', this.followAddress);
    removeEventListener('ops-navigate', this.onNavigate);
    this.removeEventListener('ops-error-created', this.onCreated);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another mode or base reads the address anew.
    if ((changed.has('routing') && changed.get('routing')) || (changed.has('basePath') && changed.get('basePath') !== undefined)) {
      this.followed = '';
      this.followAddress();
    }
  }

  protected override updated(): void {
    // After a move (not on arrival), the new view takes the focus, as a page load would.
    if (this.navigated) {
      this.navigated = false;
      this.viewEl?.focus({ preventScroll: true });
      this.viewEl?.scrollIntoView({ block: 'nearest' });
    }
  }

  override render() {
    const sections = SECTIONS.filter((s) => !this.forCustomer || 'customerView' in s);
    const section = sections.find((s) => (s.path === '/' ? this.path === '/' : this.path === s.path || this.path.startsWith(`${s.path}/`)));
    return html`<nav part="nav" aria-label=${msg('Console')}>
        <ul>
          ${sections.map((s) => {
            // `page` on the section's own page; `true` on a page within it (an endpoint's, under Endpoints).
            const currentness = s !== section ? undefined : s.path === this.path ? 'page' : 'true';
            return html`<li><a href=${this.hrefOf(s.path)} aria-current=${ifDefined(currentness)} @click=${this.onLinkClick}>${s.label()}</a></li>`;
          })}
        </ul>
        <ops-time-range part="time-range" @ops-range-change=${this.onRangeChosen}></ops-time-range>
      </nav>
      <section part="view" class="view" tabindex="-1" aria-label=${section ? section.label() : msg('Console')}>${this.router.outlet()}</section>`;
  }

  /** In history mode the console's own links move it without loading a page, as its drill-downs do. */
  private onLinkClick = (event: MouseEvent): void => {
    if (this.routing !== 'history' || isModifiedClick(event)) return;
    event.preventDefault();
    history.pushState(null, '', (event.currentTarget as HTMLAnchorElement).href);
    this.followAddress();
  };

  /** The address of a path of this console, with the time range in force unless told not to. */
  private hrefOf(path: string, withRange = true): string {
    const query = withRange ? rangeQuery(this.consoleConfig?.range ?? {}) : '';
    return `${this.routing === 'hash' ? `#${path}` : `${this.base()}${path}`}${query ? `?${query}` : ''}`;
  }

  private base(): string {
    return this.basePath.replace(/\/+$/, '');
  }

  /** The query of the current address: after the path in the hash, or the page's own. */
  private currentQuery(): URLSearchParams {
    return new URLSearchParams(this.routing === 'hash' ? (location.hash.split('?')[1] ?? '') : location.search);
  }

  /** The console's path in the current address, `/` when the address is outside it; `undefined` for a hash of the host's own (`#main`). */
  private currentPath(): string | undefined {
    if (this.routing === 'hash') {
      if (location.hash && location.hash !== '#' && !location.hash.startsWith('#/')) return undefined;
      return location.hash.slice(1).split('?')[0] || '/';
    }
    const base = this.base();
    const path = location.pathname;
    if (base && path !== base && !path.startsWith(`${base}/`)) return '/';
    return path.slice(base.length) || '/';
  }

  /** Shows the view of the current address (on arrival, and after back, forward or a link). */
  private followAddress = (): void => {
    const path = this.currentPath();
    // A skip link or an in-page anchor of the host: the console stays where it is.
    if (path === undefined) return;
    const query = this.currentQuery();
    const address = `${path}?${query.toString()}`;
    if (address === this.followed && this.hasUpdated) return;
    this.navigated = this.hasUpdated;
    this.followed = address;
    this.path = path;
    this.query = query;
    // The range in the address is the console's: every element inside follows it (none: the default periods).
    // A hand-written `+02:00` arrives as a space (a query's `+`): it is the offset's sign.
    const instant = (name: string) => query.get(name)?.replace(/ /g, '+') ?? undefined;
    const range = { range: query.get('range') ?? undefined, from: instant('from'), to: instant('to') };
    if (rangeQuery(range) !== rangeQuery(this.consoleConfig?.range ?? {})) this.emit('ops-range-change', range);
    void this.router.goto(path).then(() => this.requestUpdate());
  };

  /** A range chosen in the navigation goes into the address (a step back returns to the one before), and from there to every element. */
  private onRangeChosen = (event: CustomEvent<RangeDetail>): void => {
    event.stopPropagation();
    const query = this.currentQuery();
    for (const name of ['range', 'from', 'to']) query.delete(name);
    for (const [name, value] of new URLSearchParams(rangeQuery(event.detail))) query.set(name, value);
    const href = `${this.hrefOf(this.path, false)}${query.size ? `?${query}` : ''}`;
    if (this.routing === 'hash') location.hash = href.slice(1);
    else {
      history.pushState(null, '', href);
      this.followAddress();
    }
  };

  /** In history mode a drill-down's link would load a new page: the console moves itself instead. */
  private onNavigate = (event: Event): void => {
    const { href } = (event as CustomEvent<NavigateDetail>).detail;
    if (this.routing !== 'history' || event.defaultPrevented || !href || !event.composedPath().includes(this)) return;
    const url = new URL(href, location.href);
    const base = this.base();
    if (url.origin !== location.origin || (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`))) return;
    event.preventDefault();
    history.pushState(null, '', url);
    this.followAddress();
  };

  /** A record just created opens on its own page. */
  private onCreated = (event: Event): void => {
    const { record } = (event as CustomEvent<{ record: { id: string } }>).detail;
    const href = this.hrefOf(`/errors/${encodeURIComponent(record.id)}`);
    if (this.routing === 'hash') location.hash = href.slice(1);
    else {
      history.pushState(null, '', href);
      this.followAddress();
    }
  };
}
