import { html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { ActivityQuery } from '../../api/client.ts';
import { ACTIVITY_KINDS, type ActivityKind } from '@ops-console/contract/enums';
import type { ActivityItem } from '../../api/schemas.ts';
import { formatAge, formatDateTime, formatRelative } from '../../format/format.ts';
import { renderAvatar } from '../../shared/avatar.ts';
import { IntervalController } from '../../shared/interval.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { styles } from './ops-activity-feed.styles.ts';
import { msg } from '../../localize/localize.ts';
import { activityKindLabel } from '../../localize/words.ts';

/** The kinds' English names (the feed shows them in its own language). */
export const ACTIVITY_KIND_LABELS: Record<(typeof ACTIVITY_KINDS)[number], string> = {
  'rate-limit-raised': 'Rate limit raised',
  'key-created': 'Key created',
  'error-spike': 'Error spike',
  'docs-published': 'Docs published',
  'endpoint-deprecated': 'Endpoint deprecated',
};

const LIMIT: NumberRule = { tag: 'ops-activity-feed', attribute: 'limit', fallback: 20, min: 1, max: 500, integer: true };
/** Seconds between live checks: 0 (off) or at least 2. */
export const FEED_REFRESH: NumberRule = { tag: 'ops-activity-feed', attribute: 'refresh-interval', fallback: 0, min: 2, max: 86_400, zeroIsOff: true };
/** Most items the feed keeps; older ones are dropped as new ones arrive. */
export const FEED_CAP = 1_000;

/**
 * Recent activity across the account: who did what, and how long ago.
 *
 * @summary Latest-activity feed with kind filter, "Load more" and optional live refresh.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - An item's text was activated; detail `{ kind, id, label }` of what the item is about (`{ kind: 'customer', id: 'cus_acme' }`). Cancelable.
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
 *
 * @customElement ops-activity-feed
 */
export class OpsActivityFeed extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** Only this kind (`rate-limit-raised`, `key-created`, `error-spike`, `docs-published`, `endpoint-deprecated`); empty is "All". */
  @property({ reflect: true }) kind: ActivityKind | '' = '';

  /** Items per page, 1–500. */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;

  /**
   * Seconds between checks for new items: 0 (default) is off, else at least 2. Checks pause
   * while the tab is hidden and catch up when it shows; failures back off (honouring
   * `Retry-After`). The feed keeps the newest 1,000 items.
   */
  @property({ type: Number, attribute: 'refresh-interval', converter: numberConverter(FEED_REFRESH) }) refreshInterval: number = FEED_REFRESH.fallback;

  /** Hides the kind filter. */
  @property({ type: Boolean, attribute: 'hide-filter' }) hideFilter = false;

  /** The clock ages are measured against (tests and demos can pin it). */
  @property({ attribute: false }) clock: () => Date = () => new Date();

  /** How often ages are recomputed, in milliseconds. */
  @property({ attribute: false }) ageRefreshMs = 30_000;

  private readonly list: ListController<ActivityQuery, ActivityItem> = new ListController<ActivityQuery, ActivityItem>(this, {
    query: () => ({ kind: this.kind || undefined, limit: validNumber(LIMIT, this.limit) }),
    load: (client, query, { cursor }, signal) => client.listActivity({ ...query, cursor }, { signal }),
    pollSeconds: () => validNumber(FEED_REFRESH, this.refreshInterval),
    cap: FEED_CAP,
    now: () => this.clock(),
  });

  private readonly ageTicker = new IntervalController(
    this,
    () => this.ageRefreshMs,
    () => this.requestUpdate(),
  );

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('ageRefreshMs')) this.ageTicker.restart();
  }

  override render() {
    return html`<div part="base" class="base">
      ${this.hideFilter ? nothing : this.renderFilters()}
      ${renderDataStates(this.list.first, {
        noun: msg('activity'),
        skeletonRows: Math.min(validNumber(LIMIT, this.limit), 10),
        skeleton: ['title', 'list'],
        empty: () => (this.kind ? msg('No activity of this kind yet.') : msg('No activity yet.')),
        complete: () => this.renderList(),
      })}
    </div>`;
  }

  private renderFilters() {
    const options: [string, string][] = [['', msg('All')], ...ACTIVITY_KINDS.map((k): [string, string] => [k, activityKindLabel(k)])];
    return html`<div part="filters" class="filters" role="group" aria-label=${msg('Show activity')}>
      ${options.map(
        ([
          kind,
          label,
        ]) => html`<button type="button" class="chip" aria-pressed=${this.kind === kind ? 'true' : 'false'} @click=${() => (this.kind = kind as ActivityKind | '')}>
          ${label}
        </button>`,
      )}
    </div>`;
  }

  private renderList() {
    const items = this.list.items;
    const now = this.clock();
    const format = this.formatOptions;
    return html`<ol part="list" class="list" aria-label=${msg('Latest activity')}>
        ${items.map(
          (item) => html`<li part="item" class="item" data-id=${item.id} data-kind=${item.kind}>
            ${renderAvatar(item.actor)}
            <p class="text">
              <strong class="actor">${item.actor.name}</strong>
              ${item.subject ? this.renderLink({ kind: item.subject.kind, id: item.subject.id, label: item.text }, item.text, 'link subject') : item.text}
            </p>
            <time datetime=${item.at} title=${formatDateTime(item.at, format)}
              ><span class="age" aria-hidden="true">${formatAge(item.at, now, format)}</span><span class="visually-hidden">${formatRelative(item.at, now, format)}</span></time
            >
          </li>`,
        )}
      </ol>
      ${this.list.renderMore()}
      ${validNumber(FEED_REFRESH, this.refreshInterval) ? this.list.renderLive() : nothing}`;
  }
}
