import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import type { NavigateDetail } from '../src/shared/events.ts';
import { fixtures } from '../mocks/index.ts';

interface Args {
  apiBase: string;
  locale: string;
  timeZone: string;
}

/**
 * `<ops-console>` draws nothing itself: it gives every element inside it the console API's address,
 * the token, the drill-down routes, the locale and the time zone, set once. An element's own
 * attribute wins over the wrapper's.
 */
const meta: Meta<Args> = {
  title: 'Elements/ops-console',
  component: 'ops-console',
  args: { apiBase: '/api/v1', locale: 'en-US', timeZone: 'UTC' },
  argTypes: {
    locale: { control: 'inline-radio', options: ['en-US', 'en-GB', 'de-DE', 'ja-JP'] },
    timeZone: { control: 'select', options: ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'] },
  },
  render: (args) => html`<ops-console api-base=${args.apiBase} locale=${args.locale} time-zone=${args.timeZone}>
    <div style="display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr))">
      <ops-endpoint-table limit="5" hide-more></ops-endpoint-table>
      <ops-activity-feed limit="5" .clock=${() => fixtures.FIXTURE_NOW}></ops-activity-feed>
    </div>
  </ops-console>`,
};
export default meta;

type Story = StoryObj<Args>;

/** Two elements configured by one wrapper: neither sets api-base, locale or time zone. */
export const Wrapping: Story = {};
/** The wrapper's locale reaches both: `482.113` and German texts of numbers and dates. */
export const GermanLocale: Story = { args: { locale: 'de-DE', timeZone: 'Europe/Berlin' } };
/** Drill-down routes given once: each endpoint becomes a real link (`/ops/endpoints/ep_1`) that still fires `ops-navigate`. */
export const WithRoutes: Story = {
  render: (args) => html`<ops-console
    api-base=${args.apiBase}
    locale=${args.locale}
    time-zone=${args.timeZone}
    .routes=${{ endpoint: '/ops/endpoints/{id}' }}
    @ops-navigate=${(event: CustomEvent<NavigateDetail>) => event.preventDefault()}
  >
    <ops-endpoint-table limit="5" hide-more></ops-endpoint-table>
  </ops-console>`,
};
/** An element's own attribute wins: the second table reads another (failing) API while the first uses the wrapper's. */
export const ElementOverridesWrapper: Story = {
  render: (args) => html`<ops-console api-base=${args.apiBase} locale=${args.locale} time-zone=${args.timeZone}>
    <div style="display: grid; gap: 1rem">
      <ops-endpoint-table limit="3" hide-more></ops-endpoint-table>
      <ops-endpoint-table limit="3" hide-more api-base="/api/scenario/server-error/v1"></ops-endpoint-table>
    </div>
  </ops-console>`,
};
