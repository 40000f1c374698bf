import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { delay, http } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { problem } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { fill, press, shadowWith } from './support/play.ts';
import { apiFailures, loading, patient } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  errorId: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-error',
  component: 'ops-error',
  args: { apiBase: '/api/v1', errorId: 'err_500_webhooks', width: '60rem' },
  render: (args) => renderElement('ops-error', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
/** Sets the status to Fixed and presses "Save changes". */
const fixIt = async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  const root = await shadowWith(canvasElement, 'ops-error', 'select[name="status"]');
  await fill(root, { status: 'Fixed' });
  press(root, '[part="edit"] button[type="submit"]');
};

export const Open: Story = {};
export const Fixed: Story = { args: { errorId: 'err_401_messages' } };
export const Ignored: Story = { args: { errorId: 'err_400_contacts' } };
/** A change on its way: the badge shows the new status at once and the button says "Saving…". */
export const Saving: Story = {
  decorators: [patient],
  beforeEach({ msw }) {
    msw.use(http.patch('*/api/v1/errors/:id', () => delay('infinite')));
  },
  play: fixIt,
};
/** The change saved: the badge and the form show the record as the server has it. */
export const Saved: Story = { play: fixIt };
/** A status change the server refuses: the badge goes back, with the reason. */
export const ChangeRefused: Story = {
  args: { errorId: 'err_429_messages' },
  beforeEach({ msw }) {
    msw.use(http.patch('*/api/v1/errors/:id', () => problem(409, 'Conflict', 'Someone else changed this record.')));
  },
  play: fixIt,
};
export const Loading: Story = loading<Args>();
export const NotFound: Story = { args: { apiBase: scenario('not-found'), errorId: 'err_missing' } };
export const Malformed: Story = { args: { apiBase: scenario('malformed') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-error');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
