import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { fixtures } from '../mocks/index.ts';

interface Args {
  apiBase: string;
  theme?: 'light' | 'dark';
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-traffic',
  component: 'ops-traffic',
  args: { apiBase: '/api/v1' },
  render: (args) => html`<div style="max-width: ${args.width ?? '100%'}">
    <ops-traffic api-base=${args.apiBase} theme=${ifDefined(args.theme)}></ops-traffic>
  </div>`,
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Loaded: Story = {};

/** Every unit the contract allows: a currency on Requests and Latency as in the seed, bytes on Bandwidth. */
export const Units: Story = {
  args: { apiBase: '/api/units/v1' },
  beforeEach({ msw }) {
    const body = structuredClone(fixtures.traffic);
    body.metrics.requests = { value: 1284301, unit: 'USD', changePct: 12.5 };
    body.metrics.latency = { value: 182, unit: 'USD', changePct: 3.1 };
    body.metrics.bandwidth = { value: 1_536_000_000, unit: 'bytes', changePct: 2.2 };
    msw.use(http.get('*/api/units/v1/traffic', () => HttpResponse.json(body)));
  },
};

export const Loading: Story = { args: { apiBase: scenario('hang') } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
