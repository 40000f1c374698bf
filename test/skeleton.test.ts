/**
 * Skeletons sketch the loaded layout (figure cards, charts, table headers, a grid of facts,
 * form fields), so a panel keeps roughly its size when the data arrives instead of jumping from
 * a few grey bars to a page of content.
 */
import { expect } from '@open-wc/testing';
import { http } from 'msw';
import '../src/all.ts';
import { allowVirtualizerResizeNotice, descendants, nextFrames, waitFor } from './dom.ts';
import { API_BASE, useMockApi } from './mock-api.ts';
import { ELEMENTS, mount } from './harness.ts';

const skeletons = (el: Element) => [...descendants(el.shadowRoot!)].filter((d) => d.getAttribute('part') === 'skeleton');

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
      const el = await mount(element.tag, element.attrs, { width: 1000 });
      await waitFor(() => skeletons(el).length > 0, 'skeleton shown');
      await nextFrames();
      const loading = el.getBoundingClientRect().height;
      release();
      await waitFor(() => el.shadowRoot!.querySelector(element.loaded), 'loaded');
      await waitFor(() => skeletons(el).length === 0, 'every part loaded');
      await nextFrames();
      const loaded = el.getBoundingClientRect().height;
      expect(loading / loaded, `${Math.round(loading)} px loading, ${Math.round(loaded)} px loaded`).to.be.within(0.6, 1.4);
    });
  }
});
