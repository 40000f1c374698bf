import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ACTIVITY_KINDS, type ActivityItem, type Page } from '../../api/schemas.ts';
import { formatAge, formatDateTime } from '../../format/format.ts';
import { renderAvatar } from '../../shared/avatar.ts';
import { DataTask } from '../../shared/data-task.ts';
import { IntervalController } from '../../shared/interval.ts';
import { MorePages, pageLimit } from '../../shared/more-pages.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { sharedStyles, tokens } from '../../shared/styles.ts';
import { styles } from './ops-activity-feed.styles.ts';

export const ACTIVITY_KIND_LABELS: Record<(typeof ACTIVITY_KINDS)[number], string> = {
  'rate-limit-raised': 'Rate limit raised',
  'key-created': 'Key created',
  'error-spike': 'Error spike',
  'docs-published': 'Docs published',
  'endpoint-deprecated': 'Endpoint deprecated',
};

const clampLimit = (limit: number) => pageLimit(limit, 20);

/**
 * Recent activity across the account: who did what, and how long ago.
 *
 * @summary Latest-activity feed with kind filter, "Load more" and optional live refresh.
 *
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the feed shows the error and Retry.
 *
 * @csspart base - The panel.
 * @csspart filters - The group of filter buttons.
 * @csspart list - The list of items.
 * @csspart item - One activity item.
 * @csspart avatar - The actor's initials.
 * @csspart load-more - The "Load more" button.
 * @csspart skeleton - The loading placeholder.
 * @csspart empty - The empty-state message.
 * @csspart error - The error panel.
 * @csspart retry-button - The Retry button of the error panel.
 *
 * @cssprop --ops-feed-max-height - Set to make the list scroll within this height (default: none).
 */
export class OpsActivityFeed extends OpsElement {
  static override styles = [tokens, sharedStyles, styles];

  /** Only this kind (`rate-limit-raised`, `key-created`, `error-spike`, `docs-published`, `endpoint-deprecated`); empty is "All". */
  @property({ reflect: true }) kind = '';

  /** Items per page, 1–500. */
  @property({ type: Number }) limit = 20;

  /** Seconds between checks for new items; 0 (default) turns live refresh off. */
  @property({ type: Number, attribute: 'refresh-interval' }) refreshInterval = 0;

  /** Hides the kind filter. */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  /** The clock ages are measured against (tests and demos can pin it). */
  @property({ attribute: false }) clock: () => Date = () => new Date();

  /** How often ages are recomputed, in milliseconds. */
  @property({ attribute: false }) ageRefreshMs = 30_000;

  /** Items that arrived by live refresh, newest first, shown above the first page. */
  @state() private fresh: ActivityItem[] = [];

  private readonly data: DataTask<readonly [string, number], Page<ActivityItem>> = new DataTask(this, {
    args: () => [this.kind, clampLimit(this.limit)] as const,
    load: (client, [kind, limit], signal) => client.listActivity({ kind: kind || undefined, limit }, { signal }),
    isEmpty: (page) => page.items.length === 0,
  });

  private readonly more: MorePages<ActivityItem> = new MorePages(this, (client, cursor, signal) =>
    client.listActivity({ kind: this.kind || undefined, limit: clampLimit(this.limit), cursor }, { signal }),
  );

  private readonly ageTicker = new IntervalController(this, () => this.ageRefreshMs, () => this.requestUpdate());
  private readonly liveRefresh = new IntervalController(this, () => this.refreshInterval * 1000, () => void this.checkForNew());
  #refreshAbort?: AbortController;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('kind') || changed.has('limit') || changed.has('apiBase')) {
      this.more.reset();
      this.fresh = [];
      this.#refreshAbort?.abort();
    }
    if (changed.has('refreshInterval')) this.liveRefresh.restart();
    if (changed.has('ageRefreshMs')) this.ageTicker.restart();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#refreshAbort?.abort();
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderFilters()}
      ${renderDataStates(this.data, {
        noun: 'activity',
        skeletonRows: Math.min(clampLimit(this.limit), 5),
        empty: () => (this.kind ? 'No activity of this kind yet.' : 'No activity yet.'),
        complete: (page) => this.renderList(page),
      })}
    </div>`;
  }

  private renderFilters() {
    const options: [string, string][] = [['', 'All'], ...ACTIVITY_KINDS.map((k): [string, string] => [k, ACTIVITY_KIND_LABELS[k]])];
    return html`<div part="filters" class="filters" role="group" aria-label="Show activity">
      ${options.map(
        ([kind, label]) => html`<button type="button" class="chip" aria-pressed=${this.kind === kind ? 'true' : 'false'} @click=${() => (this.kind = kind)}>
          ${label}
        </button>`,
      )}
    </div>`;
  }

  private renderList(first: Page<ActivityItem>) {
    const loaded = this.more.items(first);
    const loadedIds = new Set(loaded.map((item) => item.id));
    const items = [...this.fresh.filter((item) => !loadedIds.has(item.id)), ...loaded];
    const now = this.clock();
    const format = this.formatOptions;
    return html`<ol part="list" class="list" aria-label="Latest activity">
        ${items.map(
          (item) => html`<li part="item" class="item" data-id=${item.id} data-kind=${item.kind}>
            ${renderAvatar(item.actor)}
            <p class="text"><strong class="actor">${item.actor.name}</strong> ${item.text}</p>
            <time datetime=${item.at} title=${formatDateTime(item.at, format)}><span class="age">${formatAge(item.at, now, format)}</span><span class="visually-hidden"> ago</span></time>
          </li>`,
        )}
      </ol>
      ${this.more.render(first)}`;
  }

  /** Live refresh: fetches the first page again and keeps the items not seen yet, on top. */
  private async checkForNew(): Promise<void> {
    const client = this.client;
    const first = this.data.value;
    if (!client || !first) return;
    this.#refreshAbort?.abort();
    const controller = (this.#refreshAbort = new AbortController());
    const kind = this.kind;
    try {
      const page = await client.listActivity({ kind: kind || undefined, limit: clampLimit(this.limit) }, { signal: controller.signal });
      if (controller.signal.aborted || kind !== this.kind) return;
      const known = new Set([...this.fresh, ...this.more.items(first)].map((item) => item.id));
      const arrivals = page.items.filter((item) => !known.has(item.id));
      if (arrivals.length) this.fresh = [...arrivals, ...this.fresh];
    } catch {
      // A failed background check changes nothing on screen; the next tick tries again.
    }
  }
}
