import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  keyId: string;
  range?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-key',
  component: 'ops-key',
  args: { apiBase: '/api/v1', keyId: 'key_live_acme_0', width: '60rem' },
  render: (args) => renderElement('ops-key', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Production: Story = {};
/** Revoked on 11 Sep and still called: the requests after revocation flagged. */
export const RevokedStillCalled: Story = { args: { keyId: 'key_live_initech_2' } };
/** Seen in traffic, never registered: no name, customer or creation. */
export const Unregistered: Story = { args: { keyId: 'key_live_hooli_0' } };
/** Registered, last used in July: no requests in the range. */
export const Idle: Story = { args: { keyId: 'key_live_acme_old' } };
export const LastDay: Story = { args: { range: '24h' } };
export const Loading: Story = loading<Args>();
export const NotFound: Story = { args: { apiBase: scenario('not-found'), keyId: 'key_missing' } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-key');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
