import { html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { RequestQuery, RequestScope } from '../../api/client.ts';
import type { HttpMethod } from '@ops-console/contract/enums';
import type { RequestEntry, RequestSummary } from '../../api/schemas.ts';
import { toCsv, downloadCsv } from '../../shared/csv.ts';
import { DataTask } from '../../shared/data-task.ts';
import { ListController } from '../../shared/list.ts';
import { numberConverter, validNumber, type NumberRule } from '../../shared/numbers.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { RangedElement } from '../../shared/time-range.ts';
import { renderDataStates } from '../../shared/states.ts';
import { nextSort } from '../../shared/table.ts';
import { styles } from './ops-request-log.styles.ts';
import { renderSummary, SUMMARY_COLUMNS, type SummaryColumn, type SummaryGroup, type SummarySort } from './request-summary.ts';
import { renderTimeline } from './request-timeline.ts';
import { renderToolbar, type View } from './request-toolbar.ts';
import { LazyVirtualRows } from '../../shared/lazy-virtual-rows.ts';
import { msg } from '../../localize/localize.ts';

const PERSISTED = ['view', 'method', 'status', 'path', 'q', 'live'] as const;
const STATUS_PATTERN = /^([1-5]\d\d|[1-5]xx)$/i;
const LIMIT: NumberRule = { tag: 'ops-request-log', attribute: 'limit', fallback: 100, min: 1, max: 500, integer: true };
const REFRESH: NumberRule = { tag: 'ops-request-log', attribute: 'refresh-interval', fallback: 5, min: 2, max: 86_400 };
/**
 * Most entries the timeline keeps in memory (rows in the DOM stay bounded by virtual scrolling
 * whatever this is). Past it, the oldest loaded pages are dropped and paging down ends.
 */
export const LOG_CAP = 50_000;
const NO_ENTRIES: readonly RequestEntry[] = [];

/**
 * The request log: the latest requests newest first (Timeline), or grouped by method, path
 * and status with this week's count (Summary). Filters go to the API; the timeline pages by
 * cursor as the reader scrolls and keeps only visible rows in the DOM.
 *
 * @summary Request log: timeline and summary, filters, virtual scrolling, live tail, CSV export.
 *
 * @fires {CustomEvent<NavigateDetail>} ops-navigate - A request was activated; detail `{ kind: 'request', id }`. Cancelable.
 * @fires {CustomEvent<LoadErrorDetail>} ops-load-error - Loading failed; the log shows the error and Retry.
 *
 * @csspart base - The panel.
 * @csspart toolbar - View switch, filters, live toggle and export.
 * @csspart timeline-head - The column names above the timeline (hidden in narrow containers, where rows are cards).
 * @csspart timeline - The scrolling list of requests.
 * @csspart row - One request of the timeline.
 * @csspart summary-table - The summary table.
 * @csspart new-entries - The "N new" button shown while the reader is scrolled down.
 * @csspart badge - A status-code badge.
 *
 * @cssprop --ops-log-height - Height of the scrolling timeline (default 28rem).
 *
 * @customElement ops-request-log
 */
export class OpsRequestLog extends RangedElement {
  static override styles = [...OpsElement.styles, ...styles];

  /** `timeline` (default) or `summary`. */
  @property({ reflect: true }) view: View = 'timeline';
  /** Only this method (GET, POST, …); empty for all. */
  @property({ reflect: true }) method: HttpMethod | '' = '';
  /** Only this status: a code (`500`) or a class (`5xx`); empty for all. */
  @property({ reflect: true }) status = '';
  /** Only paths containing this text. */
  @property({ reflect: true }) path = '';
  /** Only requests where each word is in the path or a kept body (an order id, an error code), any case; the timeline only. */
  @property({ reflect: true }) q = '';
  /** Only the requests of this endpoint row (its id from the endpoint table), in the timeline and the summary; the endpoint page sets it. */
  @property({ attribute: 'endpoint-id', reflect: true }) endpointId = '';
  /** Only this customer's requests (its id), in the timeline and the summary; the toolbar's Customer field sets it, and so does the customer page. */
  @property({ attribute: 'customer-id', reflect: true }) customerId = '';
  /** Only the requests made with this API key (its id), in the timeline and the summary; the toolbar's Key field sets it, and so does the key page. */
  @property({ attribute: 'key-id', reflect: true }) keyId = '';
  /** Live tail: poll for new entries every `refresh-interval` seconds. */
  @property({ type: Boolean, reflect: true }) live = false;
  /**
   * Seconds between live polls: at least 2 (default 5). Polls pause while the tab is hidden and
   * catch up when it shows (following pages until they meet the entries on screen, or marking a
   * gap); failures back off, honouring `Retry-After`. The timeline keeps at most 50,000 entries.
   */
  @property({ type: Number, attribute: 'refresh-interval', converter: numberConverter(REFRESH) }) refreshInterval: number = REFRESH.fallback;
  /** Entries per page, 1–500 (default 100). */
  @property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) }) limit: number = LIMIT.fallback;
  /** Keeps view, filters and live in sessionStorage under this key, so they survive a page reload. */
  @property({ attribute: 'persist-key' }) persistKey = '';
  /** The clock of the live "Updated 09:41" line (tests and demos can pin it). */
  @property({ attribute: false }) clock: () => Date = () => new Date();

  @state() private summarySort: SummarySort = { column: 'thisWeek', descending: true };
  @state() private statusInvalid = false;
  /** Set the first time the summary is shown, so it loads once and only when wanted. */
  @state() private summaryWanted = false;

  @query('.timeline') private timelineEl?: HTMLElement;

  private readonly timeline: ListController<RequestQuery, RequestEntry> = new ListController<RequestQuery, RequestEntry>(this, {
    query: () => ({
      ...this.scope(),
      method: this.method || undefined,
      status: this.status || undefined,
      path: this.path || undefined,
      q: this.q || undefined,
      limit: validNumber(LIMIT, this.limit),
    }),
    load: (client, query, { cursor, since }, signal) => client.listRequests({ ...query, cursor, since }, { signal }),
    pollSeconds: () => (this.live ? validNumber(REFRESH, this.refreshInterval) : 0),
    since: (newest) => newest.time,
    readerAtTop: () => (this.timelineEl?.scrollTop ?? 0) < 4,
    onShowPending: () => this.rows.scrollToTop(),
    cap: LOG_CAP,
    now: () => this.clock(),
  });

  /** Row height before measuring: 2.5rem at the default 16px font (5.25rem in a narrow container, measured). */
  private readonly rows = new LazyVirtualRows(this, {
    scroller: () => (this.view === 'timeline' ? this.timelineEl : null),
    rows: () => (this.view === 'timeline' ? this.entries() : NO_ENTRIES),
    estimate: 40,
    onRange: (last) => this.onRange(last),
  });

  private readonly summary: DataTask<readonly [boolean, string], RequestSummary> = new DataTask(this, {
    args: () => [this.summaryWanted, JSON.stringify(this.scope())] as const,
    enabled: ([wanted]) => wanted,
    load: (client, _args, signal) => client.getRequestSummary({ signal }, this.scope()),
    isEmpty: (summary) => this.filterGroups(summary.groups).length === 0,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.restore();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.view === 'summary') this.summaryWanted = true;
    if (PERSISTED.some((key) => changed.has(key))) this.save();
    if (changed.has('limit')) this.rows.expect(validNumber(LIMIT, this.limit));
  }

  /** Which requests the log is about: one endpoint's, one customer's, one key's, or all; in the time range, if there is one. */
  private scope(): RequestScope {
    return {
      endpointId: this.endpointId.trim() || undefined,
      customerId: this.customerId.trim() || undefined,
      keyId: this.keyId.trim() || undefined,
      ...this.timeRange,
    };
  }

  /** Every entry on screen in the timeline, newest first (the same array until something arrives). */
  entries(): RequestEntry[] {
    return this.timeline.items;
  }

  /** The loaded entries under the current filters as CSV (what "Export CSV" downloads). */
  toCsv(): string {
    return toCsv(
      ['Time', 'Method', 'Path', 'Status', 'Duration (ms)', 'Actor'],
      this.entries().map((e) => [e.time, e.method, e.path, e.status, e.durationMs, e.actor.name]),
    );
  }

  override render() {
    const format = this.formatOptions;
    return html`<div part="base" class="base">
      ${this.renderToolbar()}
      ${
        this.view === 'summary'
          ? renderDataStates(this.summary, {
              noun: msg('the request summary'),
              empty: () => msg('No requests match these filters.'),
              complete: (summary) => renderSummary(this.filterGroups(summary.groups), this.summarySort, this.sortSummary, format),
            })
          : renderDataStates(this.timeline.first, {
              noun: msg('requests'),
              // About the timeline's fixed height (28rem by default) in rows.
              skeletonRows: 11,
              empty: () =>
                this.method || this.status || this.path || this.q || this.customerId || this.keyId
                  ? msg('No requests match these filters.')
                  : msg('No requests yet.'),
              complete: () => html`<div class="timeline-frame">
              ${this.live || this.timeline.pendingCount ? this.timeline.renderLive(format) : nothing}
              ${renderTimeline({ entries: this.entries(), format, rows: this.rows.shown(), hasMore: this.timeline.hasMore }, { link: this.link })}
              ${this.timeline.renderMore(format, { button: false })}
            </div>`,
            })
      }
    </div>`;
  }

  private renderToolbar() {
    return renderToolbar(this, {
      statusInvalid: this.statusInvalid,
      canExport: this.view === 'timeline' && this.entries().length > 0,
      setView: (view) => (this.view = view),
      setMethod: (method) => (this.method = method as HttpMethod | ''),
      setStatus: this.onStatus,
      setPath: (path) => (this.path = path),
      setQuery: (q) => (this.q = q),
      setCustomer: this.forCustomer ? undefined : (customerId) => (this.customerId = customerId),
      setKey: (keyId) => (this.keyId = keyId),
      setLive: (live) => (this.live = live),
      exportCsv: () => downloadCsv('requests.csv', this.toCsv()),
    });
  }

  private filterGroups(groups: readonly SummaryGroup[]): SummaryGroup[] {
    const status = this.status.toLowerCase();
    return groups.filter(
      (g) =>
        (!this.method || g.method === this.method) &&
        (!status || (status.endsWith('xx') ? String(g.status)[0] === status[0] : String(g.status) === status)) &&
        (!this.path || g.path.toLowerCase().includes(this.path.toLowerCase())),
    );
  }

  private onStatus = (value: string) => {
    this.statusInvalid = value !== '' && !STATUS_PATTERN.test(value);
    if (!this.statusInvalid) this.status = value.toLowerCase();
  };

  private sortSummary = (column: SummaryColumn) => {
    this.summarySort = nextSort(this.summarySort, column, SUMMARY_COLUMNS.find((c) => c.key === column)!.numeric);
  };

  private onRange(last: number) {
    // Fetch the next page while the reader is still 40 rows away from the end; but a first page
    // that fills its frame waits until the reader scrolls (a short embedded log, `limit="20"`,
    // would otherwise fetch a second page nobody asked for).
    if (last < this.entries().length - 40) return;
    const frame = this.timelineEl;
    if (frame && frame.scrollTop === 0 && frame.scrollHeight > frame.clientHeight) {
      frame.addEventListener('scroll', () => this.timeline.loadMore(), { once: true, passive: true });
      return;
    }
    this.timeline.loadMore();
  }

  private link = (entry: RequestEntry, label: string, content: unknown) => this.renderLink({ kind: 'request', id: entry.id, label }, content, 'row-link');

  private restore() {
    if (!this.persistKey) return;
    try {
      const saved = JSON.parse(sessionStorage.getItem(`ops-request-log:${this.persistKey}`) ?? '{}') as Partial<Record<(typeof PERSISTED)[number], unknown>>;
      if (saved.view === 'timeline' || saved.view === 'summary') this.view = saved.view;
      for (const key of ['method', 'status', 'path', 'q'] as const) if (typeof saved[key] === 'string') (this as Record<typeof key, string>)[key] = saved[key]; // what the person chose last time, shown as it was
      if (typeof saved.live === 'boolean') this.live = saved.live;
    } catch {
      // Storage can be unavailable (privacy mode) or hold junk: start from the attributes.
    }
  }

  private save() {
    if (!this.persistKey) return;
    try {
      const state = Object.fromEntries(PERSISTED.map((key) => [key, this[key]]));
      sessionStorage.setItem(`ops-request-log:${this.persistKey}`, JSON.stringify(state));
    } catch {
      // Nothing to do: the filters still work for this page view.
    }
  }
}
