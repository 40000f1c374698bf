import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  range?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-versions',
  component: 'ops-versions',
  args: { apiBase: '/api/v1', width: '48rem' },
  render: (args) => renderElement('ops-versions', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

/** The last 30 days by day: two versions, requests that named none, a published version nobody calls yet, and two deprecated endpoints with who still calls them. */
export const LastThirtyDays: Story = {};
export const LastDay: Story = { args: { range: '24h' } };
/** The last hour: of the callers of DELETE /contacts, only those who called in it. */
export const LastHour: Story = { args: { range: '1h' } };
export const Empty: Story = { args: { apiBase: scenario('empty') } };
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-versions');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
