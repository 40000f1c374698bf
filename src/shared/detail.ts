/** Pieces shared by the detail pages (customer, webhook, error, new error). */
import { css, html, nothing } from 'lit';
import type { Person, RelatedEndpoint } from '../api/schemas.ts';
import { formatInteger, type FormatOptions } from '../format/format.ts';
import { renderAvatar } from './avatar.ts';
import type { NavigateDetail } from './events.ts';
import { renderLink, type LinkHandlers } from './navigate.ts';
import { msg, plural, str } from '../localize/localize.ts';

export interface Crumb {
  label: string;
  /** Where a crumb before the current page leads; without one it is plain text (the host has no such page). */
  target?: NavigateDetail;
}

/** `Webhooks / invoice.paid`: a breadcrumb whose last part is the current page. */
export function renderBreadcrumb(crumbs: Crumb[], handlers: LinkHandlers) {
  return html`<nav part="breadcrumb" class="breadcrumb" aria-label=${msg('Breadcrumb')}>
    <ol>
      ${crumbs.map(
        (crumb, i) => html`<li>
          ${i > 0 ? html`<span class="separator" aria-hidden="true"> / </span>` : nothing}
          ${
            i === crumbs.length - 1
              ? html`<span aria-current="page">${crumb.label}</span>`
              : crumb.target
                ? renderLink({ target: { ...crumb.target, label: crumb.label }, label: crumb.label, className: 'crumb' }, handlers)
                : html`<span>${crumb.label}</span>`
          }
        </li>`,
      )}
    </ol>
  </nav>`;
}

/**
 * The head of every detail page: the breadcrumb, then the record's name as the title with its
 * status badge beside it (so the name and status are not repeated among the facts). The badge
 * sits outside the heading, labelled "Status:" for screen readers, so the heading names the record only.
 */
export function renderDetailHeader(
  crumbs: Crumb[],
  handlers: LinkHandlers,
  { title = crumbs.at(-1)?.label, status }: { title?: string | undefined; status?: unknown } = {},
) {
  return html`<div part="header" class="header">
    ${renderBreadcrumb(crumbs, handlers)}
    <div class="title">
      <h2><span>${title}</span></h2>
      ${status ? html`<p class="title-status"><span class="visually-hidden">${msg('Status:')} </span>${status}</p>` : nothing}
    </div>
  </div>`;
}

/** Key facts as label and value pairs. */
export function renderFacts(facts: [label: string, value: unknown][]) {
  return html`<dl part="facts" class="facts">
    ${facts.map(([label, value]) => html`<div class="fact"><dt>${label}</dt><dd>${value}</dd></div>`)}
  </dl>`;
}

export function renderPerson(person: Person) {
  return html`<span class="person">${renderAvatar(person)}<span>${person.name}</span></span>`;
}

export interface RelatedState {
  related: readonly RelatedEndpoint[];
  format: FormatOptions;
}
export interface RelatedHandlers {
  /** A drill-down to one endpoint (a link or a button, as the host's routes allow). */
  link: (target: NavigateDetail, label: unknown, className?: string) => unknown;
}

/**
 * Related endpoints: each its label and request count. Those with an id are drill-downs to
 * that endpoint; an older server that sends no id gets plain text, never a guessed id.
 */
export function renderRelatedEndpoints({ related, format }: RelatedState, { link }: RelatedHandlers) {
  if (!related.length) return html`<p class="muted">${msg('No related endpoints.')}</p>`;
  return html`<ul part="related" class="related">
    ${related.map(
      (r) => html`<li>
        ${r.id ? link({ kind: 'endpoint', id: r.id, label: r.label }, r.label, 'link mono') : html`<span class="mono">${r.label}</span>`}
        <span class="muted">${requestCount(r.requests, format)}</span>
      </li>`,
    )}
  </ul>`;
}

/** `1 request`, `8,410 requests`: the count formatted and its noun in the plural the language asks for. */
export function requestCount(count: number, format: FormatOptions) {
  const n = formatInteger(count, format);
  return plural(count, { one: () => msg(str`${n} request`), other: () => msg(str`${n} requests`) });
}

export const detailStyles = css`
  .breadcrumb ol {
    display: flex;
    flex-wrap: wrap;
    margin: 0 0 var(--_space);
    padding: 0;
    list-style: none;
    color: var(--_muted);
  }
  .separator {
    white-space: pre;
  }
  .title {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
    margin: 0 0 calc(var(--_space) * 1.5);
  }
  .title h2 {
    margin: 0;
    font-size: 1.4em;
    overflow-wrap: anywhere;
  }
  .title-status {
    margin: 0;
  }
  h3 {
    margin: calc(var(--_space) * 2) 0 var(--_space);
    font-size: 1.05em;
  }
  .facts {
    display: grid;
    /* Two facts side by side from 320 px of container; one column only where even that does not fit. */
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 8.5rem), 1fr));
    gap: var(--_space) calc(var(--_space) * 2);
    margin: 0;
  }
  .fact dt {
    color: var(--_muted);
  }
  .fact dd {
    margin: 0.15rem 0 0;
    font-weight: 500;
    overflow-wrap: anywhere;
    font-variant-numeric: tabular-nums;
  }
  .person {
    display: inline-flex;
    align-items: center;
    gap: calc(var(--_space) * 0.75);
  }
  .related {
    display: grid;
    gap: calc(var(--_space) * 0.5);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .related li {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    align-items: baseline;
  }
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  }
  .muted {
    color: var(--_muted);
  }
  textarea {
    width: 100%;
    min-height: 4.5rem;
    resize: vertical;
  }
  .field-error,
  .form-error {
    margin: 0.25rem 0 0;
    color: var(--_danger);
  }
  .button-primary {
    color: var(--_surface);
    background: var(--_accent);
    border-color: var(--_accent);
  }
  .button-primary:hover {
    background: color-mix(in srgb, var(--_accent), black 12%);
  }
`;
