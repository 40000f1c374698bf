import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { pageUrl } from '../api/client.ts';
import type { Routes } from './config.ts';
import type { NavigateDetail } from './events.ts';

const SAFE_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * An href that is safe to render: relative, `#…`, or http(s). Anything else (`javascript:`,
 * `data:`, `vbscript:`) is refused with a warning naming the attribute, and `fallback` is used.
 */
export function safeHref(value: string | undefined, fallback: string | undefined, attribute = 'href'): string | undefined {
  if (value === undefined || value === '') return fallback;
  try {
    const url = new URL(value, pageUrl());
    if (SAFE_PROTOCOLS.has(url.protocol)) return value;
  } catch {
    // Not a URL at all: refused below.
  }
  console.warn(`ignored ${attribute}="${value.slice(0, 40)}": only http(s) and relative URLs are followed.`);
  return fallback;
}

/** A link out of the console (documentation from the API): an absolute http(s) URL from outside as text in a new tab, anything else as plain text. */
export function renderExternalLink(url: string | null | undefined, label: unknown) {
  let safe = false;
  try {
    safe = !!url && SAFE_PROTOCOLS.has(new URL(url).protocol);
  } catch {
    // Not an absolute URL: shown as text.
  }
  return safe ? html`<a part="external-link" href=${url!} target="_blank" rel="noopener noreferrer">${label}</a>` : html`${label}`;
}

/** The href for a target from the host's URL templates (`{id}` URL-encoded), or `undefined`. */
export function routeHref(routes: Routes | undefined, target: Pick<NavigateDetail, 'kind' | 'id'>): string | undefined {
  // Own properties only: a kind from the API such as "constructor" must not reach Object's members.
  const template = routes && Object.hasOwn(routes, target.kind) ? routes[target.kind as keyof Routes] : undefined;
  if (typeof template !== 'string' || !template) return undefined;
  return safeHref(template.replaceAll('{id}', encodeURIComponent(target.id)), undefined, `routes.${target.kind}`);
}

/** A click the browser should handle itself: new tab or window, download, or not the main button. */
export function isModifiedClick(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

export interface LinkState {
  target: NavigateDetail;
  label: unknown;
  className?: string | undefined;
  part?: string | undefined;
}
export interface LinkHandlers {
  /** Fires the cancelable `ops-navigate`; returns whether the host took over (cancelled it). */
  navigate: (target: NavigateDetail) => boolean;
}

/**
 * A drill-down. With an href it is a real link: a plain click fires the cancelable
 * `ops-navigate` first and the browser follows the link unless the host cancelled it; a
 * modified click (new tab, copy) is left to the browser. Without an href it is a button.
 */
export function renderLink(state: LinkState, handlers: LinkHandlers) {
  const { target, label, className = 'link', part } = state;
  if (target.href) {
    const onClick = (event: MouseEvent) => {
      if (isModifiedClick(event)) return;
      if (handlers.navigate(target)) event.preventDefault();
    };
    return html`<a class=${className} part=${ifDefined(part)} href=${target.href} @click=${onClick}>${label}</a>`;
  }
  return html`<button type="button" class=${className} part=${ifDefined(part)} @click=${() => handlers.navigate(target)}>${label}</button>`;
}
