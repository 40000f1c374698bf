import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { renderElement } from './support/element.ts';
import { fixtures, generateActivity } from '../mocks/index.ts';
import { apiFailures, forcedColours, keyboardFocus, lastPage, nextPage, loading } from './support/states.ts';

interface Args {
  apiBase: string;
  kind: string;
  limit: number;
  refreshInterval: number;
  theme?: 'light' | 'dark';
  locale?: string;
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-activity-feed',
  component: 'ops-activity-feed',
  args: { apiBase: '/api/v1', kind: '', limit: 10, refreshInterval: 0 },
  argTypes: {
    kind: { control: 'select', options: ['', 'rate-limit-raised', 'key-created', 'error-spike', 'docs-published', 'endpoint-deprecated'] },
  },
  render: (args) => renderElement('ops-activity-feed', { timeZone: 'UTC', clock: () => fixtures.FIXTURE_NOW, width: '40rem', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Loaded: Story = {};
export const FilteredByKind: Story = { args: { kind: 'error-spike' } };
export const Loading: Story = loading<Args>();
export const Empty: Story = { args: { apiBase: scenario('empty') } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };

/** A new item arrives on top every 3 seconds; nothing is duplicated. */
export const LiveRefresh: Story = {
  args: { apiBase: '/api/live/v1', refreshInterval: 3, limit: 5 },
  beforeEach({ msw }) {
    const started = Date.now();
    msw.use(
      http.get('*/api/live/v1/activity', () => {
        const arrivals = Math.floor((Date.now() - started) / 3000);
        const fresh = Array.from({ length: arrivals }, (_, i) => ({
          id: `act_live_${i}`,
          actor: { id: 'u_live', name: 'Noor Ali' },
          kind: 'key-created',
          text: `created key #${i + 1} for Globex Corp`,
          at: fixtures.FIXTURE_NOW.toISOString(),
        })).reverse();
        return HttpResponse.json({ items: [...fresh, ...generateActivity(fixtures.FIXTURE_NOW)].slice(0, 5), nextCursor: null });
      }),
    );
  },
};

export const LongText: Story = {
  args: { apiBase: '/api/long/v1' },
  beforeEach({ msw }) {
    msw.use(
      http.get('*/api/long/v1/activity', () =>
        HttpResponse.json({
          items: [
            { id: 'l', actor: { id: 'u', name: 'Maximiliana Orlova-Fitzgerald' }, kind: 'unknown-kind', text: 'wrote '.repeat(80), at: '2026-09-14T09:40:00Z' },
          ],
          nextCursor: null,
        }),
      ),
    );
  },
};

export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };

export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-activity-feed');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;

/** "Load more" pressed: the next page is on its way. */
export const LoadMoreBusy: Story = nextPage<Args>('ops-activity-feed', '/activity', 'busy');
/** "Load more" pressed: the next page failed; the items already shown stay, with Retry. */
export const LoadMoreFailed: Story = nextPage<Args>('ops-activity-feed', '/activity', 'failed');
/** Every page loaded (45 items): no "Load more" left. */
export const LastPage: Story = { args: { limit: 40 }, ...lastPage<Args>('ops-activity-feed') };
export const KeyboardFocus: Story = keyboardFocus<Args>('ops-activity-feed', '.chip[aria-pressed="false"]');
export const ForcedColours: Story = forcedColours;

/** A kind with nothing in it: the empty state says so for that kind. */
export const FilteredEmpty: Story = {
  args: { apiBase: '/api/quiet/v1', kind: 'docs-published' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/quiet/v1/activity', () => HttpResponse.json({ items: [], nextCursor: null })));
  },
};
