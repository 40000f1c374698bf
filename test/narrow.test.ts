/**
 * Narrow containers: every panel, loaded with the fixtures, inside a 320 px (and a 390 px)
 * sidebar. Nothing may reach past the panel's edges or scroll sideways, no text may be cut
 * off, and words break only where a reader expects (spaces, `/`, `-`), never mid-word as in
 * "/auth/tok en". Chart axis labels are thinned out so they never run together.
 */
import { expect } from '@open-wc/testing';
import '../src/all.ts';
import { allowVirtualizerResizeNotice, descendants, nextFrames, waitFor } from './dom.ts';
import { useMockApi } from './mock-api.ts';
import { chartsInside, ELEMENTS, mount, type ElementCase } from './harness.ts';
import { localeReady } from '../src/localize/localize.ts';

/** Every text node under `root`, through open shadow roots. */
function* textNodes(root: Element | ShadowRoot): Generator<Text> {
  for (const node of root.childNodes) {
    if (node instanceof Text) yield node;
    else if (node instanceof Element) {
      if (node.shadowRoot) yield* textNodes(node.shadowRoot);
      yield* textNodes(node);
    }
  }
}

const name = (el: Element) =>
  `<${el.localName}${el.getAttribute('part') ? ` part="${el.getAttribute('part')}"` : ''}${el.className && typeof el.className === 'string' ? ` class="${el.className}"` : ''}> “${el.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)}”`;

/** Not laid out for the eye: for assistive technology only (the 1 px clip pattern), or inside a closed disclosure. */
const visuallyHidden = (el: Element) => {
  const style = getComputedStyle(el);
  return style.clipPath !== 'none' || style.visibility === 'hidden' || !!el.closest('details:not([open]) > :not(summary)');
};

/** Opens every disclosure (the charts' data tables), as a reader can. */
function openDisclosures(host: HTMLElement) {
  for (const el of descendants(host.shadowRoot!)) if (el instanceof HTMLDetailsElement) el.open = true;
}

/** Elements that reach past the panel's edges, or that cut off or scroll their own content sideways. */
function overflows(host: HTMLElement): string[] {
  const edge = host.getBoundingClientRect();
  const found: string[] = [];
  for (const el of descendants(host.shadowRoot!)) {
    const box = el.getBoundingClientRect();
    if ((box.width === 0 && box.height === 0) || visuallyHidden(el)) continue;
    if (box.right > edge.right + 1 || box.left < edge.left - 1)
      found.push(
        `${name(el)} reaches past the panel (${Math.round(box.left - edge.left)}–${Math.round(box.right - edge.left)} px of ${Math.round(edge.width)})`,
      );
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && !(el instanceof HTMLCanvasElement))
      found.push(`${name(el)} cuts off or scrolls its content sideways (${el.scrollWidth} px in ${el.clientWidth})`);
  }
  return found;
}

/** Characters after which a line may break: spaces, path and word separators. */
const BREAKABLE_AFTER = /[\s/\-–—·,.:;?&=_(]/;

/** Text broken across lines anywhere but after a space or a separator ("/auth/tok|en"). */
function midWordBreaks(host: HTMLElement): string[] {
  const found: string[] = [];
  const range = document.createRange();
  for (const node of textNodes(host.shadowRoot!)) {
    const value = node.data;
    if (value.trim().length < 2 || !node.parentElement || visuallyHidden(node.parentElement)) continue;
    let lineTop: number | undefined;
    for (let i = 0; i < value.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || rect.width === 0) continue;
      if (lineTop !== undefined && rect.top > lineTop + rect.height / 2 && !BREAKABLE_AFTER.test(value[i - 1] ?? ' ') && !/[\s/]/.test(value[i]!))
        found.push(`${name(node.parentElement)}: “${value.trim()}” breaks as “${value.slice(0, i).trim()} | ${value.slice(i).trim()}”`);
      lineTop = rect.top;
    }
  }
  return found;
}

