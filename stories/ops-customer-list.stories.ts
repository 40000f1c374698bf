import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { fixtures } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  q?: string;
  sort?: string;
  limit?: number;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-customer-list',
  component: 'ops-customer-list',
  args: { apiBase: '/api/v1', width: '60rem' },
  render: (args) => renderElement('ops-customer-list', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
const answer = (items: unknown[]): Story => ({
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/customers', () => HttpResponse.json({ items, nextCursor: null })));
  },
});

export const ByName: Story = {};
/** Sorted by recent requests, most first (the API sorts). */
export const BusiestFirst: Story = { args: { sort: '-requests' } };
/** A search that matches one customer. */
export const Searched: Story = { args: { q: 'glob' } };
export const NoMatch: Story = { args: { q: 'Wayne' } };
export const TwoPerPage: Story = { args: { limit: 2 } };
/** A status this version does not know yet, shown as sent in a neutral badge; a long name wraps. */
export const UnknownStatus: Story = answer([{ ...fixtures.customers[0], status: 'Paused', name: 'Acme Logistics and Freight Forwarding International Ltd' }]);
export const Empty: Story = answer([]);
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-customer-list');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
