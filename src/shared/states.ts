import { html, nothing, type TemplateResult } from 'lit';
import { TaskStatus } from '@lit/task';
import { toConsoleError } from '../api/errors.ts';
import type { DataTask } from './data-task.ts';

export interface StateTemplates<T> {
  /** What the panel is, for the words of the loading and error states ("endpoints"). */
  noun: string;
  /** The loaded view; `busy` is true while a newer run is on its way. */
  complete: (value: T, busy: boolean) => unknown;
  /** The message shown when the loaded value is empty. */
  empty: () => unknown;
  /** Skeleton rows to show while nothing has loaded yet. */
  skeletonRows?: number;
  /** For a record's page: which record it asked for (`{ record: 'customer', id }`), so a 404 says that record was not found rather than that loading failed. */
  notFound?: { record: string; id: string };
}

export function renderSkeleton(noun: string, rows = 5): TemplateResult {
  return html`<div part="skeleton" class="skeleton" role="status" aria-live="polite">
    <span class="visually-hidden">Loading ${noun}…</span>
    ${Array.from({ length: rows }, () => html`<div class="skeleton-row" aria-hidden="true"></div>`)}
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
    <p class="error-title">${missing ? `${missing.record[0]!.toUpperCase()}${missing.record.slice(1)} not found.` : `Couldn’t load ${noun}.`}</p>
    <p class="error-message">
      ${missing ? `No ${missing.record} has the id “${missing.id}”. It may have been deleted, or the link may be wrong.` : problem.message}
    </p>
    ${problem.retryable ? html`<button part="retry-button" class="button" type="button" @click=${retry}>Retry</button>` : nothing}
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
  return renderSkeleton(templates.noun, templates.skeletonRows);
}
