import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement, type FrameArgs } from './support/element.ts';
import { apiFailures, loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  sloId: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-slo',
  component: 'ops-slo',
  args: { apiBase: '/api/v1', sloId: 'slo_availability', width: '48rem' },
  render: (args) => renderElement('ops-slo', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

/** The API's availability over 28 days: most of the budget spent by the last days' webhook failures, and burning. */
export const Burning: Story = {};
export const NotFound: Story = { args: { sloId: 'slo_nope' } };
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

const failures = apiFailures<Args>('ops-slo');
export const TimedOut: Story = failures.timedOut;
