import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { renderElement } from './support/element.ts';
import { fixtures, problem } from '../mocks/index.ts';
import { apiFailures, forcedColours, keyboardFocus, loading } from './support/states.ts';

interface Args {
  apiBase: string;
  viewAllHref: string;
  range?: string;
  theme?: 'light' | 'dark';
  locale?: string;
  clock?: () => Date;
  width?: string;
  audience?: 'operator' | 'customer';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-overview',
  component: 'ops-overview',
  args: { apiBase: '/api/v1', viewAllHref: '#endpoints' },
  render: (args) => renderElement('ops-overview', { timeZone: 'UTC', clock: () => fixtures.FIXTURE_NOW, ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;

export const Loaded: Story = {};
/** The last 24 hours: the range's requests hour by hour, each figure against the 24 hours before. */
export const LastTwentyFourHours: Story = { args: { range: '24h' } };
export const Loading: Story = loading<Args>();
export const Empty: Story = { args: { apiBase: scenario('empty') } };
export const ServerError: Story = { args: { apiBase: scenario('server-error') } };
export const MalformedData: Story = { args: { apiBase: scenario('malformed') } };

/** Only the /overview request fails: the figures show the error, the other panels still load. */
export const PartialFailure: Story = {
  // Only /overview is overridden: the endpoints and the activity answer from the fixtures as usual.
  beforeEach({ msw }) {
    msw.use(http.get('*/api/v1/overview', () => problem(503, 'Service Unavailable', 'Figures are being recomputed.')));
  },
};

/** What one of the API's customers sees in its own portal (`audience="customer"`): its figures, worded for it, without the activity feed. */
export const ForACustomer: Story = {
  args: { audience: 'customer' },
  // Under a customer's token the API names the customer as the overview's owner.
  beforeEach({ msw }) {
    msw.use(http.get('*/api/v1/overview', () => HttpResponse.json({ ...fixtures.overview, owner: { id: 'cus_acme', name: 'Acme Ltd' } })));
  },
};
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };

export const SignedOut: Story = { args: { apiBase: scenario('unauthorized') } };
/** The greeting follows the hour in the panel's time zone. */
export const Afternoon: Story = { args: { clock: () => new Date('2026-09-14T14:30:00Z') } };
export const Evening: Story = { args: { clock: () => new Date('2026-09-14T20:30:00Z') } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
// Timed out, every part has failed: one message, the panels hidden.
const failures = apiFailures<Args>('ops-overview', '[part="panel"][hidden]');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;

/** A bad month: requests down, errors and latency up, fewer active keys. */
export const MostlyNegative: Story = {
  // Only /overview is overridden, as in PartialFailure.
  beforeEach({ msw }) {
    const { figures } = fixtures.overview;
    msw.use(
      http.get('*/api/v1/overview', () =>
        HttpResponse.json({
          ...fixtures.overview,
          figures: {
            ...figures,
            requestsToday: { ...figures.requestsToday, changePct: -18.4 },
            errorRate: { ...figures.errorRate, valuePct: 4.8, changePct: 3.6 },
            p95Latency: { ...figures.p95Latency, valueMs: 412, changePct: 126.4 },
            activeKeys: { ...figures.activeKeys, changePct: -2.1 },
          },
        }),
      ),
    );
  },
};
export const KeyboardFocus: Story = keyboardFocus<Args>('ops-overview', 'a[href]');
export const ForcedColours: Story = forcedColours;
