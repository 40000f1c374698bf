/**
 * Skeletons sketch the loaded layout (figure cards, charts, table headers, a grid of facts,
 * form fields), so a panel keeps roughly its size when the data arrives instead of jumping from
 * a few grey bars to a page of content.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { http } from 'msw';
import '../src/all.ts';
import { allowVirtualizerResizeNotice, waitFor } from './dom.ts';
import { API_BASE, useMockApi } from './mock-api.ts';
import { ELEMENTS } from './harness.ts';

/** Every element under `root`, through open shadow roots. */
function* descendants(root: Element | ShadowRoot): Generator<Element> {
  for (const child of root.children) {
    yield child;
    if (child.shadowRoot) yield* descendants(child.shadowRoot);
    yield* descendants(child);
  }
}
const skeletons = (el: Element) => [...descendants(el.shadowRoot!)].filter((d) => d.getAttribute('part') === 'skeleton');
const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('skeletons', () => {
  const api = useMockApi();
  allowVirtualizerResizeNotice();

  for (const element of ELEMENTS) {
    it(`${element.tag}: the skeleton is about the size of the loaded panel`, async () => {
      // Answers wait until the test lets them through; then the fixtures answer as usual.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      api.use(
        http.get(`*${API_BASE}/*`, async () => {
          await gate; // then nothing: the request falls through to the fixtures
        }),
      );
      const box = await fixture<HTMLDivElement>(html`<div style="width: 1000px"></div>`);
      const el = document.createElement(element.tag);
      for (const [k, v] of Object.entries({ 'api-base': API_BASE, 'time-zone': 'UTC', ...element.attrs })) el.setAttribute(k, v);
      box.append(el);
      await waitFor(() => skeletons(el).length > 0, 'skeleton shown');
      await frame();
      const loading = el.getBoundingClientRect().height;
      release();
      await waitFor(() => el.shadowRoot!.querySelector(element.loaded), 'loaded');
      await waitFor(() => skeletons(el).length === 0, 'every part loaded');
      await frame();
      const loaded = el.getBoundingClientRect().height;
      expect(loading / loaded, `${Math.round(loading)} px loading, ${Math.round(loaded)} px loaded`).to.be.within(0.6, 1.4);
    });
  }
});
