import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { keyed } from 'lit/directives/keyed.js';
import { TaskStatus } from '@lit/task';
import type { Alert, Overview, Page } from '../../api/schemas.ts';
import { alertValue } from '../../shared/alert-value.ts';
import { formatDateTime, formatPercent, greetingFor, hourIn, roundToTotal } from '../../format/format.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import type { NavigateDetail, SortDetail } from '../../shared/events.ts';
import { DataTask } from '../../shared/data-task.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { RangedElement } from '../../shared/time-range.ts';
import { numberConverter, type NumberRule } from '../../shared/numbers.ts';
import { renderDataStates, renderError, renderSkeleton } from '../../shared/states.ts';
import { renderFigures } from './overview-figures.ts';
import { styles } from './ops-overview.styles.ts';
import { msg, str } from '../../localize/localize.ts';

/** The contract's name for the routes beyond the busiest groups: no search finds them. */
const OTHER_GROUP = 'Other';
/** "Recent endpoints" while the rows are the most recent, then what they are sorted by. */
const recentTitle = (sort: string) => {
  switch (sort.replace('-', '')) {
    case 'requests':
      return msg('Endpoints by requests');
    case 'p95Ms':
      return msg('Endpoints by P95 latency');
    case 'errorPct':
      return msg('Endpoints by error rate');
    default:
      return msg('Recent endpoints');
  }
};

const REFRESH: NumberRule = { tag: 'ops-overview', attribute: 'refresh-interval', fallback: 0, min: 2, max: 86_400, zeroIsOff: true };

/**
 * The home page of the console: a greeting, the five summary figures, recent endpoints, the
 * share of requests by endpoint group, and the latest activity. Each part loads and fails on
 * its own.
 *
 * @summary Overview: greeting, figures, recent endpoints, requests by endpoint, latest activity.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - "View all" (`{ kind: 'endpoints', id: '' }`), "Active keys" where the host has a keys page (`{ kind: 'keys', id: '', status: 'Active' }`), over a time range a bucket of the requests sparkline (`{ kind: 'requests', id: '', from, to }`), or a drill-down inside. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - A part failed to load; it shows the error and Retry.
 *
 * @csspart base - The overview grid.
 * @csspart greeting - The greeting heading.
 * @csspart figures - The list of figure cards.
 * @csspart figure - One figure card.
 * @csspart panel - Each titled panel (recent endpoints, requests by endpoint, latest activity).
 * @csspart view-all - The "View all" link.
 * @csspart shares - The list of endpoint-group shares.
 *
 * @customElement ops-overview
 */
