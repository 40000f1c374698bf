import { Routes } from '@lit-labs/router';
import { html, type PropertyValues } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { property, query } from 'lit/decorators.js';
import { msg } from '../../localize/localize.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import { isModifiedClick } from '../../shared/navigate.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import type { RoutingMode } from './console-routes.ts';
import { styles } from './ops-console-app.styles.ts';

/** The console's sections, in the navigation's order: the path each lives at and its name. */
const SECTIONS = [
  { path: '/', label: () => msg('Overview') },
  { path: '/endpoints', label: () => msg('Endpoints') },
  { path: '/requests', label: () => msg('Requests') },
  { path: '/traffic', label: () => msg('Traffic') },
  { path: '/customers', label: () => msg('Customers') },
  { path: '/webhooks', label: () => msg('Webhooks') },
  { path: '/errors', label: () => msg('Errors') },
  { path: '/activity', label: () => msg('Activity') },
] as const;

/** A path segment as the id it encodes (`routes` encode ids); a malformed one is kept as it is. */
function idOf(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
}

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
    [
      { path: '/', render: () => html`<ops-overview></ops-overview>` },
      { path: '/endpoints', render: () => html`<ops-endpoint-table q=${this.query.get('q') ?? ''}></ops-endpoint-table>` },
      { path: '/endpoints/:id', render: ({ id }) => html`<ops-endpoint-detail endpoint-id=${idOf(id)}></ops-endpoint-detail>` },
      { path: '/requests', render: () => html`<ops-request-log></ops-request-log>` },
      { path: '/requests/:id', render: ({ id }) => html`<ops-request-detail request-id=${idOf(id)}></ops-request-detail>` },
      { path: '/traffic', render: () => html`<ops-traffic></ops-traffic>` },
      { path: '/customers', render: () => html`<ops-customer-list></ops-customer-list>` },
      { path: '/customers/:id', render: ({ id }) => html`<ops-customer customer-id=${idOf(id)}></ops-customer>` },
      { path: '/webhooks', render: () => html`<ops-webhook-list></ops-webhook-list>` },
      { path: '/webhooks/:id', render: ({ id }) => html`<ops-webhook webhook-id=${idOf(id)}></ops-webhook>` },
      { path: '/errors', render: () => html`<ops-error-list></ops-error-list>` },
      { path: '/errors/new', render: () => html`<ops-error-form></ops-error-form>` },
      { path: '/errors/:id', render: ({ id }) => html`<ops-error error-id=${idOf(id)}></ops-error>` },
      { path: '/activity', render: () => html`<ops-activity-feed></ops-activity-feed>` },
    ],
    {
      fallback: {
        render: () => html`<div class="not-found" role="status">
          <p>${msg('There is no such page in this console.')}</p>
          <a class="link" href=${this.hrefOf('/')} @click=${this.onLinkClick}>${msg('Go to the overview')}</a>
        </div>`,
      },
    },
  );

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.follow);
    addEventListener('popstate', this.follow);
    // On the window, after the host's own listeners: a host that cancels a drill-down routes it itself.
    addEventListener('ops-navigate', this.onNavigate);
    this.addEventListener('ops-error-created', this.onCreated);
    this.follow();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('hashchange', this.follow);
    removeEventListener('popstate', this.follow);
    removeEventListener('ops-navigate', this.onNavigate);
    this.removeEventListener('ops-error-created', this.onCreated);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another mode or base reads the address anew.
    if ((changed.has('routing') && changed.get('routing')) || (changed.has('basePath') && changed.get('basePath') !== undefined)) {
      this.followed = '';
      this.follow();
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
    const section = SECTIONS.find((s) => (s.path === '/' ? this.path === '/' : this.path === s.path || this.path.startsWith(`${s.path}/`)));
    return html`<nav part="nav" aria-label=${msg('Console')}>
        <ul>
          ${SECTIONS.map((s) => {
            // `page` on the section's own page; `true` on a page within it (an endpoint's, under Endpoints).
            const currentness = s !== section ? undefined : s.path === this.path ? 'page' : 'true';
            return html`<li><a href=${this.hrefOf(s.path)} aria-current=${ifDefined(currentness)} @click=${this.onLinkClick}>${s.label()}</a></li>`;
          })}
        </ul>
      </nav>
      <section part="view" class="view" tabindex="-1" aria-label=${section ? section.label() : msg('Console')}>${this.router.outlet()}</section>`;
  }

  /** In history mode the console's own links move it without loading a page, as its drill-downs do. */
  private onLinkClick = (event: MouseEvent): void => {
    if (this.routing !== 'history' || isModifiedClick(event)) return;
    event.preventDefault();
    history.pushState(null, '', (event.currentTarget as HTMLAnchorElement).href);
    this.follow();
  };

  /** The address of a path of this console. */
  private hrefOf(path: string): string {
    return this.routing === 'hash' ? `#${path}` : `${this.base()}${path}`;
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
  private follow = (): void => {
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
    void this.router.goto(path).then(() => this.requestUpdate());
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
    this.follow();
  };

  /** A record just created opens on its own page. */
  private onCreated = (event: Event): void => {
    const { record } = (event as CustomEvent<{ record: { id: string } }>).detail;
    const href = this.hrefOf(`/errors/${encodeURIComponent(record.id)}`);
    if (this.routing === 'hash') location.hash = href.slice(1);
    else {
      history.pushState(null, '', href);
      this.follow();
    }
  };
}
