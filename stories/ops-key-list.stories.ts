import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  q?: string;
  status?: string;
  customerId?: string;
  sort?: string;
  limit?: number;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-key-list',
  component: 'ops-key-list',
  args: { apiBase: '/api/v1', width: '64rem' },
  render: (args) => renderElement('ops-key-list', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
const answer = (items: unknown[]): Story => ({
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/keys', () => HttpResponse.json({ items, nextCursor: null })));
  },
});

/** Busiest first: registered keys, the revoked one still called, and the ones only the traffic names. */
export const BusiestFirst: Story = {};
/** The keys in use in the last 30 days: where the overview's "Active keys" leads. */
export const Active: Story = { args: { status: 'Active' } };
export const Revoked: Story = { args: { status: 'Revoked' } };
export const Unregistered: Story = { args: { status: 'Unregistered' } };
/** One customer's keys, as its page lists them. */
export const OneCustomer: Story = { args: { customerId: 'cus_initech', sort: 'name' } };
export const NoMatch: Story = { args: { q: 'nobody' } };
/** A status this version does not know yet, shown as sent in a neutral badge; a long name wraps. */
export const UnknownStatus: Story = answer([
  {
    id: 'key_live_7f3a9c0d81b4e657a1c2',
    name: 'Nightly reconciliation worker for the accounting export',
    customer: { id: 'cus_acme', name: 'Acme Ltd' },
    createdAt: '2026-05-02T08:00:00Z',
    revokedAt: null,
    lastUsedAt: '2026-09-14T09:30:00Z',
    requests: 1200,
    errorPct: 0.3,
    p95Ms: 140,
    throttled: 0,
    status: 'Suspended',
  },
]);
export const Empty: Story = answer([]);
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-key-list');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
