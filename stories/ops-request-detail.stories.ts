import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  requestId: string;
  requestsHref?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

/** The seed's line in the mocks: POST /webhooks answering 500 in 1,240 ms at 09:41. */
const SEED_REQUEST = 'rq_59645962';

const meta: Meta<Args> = {
  title: 'Elements/ops-request-detail',
  component: 'ops-request-detail',
  args: { apiBase: '/api/v1', requestId: SEED_REQUEST, width: '60rem' },
  render: (args) => renderElement('ops-request-detail', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
const answer = (body: Record<string, unknown>): Story => ({
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/requests/:id', () => HttpResponse.json(body)));
  },
});

/** A failed call with everything the collector keeps: route, version, key, customer, size, and both sides' headers and bodies (secrets masked). */
export const FailedCall: Story = {};
/** From a backend that records only the log's line: what is missing says `—`, and no headers were kept. */
export const OnlyTheLogLine: Story = answer({
  id: 'rq_1',
  method: 'GET',
  path: '/usage',
  status: 200,
  durationMs: 8,
  actor: { id: 'anonymous', name: 'Anonymous' },
  time: '2026-09-14T09:40:00Z',
});
/** A long path and long header values wrap inside the panel instead of widening it. */
export const LongValues: Story = answer({
  id: 'rq_2',
  method: 'PATCH',
  path: '/contacts/c_7f3a9d2e41b84c0f9a1e6d5b3c2a1f0e/preferences/notifications/channels/email',
  route: '/contacts/{id}/preferences/notifications/channels/{channel}',
  status: 422,
  durationMs: 64,
  actor: { id: 'u_mia', name: 'Mia Chen' },
  time: '2026-09-14T09:39:30Z',
  apiVersion: 'v2',
  keyId: 'key_live_acme_0',
  customer: { id: 'cus_acme', name: 'Acme Ltd' },
  bytes: 1_204_113,
  headers: [
    {
      name: 'user-agent',
      value: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 acme-portal/7.2.0-beta.14',
    },
    { name: 'x-request-id', value: '0b8c5f0e-3d8e-4d6c-9a7b-2f1e5d4c3b2a0b8c5f0e3d8e4d6c9a7b' },
  ],
});
const base = {
  id: 'rq_3',
  method: 'POST',
  path: '/orders',
  route: '/orders',
  status: 502,
  durationMs: 30_012,
  actor: { id: 'u_mia', name: 'Mia Chen' },
  time: '2026-09-14T09:38:00Z',
};
/** Bodies as hostile input: markup, a script and broken UTF-8 shown as text, JSON too deep for a tree, and a body the server cut. */
export const HostileBodies: Story = answer({
  ...base,
  headers: [{ name: 'authorization', value: '[masked]' }],
  requestBody: { contentType: 'application/json', size: 20_000, truncated: false, text: `${'['.repeat(200)}${']'.repeat(200)}` },
  responseBody: { contentType: 'text/html', size: 1_200_000, truncated: true, text: '<script>alert(1)</script><h1>Bad gateway</h1>\ufffd\ufffd [masked]' },
  payload: 'kept',
});
/** Headers and bodies past their retention, or erased: the request stays, its payload says so. */
export const PayloadNoLongerKept: Story = answer({ ...base, headers: null, payload: 'removed' });
export const Loading: Story = loading<Args>();
export const NotFound: Story = { args: { apiBase: scenario('not-found'), requestId: 'rq_missing' } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-request-detail');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