/** Each panel at each width, plus the request log's Summary, which has its own table. */
const CASES: (ElementCase & { label: string })[] = [
  ...ELEMENTS.map((e) => ({ ...e, label: e.tag })),
  { ...ELEMENTS.find((e) => e.tag === 'ops-request-log')!, label: 'ops-request-log (Summary)', attrs: { view: 'summary' }, loaded: '[part="summary-row"]' },
];

/** Waits for `el` and every panel inside it to finish loading (no skeletons left). */
async function loaded(el: HTMLElement, selector: string) {
  await waitFor(() => el.shadowRoot?.querySelector(selector), `${el.localName} loaded`);
  await waitFor(() => ![...descendants(el.shadowRoot!)].some((d) => d.getAttribute('part') === 'skeleton'), 'every part loaded');
  await nextFrames();
}

describe('narrow containers', () => {
  useMockApi();
  allowVirtualizerResizeNotice();

  // 520 and 600: wide enough that tables do not stack, narrow enough to squeeze their columns.
  for (const width of [320, 390, 520, 600]) {
    for (const element of CASES) {
      it(`${element.label} fits ${width} px: nothing clipped, overflowing or broken mid-word`, async () => {
        const el = await mount(element.tag, element.attrs, { width });
        await loaded(el, element.loaded);
        expect(el.getBoundingClientRect().width).to.equal(width);
        expect(overflows(el), 'overflowing').to.deep.equal([]);
        expect(midWordBreaks(el), 'broken mid-word').to.deep.equal([]);
        openDisclosures(el);
        await nextFrames();
        expect(overflows(el), 'overflowing with the data tables open').to.deep.equal([]);
        expect(midWordBreaks(el), 'broken mid-word with the data tables open').to.deep.equal([]);
      });
    }
  }

  // German has the longest words of the three languages, Japanese breaks between any two characters (so only overflow is checked).
  for (const locale of ['de', 'ja']) {
    for (const element of CASES) {
      it(`${element.label} in ${locale} fits 320 px: nothing clipped or overflowing${locale === 'de' ? ', nothing broken mid-word' : ''}`, async () => {
        const el = await mount(element.tag, { ...element.attrs, locale }, { width: 320 });
        await loaded(el, element.loaded);
        await localeReady(locale);
        await nextFrames();
        openDisclosures(el);
        await nextFrames();
        expect(overflows(el), 'overflowing').to.deep.equal([]);
        if (locale === 'de') expect(midWordBreaks(el), 'broken mid-word').to.deep.equal([]);
      });
    }
  }

  it('thins out chart axis labels at 320 px so none overlap', async () => {
    const el = await mount('ops-traffic', {}, { width: 320 });
    const [chart] = await waitFor(() => (chartsInside(el).length ? chartsInside(el) : null), 'chart drawn');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // What is drawn: the month labels on the canvas, with their boxes as zrender lays them out.
    type Drawn = { type: string; ignore?: boolean; invisible?: boolean; style: { text?: string }; transform?: number[]; getBoundingRect(): { clone(): Box } };
    type Box = { x: number; width: number; applyTransform(m: number[]): void };
    const categories = (chart!.getOption() as { xAxis: { data: string[] }[] }).xAxis[0]!.data;
    const zr = chart!.getZr() as unknown as { storage: { getDisplayList(update: boolean): Drawn[] } };
    const labels = zr.storage
      .getDisplayList(true)
      .filter((d) => d.type === 'tspan' && !d.ignore && !d.invisible && categories.includes(d.style.text ?? ''))
      .map((d) => {
        const box = d.getBoundingRect().clone();
        if (d.transform) box.applyTransform(d.transform);
        return { text: d.style.text!, left: box.x, right: box.x + box.width };
      })
      .sort((a, b) => a.left - b.left);
    expect(labels.length, 'labels drawn').to.be.greaterThan(1);
    expect(labels.length, 'some labels are left out').to.be.lessThan(categories.length);
    for (let i = 1; i < labels.length; i++)
      expect(labels[i]!.left, `${labels[i]!.text} starts after ${labels[i - 1]!.text} ends`).to.be.greaterThan(labels[i - 1]!.right);
  });
});
