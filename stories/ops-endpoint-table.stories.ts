import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../mocks/index.ts';
// Types `beforeEach({ msw })` of the stories below.
import type {} from 'msw-storybook-addon/csf3';
import { renderElement } from './support/element.ts';
import { apiFailures, forcedColours, keyboardFocus, lastPage, nextPage, loading } from './support/states.ts';

interface Args {
  apiBase: string;
  status: string;
  sort: string;
  limit: number;
  hideFilter: boolean;
  theme?: 'light' | 'dark';
  locale?: string;
  width?: string;
}

const meta: Meta<Args> = {
  title: 'Elements/ops-endpoint-table',
  component: 'ops-endpoint-table',
  args: { apiBase: '/api/v1', status: '', sort: '', limit: 50, hideFilter: false },
  argTypes: {
    status: { control: 'select', options: ['', 'Healthy', 'Failing', 'Slow'] },
    sort: { control: 'select', options: ['', 'requests', '-requests', 'p95Ms', '-p95Ms', 'errorPct', '-errorPct', 'recent'] },
  },
  render: (args) => renderElement('ops-endpoint-table', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;

const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Loaded: Story = {};

export const RecentEndpoints: Story = { args: { limit: 5, sort: 'recent', hideFilter: true } };

export const Loading: Story = loading<Args>();

export const Empty: Story = { args: { apiBase: scenario('empty') } };

export const ServerError: Story = { args: { apiBase: scenario('server-error') } };

export const SignedOut: Story = { args: { apiBase: scenario('unauthorized') } };

export const HtmlInsteadOfJson: Story = { args: { apiBase: scenario('html-instead-of-json') } };

export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };

export const NetworkError: Story = { args: { apiBase: scenario('network-error') } };

/** Rows that share method and path stay separate, each with its own figures. */
export const Duplicates: Story = {
  args: { apiBase: '/api/duplicates/v1' },
  beforeEach({ msw }) {
    const usage = fixtures.endpoints.filter((e) => e.path === '/usage' || e.path === '/messages');
    msw.use(http.get('*/api/duplicates/v1/endpoints', () => HttpResponse.json({ items: usage, nextCursor: null })));
  },
};

/** Unknown status values and markup in strings render as neutral text. */
export const UnknownValuesAndMarkup: Story = {
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(
      http.get('*/api/odd/v1/endpoints', () =>
        HttpResponse.json({
          items: [
            { id: 'a', method: 'PURGE', path: '/cache', requests: 12, p95Ms: 4, errorPct: 0, status: 'Degraded' },
            { id: 'b', method: 'GET', path: '/<img src=x onerror=alert(1)>', requests: 3, p95Ms: 9, errorPct: 100, status: '<b>x</b>' },
            { id: 'c', method: 'GET', path: `/${'very-long-segment/'.repeat(12)}end`, requests: 1, p95Ms: 1, errorPct: 0, status: 'Healthy' },
          ],
          nextCursor: null,
        }),
      ),
    );
  },
};

export const LongList: Story = { args: { apiBase: scenario('large'), limit: 100 } };

export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };

export const Narrow: Story = { args: { width: '320px' } };

/** A filter nothing matches: the empty state names the filter. */
export const FilteredEmpty: Story = {
  args: { apiBase: '/api/odd/v1', status: 'Slow' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/endpoints', () => HttpResponse.json({ items: [], nextCursor: null })));
  },
};
/** Sorted by error rate, worst first (the header shows the order). */
export const SortedByErrors: Story = { args: { sort: '-errorPct' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-endpoint-table');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;

/** "Load more" pressed: the next page is on its way. */
export const LoadMoreBusy: Story = { args: { limit: 5 }, ...nextPage<Args>('ops-endpoint-table', '/endpoints', 'busy') };
/** "Load more" pressed: the next page failed; the rows already shown stay, with Retry. */
export const LoadMoreFailed: Story = { args: { limit: 5 }, ...nextPage<Args>('ops-endpoint-table', '/endpoints', 'failed') };
/** Every page loaded: no "Load more" left. */
export const LastPage: Story = { args: { limit: 5 }, ...lastPage<Args>('ops-endpoint-table') };
export const KeyboardFocus: Story = keyboardFocus<Args>('ops-endpoint-table', '.row-link');
export const ForcedColours: Story = forcedColours;
