import { html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { RequestEntry } from '../../api/schemas.ts';
import { formatDateTime, formatMs, type FormatOptions } from '../../format/format.ts';
import { renderStatusCode } from '../../shared/badge.ts';
import type { VirtualRows } from '../../shared/virtual-rows.ts';
import { styleProperties } from '../../shared/style-properties.ts';

export interface TimelineState {
  entries: readonly RequestEntry[];
  format: FormatOptions;
  /** Which entries are rendered, and where (see {@link VirtualRows}). */
  rows: VirtualRows;
  /** Whether older pages remain to be loaded (the list's size is then unknown). */
  hasMore: boolean;
}
export interface TimelineHandlers {
  /** The drill-down of one entry (a link or a button, as the host's routes allow). */
  link: (entry: RequestEntry, label: string) => unknown;
}

/**
 * The timeline, newest first, virtualized: only the rows in and near the view are in the DOM,
 * however many entries are loaded; each says where it stands in the whole list. Positions are
 * set through the style object (CSSOM), which a page's CSP without 'unsafe-inline' allows; a
 * style attribute it would block.
 */
export function renderTimeline({ entries, format, rows, hasMore }: TimelineState, handlers: TimelineHandlers) {
  return html`<div part="timeline" class="timeline" role="list" aria-label="Requests, newest first">
    <div class="sizer" ${styleProperties({ height: `${rows.totalSize}px` })}>
      ${repeat(
        rows.items.filter((item) => item.index < entries.length),
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
            ${styleProperties({ transform: `translateY(${item.start}px)` })}
          >
            ${handlers.link(entry, `${entry.method} ${entry.path}`)}
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
