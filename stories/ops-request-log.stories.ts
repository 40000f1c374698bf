import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement } from './support/element.ts';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { shadowWith } from './support/play.ts';

interface Args {
  apiBase: string;
  view: 'timeline' | 'summary';
  method: string;
  status: string;
  path: string;
  live: boolean;
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
  render: (args) => renderElement('ops-request-log', { timeZone: 'UTC', ...args }),
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
export const Loading: Story = { args: { apiBase: scenario('hang') } };
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
