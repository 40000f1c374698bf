import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { http } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { fixtures, problem } from '../mocks/index.ts';

interface Args {
  apiBase: string;
  viewAllHref: string;
  theme?: 'light' | 'dark';
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-overview',
  component: 'ops-overview',
  args: { apiBase: '/api/v1', viewAllHref: '#endpoints' },
  render: (args) => html`<div style="max-width: ${args.width ?? '100%'}">
    <ops-overview
      api-base=${args.apiBase}
      view-all-href=${args.viewAllHref}
      theme=${ifDefined(args.theme)}
      time-zone="UTC"
      .clock=${() => fixtures.FIXTURE_NOW}
    ></ops-overview>
  </div>`,
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Loaded: Story = {};
export const Loading: Story = { args: { apiBase: scenario('hang') } };
export const Empty: Story = { args: { apiBase: scenario('empty') } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };

/** Only the /overview request fails: the figures show the error, the other panels still load. */
export const PartialFailure: Story = {
  // Only /overview is overridden: the endpoints and the activity answer from the fixtures as usual.
  beforeEach({ msw }) {
    msw.use(http.get('*/api/v1/overview', () => problem(503, 'Service Unavailable', 'Figures are being recomputed.')));
  },
};

export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
