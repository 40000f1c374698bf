import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { delay, http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { createMockApi, fixtures } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { shadowWith } from './support/play.ts';
import { apiFailures, loading, patient } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  status?: string;
  sort?: string;
  limit?: number;
  newErrorHref?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

/** A mock API of its own, fresh for each story: other stories (the error form's) add records to the shared one. */
const OWN_BASE = '/api/error-list/v1';

const meta: Meta<Args> = {
  title: 'Elements/ops-error-list',
  component: 'ops-error-list',
  args: { apiBase: OWN_BASE, width: '60rem' },
  beforeEach({ msw }) {
    msw.use(...createMockApi({ base: OWN_BASE }).handlers);
  },
  render: (args) => renderElement('ops-error-list', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
/** Sets the first record's status to Fixed, as a person choosing it in the row would. */
const fixFirst = async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  const root = await shadowWith(canvasElement, 'ops-error-list', 'tbody select');
  const select = root.querySelector<HTMLSelectElement>('tbody select')!;
  select.value = 'Fixed';
  select.dispatchEvent(new Event('change'));
};
const answer = (items: unknown[]): Story => ({
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/errors', () => HttpResponse.json({ items, nextCursor: null })));
  },
});

export const AllRecords: Story = {};
export const OpenOnly: Story = { args: { status: 'Open' } };
/** Sorted by count, most first (the API sorts). */
export const MostFrequentFirst: Story = { args: { sort: '-count' } };
export const TwoPerPage: Story = { args: { limit: 2 } };
/** A status this version does not know yet: the record keeps it, shown as sent. */
export const UnknownStatus: Story = answer([{ ...fixtures.errorRecords[0], status: 'Snoozed' }, ...fixtures.errorRecords.slice(1)]);
/** A status change on its way: the row shows it at once, its control busy. */
export const Saving: Story = {
  decorators: [patient],
  beforeEach({ msw }) {
    msw.use(http.patch(`*${OWN_BASE}/errors/:id`, () => delay('infinite')));
  },
  play: fixFirst,
};
/** A status change the API refuses: the row goes back and says why. */
export const ChangeRefused: Story = {
  args: { apiBase: '/api/refuse/v1' },
  beforeEach({ msw }) {
    msw.use(
      http.get('*/api/refuse/v1/errors', () => HttpResponse.json({ items: fixtures.errorRecords, nextCursor: null })),
      http.patch('*/api/refuse/v1/errors/:id', () =>
        HttpResponse.json(
          { title: 'Forbidden', detail: 'Only owners can change records.' },
          { status: 403, headers: { 'Content-Type': 'application/problem+json' } },
        ),
      ),
    );
  },
  play: fixFirst,
};
export const Empty: Story = answer([]);
export const Loading: Story = loading<Args>();
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-error-list');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;
