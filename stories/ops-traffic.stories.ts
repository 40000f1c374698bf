import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { renderElement } from './support/element.ts';
import { fixtures } from '../mocks/index.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args {
  apiBase: string;
  range?: string;
  theme?: 'light' | 'dark';
  locale?: string;
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-traffic',
  component: 'ops-traffic',
  args: { apiBase: '/api/v1' },
  render: (args) => renderElement('ops-traffic', { timeZone: 'UTC', ...args }),
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

/** The last 7 days, day by day against the 7 days before; each day leads to its requests. */
export const LastSevenDays: Story = { args: { range: '7d' } };

export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };

/** A new API with no traffic yet: zeros, empty charts, no breakdown. */
export const Empty: Story = { args: { apiBase: scenario('empty') } };
export const SignedOut: Story = { args: { apiBase: scenario('unauthorized') } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-traffic');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
