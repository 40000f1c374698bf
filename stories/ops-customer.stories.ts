import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { delay, http } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { problem } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { fill, press, shadowWith } from './support/play.ts';
import { apiFailures, loading, patient } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  customerId: string;
  customersHref?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-customer',
  component: 'ops-customer',
  args: { apiBase: '/api/v1', customerId: 'cus_acme', width: '60rem' },
  render: (args) => renderElement('ops-customer', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
const notes = async (canvasElement: HTMLElement) => shadowWith(canvasElement, 'ops-customer', 'textarea');

export const FreePlan: Story = {};
export const WithoutNotes: Story = { args: { customerId: 'cus_globex' } };
/** A customer held to no rate limit: its busiest minute without a share of one. */
export const WithoutRateLimit: Story = { args: { customerId: 'cus_initech' } };
/** With a customers page, "Customers" in the breadcrumb is a link. */
export const WithCustomersPage: Story = { args: { customersHref: '#customers' } };
/** "Add note" pressed with nothing typed: the message under the field, focus in it. */
export const NoteValidation: Story = {
  args: { customerId: 'cus_globex' },
  async play({ canvasElement }) {
    press(await notes(canvasElement), '.note-form button[type="submit"]');
  },
};
/** A note on its way: the button says "Adding…". */
export const NoteAdding: Story = {
  args: { customerId: 'cus_globex' },
  decorators: [patient],
  beforeEach({ msw }) {
    msw.use(http.post('*/api/v1/customers/:id/notes', () => delay('infinite')));
  },
  async play({ canvasElement }) {
    const root = await notes(canvasElement);
    await fill(root, { 'note-text': 'Called about the renewal; will upgrade next month.' });
    press(root, '.note-form button[type="submit"]');
  },
};
/** The note added: first in the list, and "Note added" in the history. */
export const NoteAdded: Story = {
  args: { customerId: 'cus_globex' },
  async play({ canvasElement }) {
    const root = await notes(canvasElement);
    await fill(root, { 'note-text': 'Called about the renewal; will upgrade next month.' });
    press(root, '.note-form button[type="submit"]');
  },
};
/** A note typed and sent while the server refuses notes: the reason shows, the text stays in the field. */
export const NoteFails: Story = {
  args: { customerId: 'cus_globex' },
  beforeEach({ msw }) {
    msw.use(http.post('*/api/v1/customers/:id/notes', () => problem(503, 'Service Unavailable', 'Notes are read-only during maintenance.')));
  },
  async play({ canvasElement }) {
    const root = await notes(canvasElement);
    await fill(root, { 'note-text': 'Called about the renewal; will upgrade next month.' });
    press(root, '.note-form button[type="submit"]');
  },
};
export const Loading: Story = loading<Args>();
export const NotFound: Story = { args: { apiBase: scenario('not-found'), customerId: 'cus_missing' } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-customer');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
