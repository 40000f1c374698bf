import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement } from './support/element.ts';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { shadowWith } from './support/play.ts';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { fixtures, problem } from '../mocks/index.ts';
import { apiFailures, forcedColours, keyboardFocus, loading } from './support/states.ts';

interface Args {
  apiBase: string;
  view: 'timeline' | 'summary';
  method: string;
  status: string;
  path: string;
  live: boolean;
  refreshInterval?: number;
  theme?: 'light' | 'dark';
  locale?: string;
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-request-log',
  component: 'ops-request-log',
  args: { apiBase: '/api/v1', view: 'timeline', method: '', status: '', path: '', live: false },
  argTypes: {
    view: { control: 'inline-radio', options: ['timeline', 'summary'] },
    method: { control: 'select', options: ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  },
  render: (args) => renderElement('ops-request-log', { timeZone: 'UTC', clock: () => fixtures.FIXTURE_NOW, ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Timeline: Story = {};
export const Summary: Story = { args: { view: 'summary' } };
export const Filtered: Story = { args: { method: 'POST', status: '5xx' } };
/** The 1,000,000-entry log: pages load by cursor while scrolling, fewer than 200 rows in the DOM. */
export const MillionEntries: Story = {
  args: { apiBase: scenario('large') },
  // How many pages the scroll reaches depends on timing; the Storybook test checks it got past entry 300.
  parameters: { visual: { skip: 'scroll depth varies with timing' } },
  render: (args) => html`<p style="font: 14px system-ui; margin: 0 0 8px">
      The <code>large</code> scenario: 1,000,000 entries, 100 a page. Scroll the list: pages load by cursor as you near the end, and fewer than 200 rows
      are ever in the DOM.
    </p>
    <div style="max-width: ${args.width ?? '100%'}">
      <ops-request-log api-base=${args.apiBase} theme=${ifDefined(args.theme)} time-zone="UTC" limit="100"></ops-request-log>
    </div>`,
  /** Scrolls the timeline down a few pages, so the story opens deep in the million. */
  async play({ canvasElement }) {
    const log = canvasElement.querySelector('ops-request-log')!;
    for (let page = 0; page < 5; page++) {
      for (let i = 0; i < 40 && !log.shadowRoot?.querySelector('.timeline [part="row"]'); i++) await new Promise((r) => setTimeout(r, 50));
      const timeline = log.shadowRoot?.querySelector<HTMLElement>('.timeline');
      if (!timeline) return;
      timeline.scrollTop = timeline.scrollHeight;
      await new Promise((r) => setTimeout(r, 300));
    }
  },
};
export const Empty: Story = { args: { apiBase: scenario('empty') } };
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };

/** A status filter that is not a code or a class: the hint says what is expected. */
export const InvalidStatusHint: Story = {
  async play({ canvasElement }) {
    const root = await shadowWith(canvasElement, 'ops-request-log', '.status-input');
    const input = root.querySelector<HTMLInputElement>('.status-input')!;
    input.value = 'server errors';
    input.dispatchEvent(new Event('change'));
  },
};
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-request-log');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;

export const SummaryDark: Story = { args: { view: 'summary', theme: 'dark' }, globals: { theme: 'dark' } };
export const SummaryNarrow: Story = { args: { view: 'summary', width: '320px' } };
export const SummaryEmpty: Story = { args: { view: 'summary', apiBase: scenario('empty') } };

/** Scrolls the timeline to `top`, once its rows are there. */
const scrollTimeline = async (canvasElement: HTMLElement, top: number) => {
  const root = await shadowWith(canvasElement, 'ops-request-log', '.timeline [part="row"]');
  root.querySelector<HTMLElement>('.timeline')!.scrollTop = top;
  return root;
};

/**
 * Live, scrolled down: two requests arrive and wait behind "2 new" so the rows being read do not
 * move; pressing it puts them on top.
 */
export const LiveNewEntries: Story = {
  args: { live: true, refreshInterval: 2 },
  beforeEach({ msw }) {
    const arrivals = ['2026-09-14T09:42:30Z', '2026-09-14T09:42:00Z'].map((time, i) => ({
      id: `rq_live_${i}`,
      method: 'POST',
      path: '/messages',
      status: 201,
      durationMs: 96 + i,
      actor: { id: 'u_noor', name: 'Noor Ali' },
      time,
    }));
    msw.use(
      http.get('*/api/v1/requests', ({ request }) => {
        const since = new URL(request.url).searchParams.get('since');
        if (!since) return undefined; // the first page as usual
        return HttpResponse.json({ items: arrivals.filter((entry) => entry.time > since), nextCursor: null });
      }),
    );
  },
  async play({ canvasElement }) {
    await scrollTimeline(canvasElement, 600);
    await shadowWith(canvasElement, 'ops-request-log', '[part="new-entries"]');
  },
};

/** Scrolled to the end of what is loaded, the next page fails: the rows stay, with Retry. */
export const NextPageFails: Story = {
  beforeEach({ msw }) {
    msw.use(
      http.get('*/api/v1/requests', ({ request }) =>
        new URL(request.url).searchParams.has('cursor')
          ? problem(503, 'Service Unavailable', 'The console API is restarting. Try again in a minute.')
          : undefined,
      ),
    );
  },
  async play({ canvasElement }) {
    await scrollTimeline(canvasElement, 1e6);
    await shadowWith(canvasElement, 'ops-request-log', '.more-error');
  },
};
export const KeyboardFocus: Story = keyboardFocus<Args>('ops-request-log', 'input[name="view"]:checked');
export const ForcedColours: Story = forcedColours;

/** Filters nothing matches: the empty state names the filters, not an empty API. */
export const FilteredEmpty: Story = { args: { method: 'DELETE', path: '/messages' } };
/** The Summary sorted by slowest first (the header shows the order). */
export const SummarySorted: Story = {
  args: { view: 'summary' },
  async play({ canvasElement }) {
    const root = await shadowWith(canvasElement, 'ops-request-log', '[part="summary-row"]');
    const duration = [...root.querySelectorAll<HTMLButtonElement>('th button')].find((button) => button.textContent.includes('Duration'))!;
    duration.click();
    await shadowWith(canvasElement, 'ops-request-log', 'th[aria-sort="ascending"], th[aria-sort="descending"]');
  },
};
