import { html, nothing, type TemplateResult } from 'lit';
import { TaskStatus } from '@lit/task';
import { toConsoleError } from '../api/errors.ts';
import { msg, str } from '../localize/localize.ts';
import type { DataTask } from './data-task.ts';

export interface StateTemplates<T> {
  /** What the panel is, for the words of the loading and error states ("endpoints"). */
  noun: string;
  /** The loaded view; `busy` is true while a newer run is on its way. */
  complete: (value: T, busy: boolean) => unknown;
  /** The message shown when the loaded value is empty. */
  empty: () => unknown;
  /** Rows of the skeleton's table or list while nothing has loaded yet. */
  skeletonRows?: number;
  /** The loaded layout, sketched by the skeleton (default: a table); a part with a count has that many rows. */
  skeleton?: readonly Sketch[];
  /** For a record's page: what to say when the record is not there (a 404), rather than that loading failed. */
  notFound?: { title: string; message: string };
}

/**
 * The parts of a loaded layout a skeleton sketches, so a panel keeps its shape when the data
 * arrives: a title, figure cards, a chart, a table (header and rows), a list of avatar items, a
 * list of two-line items, a grid of facts, form fields.
 */
export type SkeletonPart = 'title' | 'figures' | 'chart' | 'table' | 'list' | 'lines' | 'facts' | 'fields';
/** A part, or a part with its own number of rows (`['list', 5]`). */
export type Sketch = SkeletonPart | readonly [SkeletonPart, number];

const bone = (shape = '') => html`<div class="bone ${shape}"></div>`;
const times = (n: number, part: () => unknown) => Array.from({ length: n }, part);

const SKETCHES: Record<SkeletonPart, (rows: number) => unknown> = {
  title: () => bone('bone-title'),
  figures: () => html`<div class="sketch-figures">${times(4, () => html`<div class="sketch-card">${bone('bone-short')}${bone('bone-value')}</div>`)}</div>`,
  chart: () => bone('bone-chart'),
  table: (rows) =>
    html`<div class="sketch-table"><div class="sketch-head"></div>${times(rows, () => html`<div class="sketch-tr">${bone()}${bone('bone-num')}${bone('bone-num')}</div>`)}</div>`,
  list: (rows) => times(rows, () => html`<div class="sketch-item">${bone('bone-avatar')}<div class="sketch-lines">${bone()}${bone('bone-short')}</div></div>`),
  lines: (rows) => times(rows, () => html`<div class="sketch-lines">${bone('bone-short')}${bone('bone-half')}</div>`),
  facts: () => html`<div class="sketch-facts">${times(6, () => html`<div class="sketch-lines">${bone('bone-short')}${bone()}</div>`)}</div>`,
  fields: (rows) => times(rows, () => html`<div class="sketch-lines">${bone('bone-short')}${bone('bone-input')}</div>`),
};

export function renderSkeleton(noun: string, rows = 5, parts: readonly Sketch[] = ['table']): TemplateResult {
  return html`<div part="skeleton" class="skeleton" role="status" aria-live="polite">
    <span class="visually-hidden">${msg(str`Loading ${noun}…`)}</span>
    <div class="sketch" aria-hidden="true">${parts.map((part) => (typeof part === 'string' ? SKETCHES[part](rows) : SKETCHES[part[0]](part[1])))}</div>
  </div>`;
}

export function renderEmpty(message: unknown): TemplateResult {
  return html`<div part="empty" class="empty" role="status">${message}</div>`;
}

/**
 * A failure in words for the person at the panel. What a developer needs (the schema issues of a
 * malformed answer, the URL) is in the `ops-load-error` event and the page's console, not here.
 */
export function renderError(noun: string, error: unknown, retry: () => void, notFound?: StateTemplates<unknown>['notFound']): TemplateResult {
  const problem = toConsoleError(error);
  const missing = notFound && problem.notFound ? notFound : undefined;
  return html`<div part="error" class="error" role="alert">
    <p class="error-title">${missing ? missing.title : msg(str`Couldn’t load ${noun}.`)}</p>
    <p class="error-message">${missing ? missing.message : problem.sentence}</p>
    ${problem.retryable ? html`<button part="retry-button" class="button" type="button" @click=${retry}>${msg('Retry')}</button>` : nothing}
  </div>`;
}

/** The one set of states every data panel renders: skeleton, error (+ Retry when it can help), empty, loaded. */
export function renderDataStates<A extends readonly unknown[], T>(task: DataTask<A, T>, templates: StateTemplates<T>): unknown {
  const { status, value } = task;
  if (status === TaskStatus.ERROR) return renderError(templates.noun, task.error, () => task.retry(), templates.notFound);
  if (status === TaskStatus.COMPLETE && value !== undefined) {
    return task.isEmpty(value) ? renderEmpty(templates.empty()) : templates.complete(value, false);
  }
  const previous = task.previousValue;
  if (status === TaskStatus.PENDING && previous !== undefined && !task.isEmpty(previous)) return templates.complete(previous, true);
  return renderSkeleton(templates.noun, templates.skeletonRows, templates.skeleton);
}
