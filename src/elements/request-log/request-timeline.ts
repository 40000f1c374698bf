import { html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { RequestEntry } from '../../api/schemas.ts';
import { formatDateTime, formatMs, type FormatOptions } from '../../format/format.ts';
import { renderEndpointName } from '../../shared/endpoint-name.ts';
import { renderStatusCode } from '../../shared/badge.ts';
import { VIRTUAL_FROM, type RowsShown } from '../../shared/lazy-virtual-rows.ts';
import { styleProperties } from '../../shared/style-properties.ts';
import { msg } from '../../localize/localize.ts';

export interface TimelineState {
  entries: readonly RequestEntry[];
  format: FormatOptions;
  /** Which entries are rendered, and where (see {@link RowsShown}). */
  rows: RowsShown;
  /** Whether older pages remain to be loaded (the list's size is then unknown). */
  hasMore: boolean;
}
export interface TimelineHandlers {
  /** The drill-down of one entry (a link or a button, as the host's routes allow). */
  link: (entry: RequestEntry, label: string, content: unknown) => unknown;
}

/**
 * The timeline, newest first: only the rows in and near the view are in the DOM once the list is
 * long, however many entries are loaded; each says where it stands in the whole list. Positions
 * are set through the style object (CSSOM), which a page's CSP without 'unsafe-inline' allows; a
 * style attribute it would block. A short list's rows simply follow each other.
 */
export function renderTimeline({ entries, format, rows, hasMore }: TimelineState, handlers: TimelineHandlers) {
  const virtual = typeof rows === 'object';
  const shown = virtual
    ? rows.items.filter((item) => item.index < entries.length)
    : entries.slice(0, rows === 'first' ? VIRTUAL_FROM : entries.length).map((_, index) => ({ index, start: 0 }));
  // The column names are for the eye: a screen reader reads each request as one list item.
  return html`<div part="timeline-head" class="timeline-head row" aria-hidden="true">
      <span>${msg('Endpoint')}</span><span>${msg('Status')}</span><span class="duration">${msg('Duration')}</span><span>${msg('Actor')}</span><span>${msg('Time')}</span>
    </div>
    <div part="timeline" class="timeline" role="list" aria-label=${msg('Requests, newest first')}>
    <div class=${virtual ? 'sizer' : 'sizer flow'} ${styleProperties({ height: virtual ? `${rows.totalSize}px` : '' })}>
      ${repeat(
        shown,
        (item) => entries[item.index]!.id,
        (item) => {
          const entry = entries[item.index]!;
          return html`<div
            part="row"
            class="row"
            role="listitem"
            aria-setsize=${hasMore ? -1 : entries.length}
            aria-posinset=${item.index + 1}
            data-id=${entry.id}
            data-index=${item.index}
            ${styleProperties({ transform: virtual ? `translateY(${item.start}px)` : '' })}
          >
            ${handlers.link(entry, `${entry.method} ${entry.path}`, renderEndpointName(entry.method, entry.path))}
            <span class="status">${renderStatusCode(entry.status)}</span>
            <span class="duration">${formatMs(entry.durationMs, format)}</span>
            <span class="actor">${entry.actor.name}</span>
            <time class="time" datetime=${entry.time}>${formatDateTime(entry.time, format)}</time>
          </div>`;
        },
      )}
    </div>
  </div>`;
}
