import { html } from 'lit';
import { virtualize } from '@lit-labs/virtualizer/virtualize.js';
import type { RequestEntry } from '../../api/schemas.ts';
import { formatDateTime, formatMs, type FormatOptions } from '../../format/format.ts';
import { renderStatusCode } from '../../shared/badge.ts';

export interface TimelineState {
  entries: readonly RequestEntry[];
  format: FormatOptions;
}
export interface TimelineHandlers {
  onRange: (last: number) => void;
  /** The drill-down of one entry (a link or a button, as the host's routes allow). */
  link: (entry: RequestEntry, label: string) => unknown;
}

/**
 * The timeline, newest first, virtualized by @lit-labs/virtualizer: only the rows in and near
 * the viewport are in the DOM, however many entries are loaded.
 */
export function renderTimeline({ entries, format }: TimelineState, handlers: TimelineHandlers) {
  return html`<div
    part="timeline"
    class="timeline"
    role="list"
    aria-label="Requests, newest first"
    @rangeChanged=${(event: Event & { last: number }) => handlers.onRange(event.last)}
  >
    ${virtualize({
      items: entries as RequestEntry[],
      scroller: true,
      keyFunction: (entry) => entry.id,
      renderItem: (entry) => html`<div part="row" class="row" role="listitem" data-id=${entry.id}>
        ${handlers.link(entry, `${entry.method} ${entry.path}`)}
        <span class="status">${renderStatusCode(entry.status)}</span>
        <span class="duration">${formatMs(entry.durationMs, format)}</span>
        <span class="actor">${entry.actor.name}</span>
        <time class="time" datetime=${entry.time}>${formatDateTime(entry.time, format)}</time>
      </div>`,
    })}
  </div>`;
}
