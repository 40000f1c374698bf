import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement, type FrameArgs } from './support/element.ts';
import { loading } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-alert-rules',
  component: 'ops-alert-rules',
  args: { apiBase: '/api/v1', width: '56rem' },
  render: (args) => renderElement('ops-alert-rules', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

/** The mock's webhook channel and its rule on POST /webhooks's error rate, firing; the forms to add more. */
export const ChannelsAndRules: Story = {};
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };
