import { css } from 'lit';
import { tableStyles } from '../../shared/table.ts';

export const styles = [
  tableStyles,
  css`
    .status-input {
      width: 6.5rem;
    }
    .hint.invalid {
      color: var(--_danger);
      flex-basis: 100%;
    }
    .switch {
      display: inline-flex;
      margin: 0;
      padding: 0;
      border: 1px solid var(--_border);
      border-radius: 999px;
      overflow: hidden;
    }
    .switch-option {
      position: relative;
    }
    .switch-option input {
      position: absolute;
      opacity: 0;
      inset: 0;
      margin: 0;
      cursor: pointer;
    }
    /* As tall as the fields beside it: 2rem with the switch's border. */
    .switch-option span {
      display: block;
      padding: 0 0.8rem;
      line-height: calc(2rem - 2px);
      color: var(--_text);
    }
    .switch-option input:checked + span {
      color: var(--_surface);
      background: var(--_accent);
    }
    .switch-option input:focus-visible + span {
      outline: 2px solid var(--_accent);
      outline-offset: -4px;
    }
    .timeline {
      height: var(--ops-log-height, 28rem);
      overflow-y: auto;
      /* The scrollbar's space is kept from the start: its arrival would resize every row and
         have every row measured again. */
      scrollbar-gutter: stable;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    .sizer {
      position: relative;
      width: 100%;
    }
    /* Rows have a fixed height, so each is measured once and the estimate is right first time. */
    .row {
      position: absolute;
      top: 0;
      left: 0;
      display: grid;
      grid-template-columns: minmax(9rem, 3fr) 4.5rem 5.5rem minmax(6rem, 2fr) 10.5rem;
      /* Wide enough that a right-aligned duration and the actor after it read as two columns. */
      column-gap: calc(var(--_space) * 2);
      align-items: center;
      width: 100%;
      height: 2.5rem;
      overflow: hidden;
      white-space: nowrap;
      padding: calc(var(--_space) * 0.6) var(--_space);
      border-bottom: 1px solid var(--_border);
      font-variant-numeric: tabular-nums;
    }
    /* The column names, above the scroller: the same grid, and the same scrollbar gutter so the columns line up. */
    .timeline-head {
      position: static;
      height: auto;
      scrollbar-gutter: stable;
      border: 1px solid var(--_border);
      border-radius: var(--_radius) var(--_radius) 0 0;
      background: var(--_surface-raised);
      color: var(--_muted);
      font-weight: 600;
    }
    .timeline-head + .timeline {
      border-top: none;
      border-radius: 0 0 var(--_radius) var(--_radius);
    }
    /* A short list (before virtual scrolling is needed) is laid out in the flow; the browser
       skips the style, layout and paint of rows out of view (their height is fixed). */
    .flow > .row {
      position: relative;
      content-visibility: auto;
    }
    .row-link,
    .actor,
    .time {
      overflow: hidden;
      text-overflow: ellipsis;
      min-width: 0;
    }
    .row-link {
      font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
      text-align: left;
    }
    .duration {
      text-align: right;
    }
    .actor,
    .time {
      color: var(--_muted);
    }
    /* "N new" floats over the first rows, below the column names (one line: its line height,
       padding and border, the same em as the button's), so showing it never pushes the rows the
       reader is on nor hides what they are. */
    .timeline-frame {
      --_head-height: calc(1.45em + var(--_space) * 1.2 + 2px);
    }
    .timeline-frame > .live {
      position: relative;
    }
    .new-entries {
      position: absolute;
      z-index: 1;
      top: calc(100% + var(--_head-height) + var(--_space));
      left: 50%;
      translate: -50% 0;
    }
    .new-entries {
      box-shadow: 0 2px 8px rgb(0 0 0 / 0.15);
    }
    /* Narrow: four rows in reading order (view and method, status and path, customer, live and
       export), the fields growing to fill their row instead of leaving gaps and a fifth row. */
    @container (max-width: 480px) {
      .switch-option span {
        padding: 0 0.6rem;
      }
      .toolbar > label:not(.live-toggle) {
        flex: 1 1 0;
      }
      .toolbar > label > span {
        flex: none;
        white-space: nowrap;
      }
      .toolbar > label > :is(select, input:not([type='checkbox'])) {
        flex: 1;
        width: 4.5rem; /* the least a field takes; it grows to fill its row */
      }
      /* A customer or key id is a long token: the field has its row. */
      .toolbar > label:is(.customer-filter, .key-filter) {
        flex-basis: 100%;
      }
      /* Half a row: too wide to squeeze in beside the status and path fields, so it starts the last row, with Export. */
      .live-toggle {
        flex: 1 0 50%;
      }
      .export {
        margin-left: auto;
      }
    }
    /* Cards below the width the row's columns need (35.5rem of columns, four 1rem gaps, padding and the scrollbar). */
    @container (max-width: 700px) {
      .row {
        grid-template-columns: minmax(0, 1fr) auto;
        height: 5.25rem;
      }
      .duration {
        text-align: left;
      }
      /* The time has the card's last line to itself: a date in words is long in some languages ("14. Sept. 2026 um 09:40"). */
      .time {
        grid-column: 1 / -1;
      }
      /* Flush right, so every card's status badge and actor start at the same edge. */
      .status,
      .actor {
        justify-self: end;
      }
      /* Cards name their figures by their look; the column names would not line up. */
      .timeline-head {
        display: none;
      }
      .timeline-frame {
        --_head-height: 0px;
      }
      .timeline-head + .timeline {
        border-top: 1px solid var(--_border);
        border-radius: var(--_radius);
      }
    }
  `,
];
