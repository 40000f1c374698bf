import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  state?: '' | 'firing' | 'resolved';
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-alerts',
  component: 'ops-alerts',
  args: { apiBase: '/api/v1', width: '60rem' },
  render: (args) => renderElement('ops-alerts', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

/** The mock's alerts: POST /webhooks's error rate firing now, and the same rule's alert of yesterday, resolved. */
export const FiringAndResolved: Story = {};
export const OnlyFiring: Story = { args: { state: 'firing' } };
/** Nothing firing: the empty state says so. */
export const NothingFiring: Story = {
  args: { apiBase: '/api/quiet/v1', state: 'firing' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/quiet/v1/alerts', () => HttpResponse.json({ items: [], nextCursor: null })));
  },
};
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

const failures = apiFailures<Args>('ops-alerts');
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
