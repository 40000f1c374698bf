import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { createMockApi, fixtures } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  endpointId: string;
  endpointsHref?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

/** A mock API of its own, fresh for each story: the error form's stories add POST /webhooks records to the shared one. */
const OWN_BASE = '/api/endpoint-detail/v1';

const meta: Meta<Args> = {
  title: 'Elements/ops-endpoint-detail',
  component: 'ops-endpoint-detail',
  args: { apiBase: OWN_BASE, endpointId: 'ep_4', width: '60rem' },
  beforeEach({ msw }) {
    msw.use(...createMockApi({ base: OWN_BASE }).handlers);
  },
  render: (args) => renderElement('ops-endpoint-detail', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

/** POST /webhooks failing: 6.8 % server errors, its open error record and its latest requests. */
export const Failing: Story = {};
/** A healthy endpoint under API version v3. */
export const Healthy: Story = { args: { endpointId: 'ep_2' } };
/** A deprecated endpoint: the badge and its sunset beside the status, and what replaces it among the facts. */
export const Deprecated: Story = { args: { endpointId: 'ep_3' } };
/** A row of a version nobody called in the last 30 days: no codes, no customers, flat charts. */
export const Quiet: Story = {
  args: { apiBase: '/api/odd/v1', endpointId: 'ep_3' },
  beforeEach({ msw }) {
    const row = fixtures.endpoints.find((e) => e.id === 'ep_3')!;
    // The 30 days up to the fixtures' 14 Sep 2026.
    const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 7, 16 + i)).toISOString().slice(0, 10));
    const zeros = days.map(() => 0);
    msw.use(
      http.get('*/api/odd/v1/endpoints/:id', () =>
        HttpResponse.json({
          ...row,
          requests: 0,
          errorPct: 0,
          daily: { days, requests: zeros, errors: zeros, p95Ms: days.map(() => null) },
          statusCodes: [],
          topCustomers: [],
        }),
      ),
      http.get('*/api/odd/v1/errors', () => HttpResponse.json({ items: [], nextCursor: null })),
      http.get('*/api/odd/v1/requests', () => HttpResponse.json({ items: [], nextCursor: null })),
    );
  },
};
export const Loading: Story = loading<Args>();
export const NotFound: Story = { args: { apiBase: scenario('not-found'), endpointId: 'ep_missing' } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-endpoint-detail');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
