/** Small DOM helpers for tests: read what a person sees inside an element's shadow root. */
import { waitUntil } from '@open-wc/testing';

export const shadow = (el: Element) => el.shadowRoot!;

export const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => shadow(el).querySelector<T>(selector);

export const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [...shadow(el).querySelectorAll<T>(selector)];

/** Visible text with whitespace collapsed. */
export const text = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Waits until `read` returns something truthy. Generous by default: the unbundled dev server loads ECharts as hundreds of modules the first time, which takes over 15 s on a busy 2-core machine. */
export async function waitFor<T>(read: () => T | null | undefined | false, message: string, timeout = 45_000): Promise<T> {
  let value: T | null | undefined | false;
  await waitUntil(() => (value = read()), message, { timeout });
  return value as T;
}

/** Resolves with the next `type` event fired at or through `target`. */
export function nextEvent<E extends Event>(target: EventTarget, type: string): Promise<E> {
  return new Promise((resolve) => target.addEventListener(type, (e) => resolve(e as E), { once: true }));
}

/**
 * Chromium reports "ResizeObserver loop completed with undelivered notifications" when a
 * virtualized list re-measures rows within one frame (harmless, nothing is lost). It reaches window.onerror, which mocha counts as a failure. Call this inside the
 * `describe` whose tests mount the virtualized request log: only there, and only that message,
 * is stopped; every other error still fails the test.
 */
export function allowVirtualizerResizeNotice(): void {
  let allowed = false;
  // Registered now, while the file loads: a listener added later (in a hook) runs after mocha's
  // window.onerror and cannot stop it. It acts only while this describe's tests run.
  window.addEventListener(
    'error',
    (event) => {
      if (allowed && event.message.startsWith('ResizeObserver loop')) event.stopImmediatePropagation();
    },
    { capture: true },
  );
  before(() => (allowed = true));
  after(() => (allowed = false));
}

/** Every element under `root`, through open shadow roots (a panel and the panels inside it). */
export function* descendants(root: Element | ShadowRoot): Generator<Element> {
  for (const child of root.children) {
    yield child;
    if (child.shadowRoot) yield* descendants(child.shadowRoot);
    yield* descendants(child);
  }
}

/** Resolves after the next two animation frames: styles, layout and container queries have settled. */
export const nextFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