export class OpsOverview extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /**
   * Where "View all" points (http(s) or relative; default: the wrapper's `routes.endpoints`, else
   * `#endpoints`); hosts may also cancel `ops-navigate` and route themselves.
   */
  @property({ attribute: 'view-all-href' }) viewAllHref?: string;

  /** Seconds between live checks of the activity feed: 0 (off) or at least 2. */
  @property({ type: Number, attribute: 'refresh-interval', converter: numberConverter(REFRESH) }) refreshInterval: number = REFRESH.fallback;

  /** The clock for the greeting and activity ages (tests and demos can pin it). */
  @property({ attribute: false }) clock: () => Date = () => new Date();

  private readonly data: DataTask<readonly [string], Overview> = new DataTask(this, {
    args: () => [JSON.stringify(this.timeRange)] as const,
    load: (client, _key, signal) => client.getOverview({ signal }, this.timeRange),
  });

  /** What is firing now, for the banner at the top (not asked for a customer, whose token may not read alerts). */
  private readonly firing: DataTask<readonly [], Page<Alert>> = new DataTask(this, {
    args: () => [] as const,
    enabled: () => !this.forCustomer,
    load: (client, _args, signal) => client.listAlerts({ state: 'firing', limit: 5 }, { signal }),
  });

  /** The embedded elements whose load failed since the last Retry of everything. */
  @state() private failedParts: ReadonlySet<string> = new Set();

  /** The order of the embedded table, which names the panel (its rows are recent only until sorted). */
  @state() private tableSort = 'recent';

  /** Bumped by Retry of everything: the embedded elements start afresh. */
  @state() private attempt = 0;

  constructor() {
    super();
    this.addEventListener('ops-load-error', (event) => {
      const source = event.composedPath()[0];
      if (source instanceof Element && source !== this) this.failedParts = new Set([...this.failedParts, source.localName]);
    });
  }

  /** Every part failed (the API is down, or api-base is wrong): one message and one Retry, not three. */
  private get everythingFailed(): boolean {
    // A customer's overview has no activity feed: its table and figures failing is everything.
    return (
      this.data.status === TaskStatus.ERROR && this.failedParts.has('ops-endpoint-table') && (this.forCustomer || this.failedParts.has('ops-activity-feed'))
    );
  }

  protected override willUpdate(): void {
    // Once the figures load, the parts start counting their failures afresh.
    if (this.data.status === TaskStatus.COMPLETE && this.failedParts.size) this.failedParts = new Set();
  }

  private retryEverything(): void {
    this.failedParts = new Set();
    this.attempt++;
    this.tableSort = 'recent';
    this.data.retry();
  }

  /** "Active keys" leads to the keys in use where the host has a keys page (`routes.keys`, as the routed console's); hosts without one keep the plain figure. */
  private activeKeysLink(label: string) {
    if (!this.hrefFor({ kind: 'keys', id: '' })) return undefined;
    return this.renderLink(this.listTarget('keys', undefined, 'keys-href', { status: 'Active' }, label), label, 'link');
  }

  override render() {
    const own = { apiBase: this.apiBase, locale: this.locale, timeZone: this.timeZone, theme: this.theme, audience: this.audience, ...this.timeRange };
    const down = this.everythingFailed;
    return html`<div part="base" class="overview">
      ${down ? nothing : this.renderFiring()}
      <div class="summary">
        ${
          down
            ? renderError(msg('the overview'), this.data.error, () => this.retryEverything())
            : renderDataStates(this.data, {
                noun: msg('the overview'),
                skeleton: ['title', 'figures'],
                empty: () => '',
                complete: (overview) => html`<h2 part="greeting" class="greeting">${this.greeting(overview)}</h2>
            ${renderFigures(
              overview,
              this.formatOptions,
              (starts, window, labels) => this.bucketLinks(starts, window, labels),
              (_list, label) => this.activeKeysLink(label),
              this.forCustomer,
            )}`,
              })
        }
      </div>
      <section part="panel" class="panel recent" aria-labelledby="recent-title" ?hidden=${down}>
        <header class="panel-header">
          <h3 id="recent-title">${recentTitle(this.tableSort)}</h3>
          ${this.renderLink({ ...this.listTarget('endpoints', this.viewAllHref, 'view-all-href'), label: msg('View all') }, msg('View all'), 'view-all', 'view-all')}
        </header>
        ${keyed(
          this.attempt,
          html`<ops-endpoint-table
            @ops-sort=${(event: CustomEvent<SortDetail>) => (this.tableSort = event.detail.sort)}
            limit="5"
            sort="recent"
            hide-filter
            hide-more
            range=${ifDefined(own.range)}
            from=${ifDefined(own.from)}
            to=${ifDefined(own.to)}
            api-base=${ifDefined(own.apiBase)}
            locale=${ifDefined(own.locale)}
            time-zone=${ifDefined(own.timeZone)}
            theme=${ifDefined(own.theme)}
            audience=${ifDefined(own.audience)}
          ></ops-endpoint-table>`,
        )}
      </section>
      <section part="panel" class="panel shares-panel" aria-labelledby="shares-title" ?hidden=${down}>
        <h3 id="shares-title">${msg('Requests by endpoint')}</h3>
        ${this.renderShares()}
      </section>
      ${
        this.forCustomer
          ? nothing
          : html`<section part="panel" class="panel activity" aria-labelledby="activity-title" ?hidden=${down}>
            <h3 id="activity-title">${msg('Latest activity')}</h3>
            ${keyed(
              this.attempt,
              html`<ops-activity-feed
                limit="5"
                refresh-interval=${this.refreshInterval}
                .clock=${this.clock}
                api-base=${ifDefined(own.apiBase)}
                locale=${ifDefined(own.locale)}
                time-zone=${ifDefined(own.timeZone)}
                theme=${ifDefined(own.theme)}
              ></ops-activity-feed>`,
            )}
          </section>`
      }
    </div>`;
  }

  /** The alerts firing now, above everything; nothing while none fires (or for a customer). */
  private renderFiring() {
    if (this.forCustomer) return nothing;
    const { status, value } = this.firing;
    if (status === TaskStatus.ERROR && !value) return html`<p class="unavailable alerts-unavailable">${msg('Alerts are not available right now.')}</p>`;
    if (!value?.items.length) return nothing;
    const format = this.formatOptions;
    const count = value.items.length;
    // Five are shown; with more, the heading says so rather than undercount.
    const heading = value.nextCursor ? msg(str`${count}+ alerts firing`) : count === 1 ? msg('1 alert firing') : msg(str`${count} alerts firing`);
    return html`<section part="alerts" class="alerts" role="status" aria-labelledby="alerts-title">
      <h3 id="alerts-title">${heading}</h3>
      <ul>
        ${value.items.map(
          (alert) =>
            html`<li>
              <strong>${alert.ruleName}</strong>
              ${msg(str`${alertValue(alert.metric, alert.value, format)} against ${alertValue(alert.metric, alert.threshold, format)}`, {
                desc: 'An alert’s value and threshold: 6.8% against 5.0%',
              })}
              · ${msg('since')} <time datetime=${alert.startedAt}>${formatDateTime(alert.startedAt, format)}</time>
            </li>`,
        )}
      </ul>
      ${this.renderLink(this.listTarget('alerts', undefined, 'alerts-href', { state: 'firing' }, msg('View alerts')), msg('View alerts'), 'link')}
    </section>`;
  }

  /** The endpoint table searched for a group's routes (`/messages`): where a slice or its legend entry leads. */
  private groupTarget(group: string): NavigateDetail {
    return this.listTarget('endpoints', this.viewAllHref, 'view-all-href', { q: group }, group);
  }

  /** A click on a slice: the same drill-down as its legend entry; the rest of the routes, `Other`, leads nowhere. */
  private openGroup(group: string): void {
    if (group !== OTHER_GROUP) this.follow(this.groupTarget(group));
  }

  private greeting(overview: Overview): string {
    // A person by their first name; a customer (a company) by its whole name.
    const name = overview.owner.name.trim();
    const firstName = this.forCustomer ? name : (name.split(/\s+/)[0] ?? '');
    const greeting = greetingFor(hourIn(this.clock(), this.formatOptions), this.formatOptions);
    return firstName ? msg(str`${greeting}, ${firstName}`, { id: 'greeting-with-name', desc: 'A greeting and a first name: Good morning, Ana' }) : greeting;
  }

  private renderShares() {
    const { status, value } = this.data;
    if (!value) {
      // The summary above shows the error and Retry for the shared /overview request.
      return status === TaskStatus.ERROR ? html`<p class="unavailable">${msg('Not available right now.')}</p>` : renderSkeleton(msg('requests by endpoint'), 3);
    }
    const groups = value.requestsByEndpoint;
    const shares = roundToTotal(groups.map((g) => g.sharePct));
    const format = this.formatOptions;
    const chart: ChartData = { type: 'pie', categories: groups.map((g) => g.group), series: [{ name: msg('Share'), values: shares }] };
    return html`<div class="shares-body">
      <ops-chart
        locale=${ifDefined(format.locale)}
        label=${msg('Requests by endpoint')}
        empty-message=${msg('No requests yet.')}
        .data=${chart}
        .formatValue=${(v: number) => formatPercent(v, format)}
        @ops-chart-select=${(event: CustomEvent<{ category: string }>) => this.openGroup(event.detail.category)}
      ></ops-chart>
      ${
        groups.length
          ? html`<ul part="shares" class="shares" aria-label=${msg('Share of requests by endpoint group')}>
            ${groups.map(
              (g, i) => html`<li>
                <span class="swatch swatch-${(i % 5) + 1}" aria-hidden="true"></span>
                <span class="share-group">${g.group === OTHER_GROUP ? g.group : this.renderLink(this.groupTarget(g.group), g.group)}</span>
                <span class="share-value">${formatPercent(shares[i]!, format)}</span>
              </li>`,
            )}
            <li class="share-total"><span class="share-group">${msg('Total')}</span><span class="share-value">${formatPercent(
              shares.reduce((a, b) => a + b, 0),
              format,
            )}</span></li>
          </ul>`
          : nothing
      }
    </div>`;
  }
}
