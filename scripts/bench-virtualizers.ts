/**
 * `npm run bench` only: the request log's rows under three virtualizers, side by side on the
 * same 10,500 rows, the same row template and the same styles, so the bench can compare them
 * and the log keeps the best. Not shipped.
 *  - `lit-virtualizer`: @lit-labs/virtualizer 2.1.1 as published (rows of a fixed CSS height);
 *  - `lit-virtualizer-patched`: the same, with `_positionChildren` reading the host's children
 *    once per call instead of once per positioned child (the fix of lit/lit#5249);
 *  - `tanstack`: the project's VirtualRows (@tanstack/lit-virtual), as the log uses it.
 */
import { html, LitElement } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { virtualize, virtualizerRef } from '@lit-labs/virtualizer/virtualize.js';
import { VirtualRows } from '../src/shared/virtual-rows.ts';
import { styles as logStyles } from '../src/elements/request-log/ops-request-log.styles.ts';
import { sharedStyles, tokens } from '../src/shared/styles.ts';
import { styleProperties } from '../src/shared/style-properties.ts';

interface Row {
  id: string;
  path: string;
  status: number;
  ms: number;
  actor: string;
  time: string;
}

const NONE: readonly Row[] = [];
const ROWS: Row[] = Array.from({ length: 10_500 }, (_, i) => ({
  id: `req_${i}`,
  path: `/v2/contacts/${i}`,
  status: [200, 201, 404, 500][i % 4]!,
  ms: (i * 37) % 1_300,
  actor: ['Mia Chen', 'Lee Park', 'Noor Ali'][i % 3]!,
  time: new Date(Date.UTC(2026, 8, 14, 9, 41) - i * 7_000).toISOString(),
}));

const row = (r: Row, extra: { index?: number; top?: number } = {}) =>
  html`<div
    part="row"
    class="row"
    role="listitem"
    data-id=${r.id}
    data-index=${extra.index ?? ''}
    ${styleProperties(extra.top === undefined ? {} : { transform: `translateY(${extra.top}px)` })}
  >
    <button class="row-link" type="button">GET ${r.path}</button>
    <span class="status"><span class="badge">${r.status}</span></span>
    <span class="duration">${r.ms} ms</span>
    <span class="actor">${r.actor}</span>
    <time class="time" datetime=${r.time}>${r.time.slice(0, 16)}</time>
  </div>`;

type Mode = 'lit-virtualizer' | 'lit-virtualizer-patched' | 'tanstack';

type LitVirtualizer = { _children: Element[]; _positionChildren: (this: LitVirtualizer, pos: unknown) => void };

class BenchLog extends LitElement {
  static override properties = { mode: {} };
  static override styles = [tokens, sharedStyles, ...logStyles];
  mode: Mode = 'tanstack';
  readonly rows = new VirtualRows(this, {
    scroller: () => (this.mode === 'tanstack' ? this.renderRoot.querySelector<HTMLElement>('.timeline') : null),
    rows: () => (this.mode === 'tanstack' ? ROWS : NONE),
    estimate: 40,
  });

  override render() {
    if (this.mode === 'tanstack') {
      return html`<div part="timeline" class="timeline" role="list">
        <div class="sizer" ${styleProperties({ height: `${this.rows.totalSize}px` })}>
          ${repeat(
            this.rows.items,
            (item) => ROWS[item.index]!.id,
            (item) => row(ROWS[item.index]!, { index: item.index, top: item.start }),
          )}
        </div>
      </div>`;
    }
    return html`<div part="timeline" class="timeline lit" role="list">
      ${virtualize({ items: ROWS, scroller: true, keyFunction: (r) => r.id, renderItem: (r) => row(r) })}
    </div>`;
  }

  protected override firstUpdated(): void {
    if (this.mode !== 'lit-virtualizer-patched') return;
    const host = this.renderRoot.querySelector('.timeline') as unknown as Record<symbol, LitVirtualizer | undefined>;
    const virtualizer = host[virtualizerRef]!;
    const position = (Object.getPrototypeOf(virtualizer) as LitVirtualizer)._positionChildren;
    virtualizer._positionChildren = function (this: LitVirtualizer, pos: unknown) {
      const children = this._children;
      // The getter walks every child; for this call it is read once.
      Object.defineProperty(this, '_children', { value: children, configurable: true });
      try {
        position.call(this, pos);
      } finally {
        delete (this as Partial<LitVirtualizer>)._children;
      }
    };
  }
}
customElements.define('bench-log', BenchLog);

/** Scrolls 10,000 rows, 600 px a frame, and reports what a person would feel. */
export async function scrollRun(mode: Mode) {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) =>
    longTasks.push(
      ...list
        .getEntries()
        .filter((e) => e.duration > 50)
        .map((e) => e.duration),
    ),
  );
  observer.observe({ type: 'longtask' });
  const log = new BenchLog();
  log.mode = mode;
  document.querySelector('main')!.append(log);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  while (!log.shadowRoot?.querySelector('[part="row"]')) await frame();
  await new Promise((resolve) => setTimeout(resolve, 300));
  longTasks.length = 0;
  const timeline = log.shadowRoot.querySelector('.timeline')!;
  const rowHeight = log.shadowRoot.querySelector('[part="row"]')!.getBoundingClientRect().height;
  const frames: number[] = [];
  let maxRows = 0;
  let last = performance.now();
  for (let guard = 0; timeline.scrollTop < 10_000 * rowHeight && guard < 4_000; guard++) {
    timeline.scrollTop += 600;
    await frame();
    const now = performance.now();
    frames.push(now - last);
    last = now;
    maxRows = Math.max(maxRows, log.shadowRoot.querySelectorAll('[part="row"]').length);
  }
  observer.disconnect();
  log.remove();
  frames.sort((a, b) => a - b);
  return { longTasks: longTasks.length, p95FrameMs: frames[Math.floor(frames.length * 0.95)]!, maxRows };
}
