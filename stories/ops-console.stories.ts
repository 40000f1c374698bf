import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { delay } from 'msw';
import type { NavigateDetail } from '../src/shared/events.ts';
import { createMockApi, fixtures } from '../mocks/index.ts';

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

/** The routed console's own mock API, fresh for each story (other stories write to the shared one). */
const CONSOLE_BASE = '/api/console-story/v1';
/** Waits until the routed console shows its view with `ready` inside, as a person waits for the page. */
async function viewShown(canvasElement: HTMLElement, ready: string): Promise<void> {
  const shown = () => {
    const app = canvasElement.querySelector('ops-console')?.shadowRoot?.querySelector('ops-console-app')?.shadowRoot;
    return app?.querySelector(ready) ?? app?.querySelector('.view > *')?.shadowRoot?.querySelector(ready);
  };
  for (let i = 0; i < 200 && !shown(); i++) await delay(50);
}

const routed = (hash: string, ready: string, audience?: 'customer'): Story => ({
  play: ({ canvasElement }) => viewShown(canvasElement, ready),
  beforeEach({ msw }) {
    msw.use(...createMockApi({ base: CONSOLE_BASE }).handlers);
    // Where the console opens: the address a person followed.
    history.replaceState(null, '', hash);
  },
  render: (args) =>
    html`<ops-console routing="hash" api-base=${CONSOLE_BASE} locale=${args.locale} time-zone=${args.timeZone} audience=${ifDefined(audience)}></ops-console>`,
});

/**
 * The whole console in one tag, `<ops-console routing="hash">`, over the mocks: a navigation and
 * every view on its own address; click through and use the browser's back button. Not in the
 * visual baselines: the overview greets by the time of day, which the pictures cannot pin.
 */
export const Console: Story = { ...routed('#/', '[part="figure"]'), parameters: { visual: { skip: true } } };
/** The routed console opened on a deep link: an endpoint's page, with Endpoints marked in the navigation. */
export const ConsoleEndpointPage: Story = routed('#/endpoints/ep_4', '[part="status-codes"]');
/** The routed console on an address it has no page for. */
export const ConsoleUnknownAddress: Story = routed('#/nowhere', '.not-found');
/** The routed console with a time range in its address: the traffic of the last 24 hours, hour by hour, and the range control showing it. */
export const ConsoleTrafficLast24Hours: Story = routed('#/traffic?range=24h', '[part="metric"]');
/**
 * A customer's console (`audience="customer"`, read with an embed session's token): only its
 * pages in the navigation, and a webhook's page without its customer or account owner.
 */
export const ConsoleForACustomer: Story = routed('#/webhooks/wh_invoice_paid', '.facts', 'customer');
