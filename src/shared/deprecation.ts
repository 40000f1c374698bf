import { html } from 'lit';
import type { DeprecationNotice } from '../api/schemas.ts';
import { formatDayOf, type FormatOptions } from '../format/format.ts';
import { msg, str } from '../localize/localize.ts';
import { renderBadge } from './badge.ts';

/** A deprecated endpoint's badge (`Deprecated`, or `Turned off` once its sunset has passed) and its sunset day. */
export function renderDeprecation(notice: DeprecationNotice, format: FormatOptions) {
  const day = formatDayOf(notice.sunsetAt, format);
  return html`<span part="deprecation" class="deprecation"
    >${renderBadge(notice.turnedOff ? 'Turned off' : 'Deprecated')}
    <span class="sunset">${msg(str`Sunset ${day}`, { desc: 'The day a deprecated endpoint stops answering: Sunset 14 Oct 2026' })}</span></span
  >`;
}
