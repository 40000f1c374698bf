/**
 * The shared test harness: mount an element the way a page would, and read a panel the way a
 * person does (rows, the error text, the Retry button). One copy for every test file.
 */
import { fixture, html } from '@open-wc/testing';
import { OpsChart } from '../src/shared/chart/ops-chart.ts';
import { $, $$, text, waitFor } from './dom.ts';
import { API_BASE } from './mock-api.ts';
import { ELEMENTS as REGISTRY, type ElementSample } from '../src/elements/registry.ts';

/**
 * Creates `<tag>` with `attrs` (api-base and time-zone UTC by default), inside `<ops-console>` when
 * `wrapper` attributes are given, or in a container `width` px wide (a sidebar, a page column;
 * `'auto'` for one the test resizes through `el.parentElement`).
 */
export async function mount<T extends HTMLElement = HTMLElement>(
  tag: string,
  attrs: Record<string, string> = {},
  { wrapper, properties = {}, width }: { wrapper?: Record<string, string>; properties?: Record<string, unknown>; width?: number | 'auto' } = {},
): Promise<T> {
  const el = document.createElement(tag) as T;
  const all = { ...(wrapper ? {} : { 'api-base': API_BASE }), 'time-zone': 'UTC', ...attrs };
  for (const [name, value] of Object.entries(all)) el.setAttribute(name, value);
  Object.assign(el, properties);
  if (width !== undefined) {
    const box = await fixture<HTMLDivElement>(html`<div></div>`);
    if (width !== 'auto') box.style.width = `${width}px`;
    box.append(el);
    return el;
  }
  if (!wrapper) return fixture<T>(html`${el}`);
  const host = document.createElement('ops-console');
  for (const [name, value] of Object.entries({ 'api-base': API_BASE, ...wrapper })) host.setAttribute(name, value);
  host.append(el);
  await fixture(html`${host}`);
  return el;
}

/** What a person reads in a panel. */
export const panel = {
  rows: (el: Element, selector = '[part="row"]') => $$(el, selector),
  rowIds: (el: Element, selector = '[part="row"]') => $$(el, selector).map((row) => row.dataset['id']),
  errorText: (el: Element) => text($(el, '[part="error"]')),
  retry: (el: Element) => $<HTMLButtonElement>(el, '[part="retry-button"]'),
  /** Waits for the error panel and returns its text. */
  error: async (el: Element) => text(await waitFor(() => $(el, '[part="error"]'), 'error shown')),
};

/** Whether a library module (not a test, msw or the test runner) is on the stack that set a timer. */
const fromLibrary = () => /\/src\/(shared|elements|api)\/[\w/-]+\.ts/.test(new Error().stack ?? '');

type Timers = Pick<Window, 'setTimeout' | 'setInterval' | 'clearTimeout' | 'clearInterval'>;

/**
 * Watches timers the library sets: every `setTimeout`/`setInterval` started from now on by a
 * library module and whether it was cleared or fired, so a test can tell that an element left none running.
 */
export function watchTimers() {
  const live = new Map<number, string>();
  // Saved to put back after the test; they are called with `window` as `this` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const { setTimeout, setInterval, clearTimeout, clearInterval } = window;
  const original: Timers = { setTimeout, setInterval, clearTimeout, clearInterval };
  const spy: Timers = {
    setTimeout: (handler: TimerHandler, ms?: number, ...args: unknown[]) => {
      const id = original.setTimeout.call(
        window,
        (...a: unknown[]) => {
          live.delete(id);
          if (typeof handler === 'function') (handler as (...x: unknown[]) => void)(...a);
        },
        ms,
        ...args,
      );
      if (fromLibrary()) live.set(id, `timeout ${ms ?? 0} ms`);
      return id;
    },
    setInterval: (handler: TimerHandler, ms?: number, ...args: unknown[]) => {
      const id = original.setInterval.call(window, handler, ms, ...args);
      if (fromLibrary()) live.set(id, `interval ${ms ?? 0} ms`);
      return id;
    },
    clearTimeout: (id?: number) => {
      if (id !== undefined) live.delete(id);
      original.clearTimeout.call(window, id);
    },
    clearInterval: (id?: number) => {
      if (id !== undefined) live.delete(id);
      original.clearInterval.call(window, id);
    },
  };
  Object.assign(window, spy);
  return {
    /** Timers still pending at least `minMs` long (short ones are rendering ticks). */
    pending: (minMs = 1_000) => [...live.values()].filter((label) => Number(/(\d+) ms/.exec(label)?.[1]) >= minMs),
    restore: () => Object.assign(window, original),
  };
}

export type DrawnChart = NonNullable<OpsChart['chart']>;

/** The ECharts instances drawn inside `root`, however deep in shadow roots its `ops-chart`s sit. */
export function chartsInside(root: Element): DrawnChart[] {
  const found: DrawnChart[] = [];
  const visit = (node: Element) => {
    if (node instanceof OpsChart && node.chart) found.push(node.chart);
    for (const child of node.shadowRoot ? [...node.shadowRoot.children, ...node.children] : node.children) visit(child);
  };
  visit(root);
  return found;
}

/** Attributes written the short way, as in a query string: `'live=&limit=2'`. */
export const attrs = (query: string): Record<string, string> => Object.fromEntries(new URLSearchParams(query));

/** One row per panel: how to mount it and what shows once its data is in (from the element registry). */
export type ElementCase = ElementSample & { tag: string };

export const ELEMENTS: ElementCase[] = REGISTRY.flatMap((e) => ('sample' in e ? [{ tag: e.tag, ...e.sample }] : []));
