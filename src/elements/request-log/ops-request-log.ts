import { html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { Page, RequestEntry, RequestSummary } from '../../api/schemas.ts';
import { toCsv, downloadCsv } from '../../shared/csv.ts';
import { DataTask } from '../../shared/data-task.ts';
import { MorePages, pageLimit } from '../../shared/more-pages.ts';
import { OpsElement } from '../../shared/ops-element.ts';
import { renderDataStates } from '../../shared/states.ts';
import { sharedStyles, tokens } from '../../shared/styles.ts';
import { nextSort, tableStyles } from '../../shared/table.ts';
import { LiveTail } from './live-tail.ts';
import { styles } from './ops-request-log.styles.ts';
import { renderSummary, SUMMARY_COLUMNS, type SummaryColumn, type SummaryGroup, type SummarySort } from './request-summary.ts';
import { renderTimeline } from './request-timeline.ts';
import { renderToolbar, type View } from './request-toolbar.ts';

const PERSISTED = ['view', 'method', 'status', 'path', 'live'] as const;
const STATUS_PATTERN = /^([1-5]\d\d|[1-5]xx)$/i;
const clampLimit = (limit: number) => pageLimit(limit, 100);

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
 * @csspart timeline - The scrolling list of requests.
 * @csspart row - One request of the timeline.
 * @csspart summary-table - The summary table.
 * @csspart new-entries - The "N new" button shown while the reader is scrolled down.
 * @csspart badge - A status-code badge.
 *
 * @cssprop --ops-log-height - Height of the scrolling timeline (default 28rem).
 */
export class OpsRequestLog extends OpsElement {
  static override styles = [tokens, sharedStyles, tableStyles, styles];

  /** `timeline` (default) or `summary`. */
  @property({ reflect: true }) view: View = 'timeline';
  /** Only this method (GET, POST, …); empty for all. */
  @property({ reflect: true }) method = '';
  /** Only this status: a code (`500`) or a class (`5xx`); empty for all. */
  @property({ reflect: true }) status = '';
  /** Only paths containing this text. */
  @property({ reflect: true }) path = '';
  /** Live tail: poll for new entries every `refresh-interval` seconds. */
  @property({ type: Boolean, reflect: true }) live = false;
  /** Seconds between live polls (default 5). */
  @property({ type: Number, attribute: 'refresh-interval' }) refreshInterval = 5;
  /** Entries per page (default 100). */
  @property({ type: Number }) limit = 100;
  /** Keeps view, filters and live in sessionStorage under this key, so they survive a page reload. */
  @property({ attribute: 'persist-key' }) persistKey = '';

  @state() private summarySort: SummarySort = { column: 'thisWeek', descending: true };
  @state() private statusInvalid = false;
  /** Set the first time the summary is shown, so it loads once and only when wanted. */
  @state() private summaryWanted = false;

  @query('.timeline') private timelineEl?: HTMLElement;

  private readonly timeline: DataTask<readonly [string, string, string, number], Page<RequestEntry>> = new DataTask(this, {
    args: () => [this.method, this.status, this.path, clampLimit(this.limit)] as const,
    load: (client, [method, status, path, limit], signal) =>
      client.listRequests({ method: method || undefined, status: status || undefined, path: path || undefined, limit }, { signal }),
    isEmpty: (page) => page.items.length === 0 && !this.tail.shown.length,
  });

  private readonly summary: DataTask<readonly [boolean], RequestSummary> = new DataTask(this, {
    args: () => [this.summaryWanted] as const,
    enabled: ([wanted]) => wanted,
    load: (client, _args, signal) => client.getRequestSummary({ signal }),
    isEmpty: (summary) => this.filterGroups(summary.groups).length === 0,
  });

  private readonly more: MorePages<RequestEntry> = new MorePages(this, (client, cursor, signal) =>
    client.listRequests(
      { method: this.method || undefined, status: this.status || undefined, path: this.path || undefined, limit: clampLimit(this.limit), cursor },
      { signal },
    ),
  );

  private readonly tail: LiveTail = new LiveTail(this, {
    periodSeconds: () => (this.live ? this.refreshInterval : 0),
    poll: (client, since, signal) =>
      client.listRequests({ method: this.method || undefined, status: this.status || undefined, path: this.path || undefined, since, limit: clampLimit(this.limit) }, { signal }),
    knownIds: () => new Set([...this.tail.pending, ...this.entries()].map((e) => e.id)),
    newestTime: () => this.tail.pending[0]?.time ?? this.entries()[0]?.time,
    readerAtTop: () => (this.timelineEl?.scrollTop ?? 0) < 4,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.restore();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('method') || changed.has('status') || changed.has('path') || changed.has('limit') || changed.has('apiBase')) {
      this.more.reset();
      this.tail.reset();
    }
    if (changed.has('live') || changed.has('refreshInterval')) this.tail.restart();
    if (this.view === 'summary') this.summaryWanted = true;
    if (PERSISTED.some((key) => changed.has(key))) this.save();
  }

  #entries?: { key: readonly unknown[]; list: RequestEntry[] };

  /** Every entry on screen in the timeline, newest first (the same array until something arrives). */
  entries(): RequestEntry[] {
    const first = this.timeline.value;
    if (!first) return this.tail.shown;
    const key = [first, this.more.pageCount, this.tail.shown] as const;
    if (this.#entries?.key.every((part, i) => part === key[i])) return this.#entries.list;
    const loaded = this.more.items(first);
    const seen = new Set(this.tail.shown.map((e) => e.id));
    const list = this.tail.shown.length ? [...this.tail.shown, ...loaded.filter((e) => !seen.has(e.id))] : loaded;
    this.#entries = { key, list };
    return list;
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
      ${this.view === 'summary'
        ? renderDataStates(this.summary, {
            noun: 'the request summary',
            empty: () => 'No requests match these filters.',
            complete: (summary) => renderSummary(this.filterGroups(summary.groups), this.summarySort, this.sortSummary, format),
          })
        : renderDataStates(this.timeline, {
            noun: 'requests',
            empty: () => (this.method || this.status || this.path ? 'No requests match these filters.' : 'No requests yet.'),
            complete: (first) => html`<div class="timeline-frame">
              ${this.renderNewEntries()}
              ${renderTimeline(this.entries(), { onRange: (last) => this.onRange(last, first), onActivate: this.activate }, format)}
            </div>`,
          })}
    </div>`;
  }

  private renderToolbar() {
    return renderToolbar(this, {
      statusInvalid: this.statusInvalid,
      canExport: this.view === 'timeline' && this.entries().length > 0,
      setView: (view) => (this.view = view),
      setMethod: (method) => (this.method = method),
      setStatus: this.onStatus,
      setPath: (path) => (this.path = path),
      setLive: (live) => (this.live = live),
      exportCsv: () => downloadCsv('requests.csv', this.toCsv()),
    });
  }

  private renderNewEntries() {
    const count = this.tail.pending.length;
    return html`<div class="new-entries" aria-live="polite">
      ${count
        ? html`<button part="new-entries" type="button" class="button" @click=${this.showNew}>${count} new</button>`
        : nothing}
    </div>`;
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

  private onRange(last: number, first: Page<RequestEntry>) {
    // Fetch the next page while the reader is still 40 rows away from the end.
    if (last >= this.entries().length - 40) this.more.loadNext(first);
  }

  private showNew = () => {
    this.tail.showPending();
    this.timelineEl?.scrollTo({ top: 0 });
  };

  private activate = (entry: RequestEntry) => {
    this.emit('ops-navigate', { kind: 'request', id: entry.id }, { cancelable: true });
  };

  private restore() {
    if (!this.persistKey) return;
    try {
      const saved = JSON.parse(sessionStorage.getItem(`ops-request-log:${this.persistKey}`) ?? '{}') as Partial<Record<(typeof PERSISTED)[number], unknown>>;
      if (saved.view === 'timeline' || saved.view === 'summary') this.view = saved.view;
      for (const key of ['method', 'status', 'path'] as const) if (typeof saved[key] === 'string') this[key] = saved[key];
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
