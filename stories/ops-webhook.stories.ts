import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { fixtures } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  webhookId: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-webhook',
  component: 'ops-webhook',
  args: { apiBase: '/api/v1', webhookId: 'wh_invoice_paid', width: '60rem' },
  render: (args) => renderElement('ops-webhook', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
const odd = (change: Record<string, unknown>): Story => ({
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/webhooks/:id', () => HttpResponse.json({ ...fixtures.webhooks[0], ...change })));
  },
});

export const InvoicePaid: Story = {};
/** A status this version does not know yet: shown as sent, in a neutral badge. */
export const UnknownStatus: Story = odd({ status: 'Paused' });
/** A webhook that sent nothing all year: the chart says so instead of drawing a flat line. */
export const NoActivity: Story = odd({ activity: { ...fixtures.webhooks[0]!.activity, values: fixtures.webhooks[0]!.activity.values.map(() => 0) } });
export const Loading: Story = loading<Args>();
export const NotFound: Story = { args: { apiBase: scenario('not-found'), webhookId: 'wh_missing' } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-webhook');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
