import { Routes } from '@lit-labs/router';
import { html, nothing, type PropertyValues } from 'lit';
import { property, query } from 'lit/decorators.js';
import { msg } from '../../localize/localize.ts';
import type { NavigateDetail } from '../../shared/events.ts';
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

  @query('main') private mainEl?: HTMLElement;

  /** The path below the base, as the router matches it (`/endpoints/ep_1`). */
  private path = '/';
  private navigated = false;

  private readonly router = new Routes(
    this,
    [
      { path: '/', render: () => html`<ops-overview></ops-overview>` },
      { path: '/endpoints', render: () => html`<ops-endpoint-table></ops-endpoint-table>` },
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
          <a href=${this.hrefOf('/')}>${msg('Go to the overview')}</a>
        </div>`,
      },
    },
  );

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener(this.routing === 'hash' ? 'hashchange' : 'popstate', this.follow);
    this.addEventListener('ops-navigate', this.onNavigate);
    this.addEventListener('ops-error-created', this.onCreated);
    this.follow();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('hashchange', this.follow);
    removeEventListener('popstate', this.follow);
    this.removeEventListener('ops-navigate', this.onNavigate);
    this.removeEventListener('ops-error-created', this.onCreated);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Switching modes: listen for the other kind of change.
    if (changed.has('routing') && changed.get('routing')) {
      removeEventListener('hashchange', this.follow);
      removeEventListener('popstate', this.follow);
      addEventListener(this.routing === 'hash' ? 'hashchange' : 'popstate', this.follow);
    }
  }

  protected override updated(): void {
    // After a move (not on arrival), the new view takes the focus, as a page load would.
    if (this.navigated) {
      this.navigated = false;
      this.mainEl?.focus({ preventScroll: true });
      this.mainEl?.scrollIntoView({ block: 'nearest' });
    }
  }

  override render() {
    return html`<nav part="nav" aria-label=${msg('Console')}>
        <ul>
          ${SECTIONS.map((section) => {
            const current = section.path === '/' ? this.path === '/' : this.path === section.path || this.path.startsWith(`${section.path}/`);
            return html`<li><a href=${this.hrefOf(section.path)} aria-current=${current ? 'page' : nothing}>${section.label()}</a></li>`;
          })}
        </ul>
      </nav>
      <main part="view" tabindex="-1">${this.router.outlet()}</main>`;
  }

  /** The address of a path of this console. */
  private hrefOf(path: string): string {
    return this.routing === 'hash' ? `#${path}` : `${this.base()}${path}`;
  }

  private base(): string {
    return this.basePath.replace(/\/+$/, '');
  }

  /** The console's path in the current address, `/` when the address is outside it. */
  private currentPath(): string {
    if (this.routing === 'hash') return location.hash.replace(/^#/, '').split('?')[0] || '/';
    const base = this.base();
    const path = location.pathname;
    if (base && path !== base && !path.startsWith(`${base}/`)) return '/';
    return path.slice(base.length) || '/';
  }

  /** Shows the view of the current address (on arrival, and after back, forward or a link). */
  private follow = (): void => {
    const path = this.currentPath();
    if (path === this.path && this.hasUpdated) return;
    this.navigated = this.hasUpdated;
    this.path = path;
    void this.router.goto(path).then(() => this.requestUpdate());
  };

  /** In history mode a drill-down's link would load a new page: the console moves itself instead. */
  private onNavigate = (event: Event): void => {
    const { href } = (event as CustomEvent<NavigateDetail>).detail;
    if (this.routing !== 'history' || event.defaultPrevented || !href) return;
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
