import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement } from './support/element.ts';

interface Args {
  apiBase: string;
  range?: string;
  from?: string;
  to?: string;
  theme?: 'light' | 'dark';
  locale?: string;
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-time-range',
  component: 'ops-time-range',
  args: { apiBase: '/api/v1' },
  render: (args) => renderElement('ops-time-range', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;

/** Nothing chosen: each panel shows its default period (this month, 12 months, 30 days). */
export const Default: Story = {};
export const LastTwentyFourHours: Story = { args: { range: '24h' } };
/** A custom range, shown in the configured time zone, with Apply. */
export const Custom: Story = { args: { from: '2026-09-14T08:00:00Z', to: '2026-09-14T10:00:00Z' } };
export const Dark: Story = { args: { range: '7d', theme: 'dark' }, globals: { theme: 'dark' } };
export const German: Story = { args: { range: '7d', locale: 'de' } };
export const Japanese: Story = { args: { from: '2026-09-14T08:00:00Z', to: '2026-09-14T10:00:00Z', locale: 'ja' } };
