import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { delay, http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { problem } from '../mocks/index.ts';
import { renderElement, type FrameArgs } from './support/element.ts';
import { fill, press, shadowWith } from './support/play.ts';
import { apiFailures, forcedColours, keyboardFocus, loading, patient } from './support/states.ts';

interface Args extends FrameArgs {
  apiBase: string;
  errorsHref?: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/ops-error-form',
  component: 'ops-error-form',
  args: { apiBase: '/api/v1', width: '60rem' },
  render: (args) => renderElement('ops-error-form', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;
const scenario = (name: string) => `/api/scenario/${name}/v1`;
const form = (canvasElement: HTMLElement) => shadowWith(canvasElement, 'ops-error-form', 'form');
/** A complete, valid entry, then "Save error". */
const saveValid = async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  const root = await form(canvasElement);
  await fill(root, { code: '500', endpoint: 'POST /webhooks', count: '12', firstSeen: '2026-09-10' });
  press(root, 'button[type="submit"]');
};

export const Empty: Story = {};
/** "Save error" pressed on an empty form: messages by each field, focus on the first. */
export const WithErrors: Story = {
  async play({ canvasElement }) {
    press(await form(canvasElement), 'button[type="submit"]');
  },
};
/** A valid form on its way: the button says "Saving…" and cannot be pressed again. */
export const Saving: Story = {
  decorators: [patient],
  beforeEach({ msw }) {
    msw.use(http.post('*/api/v1/errors', () => delay('infinite')));
  },
  play: saveValid,
};
/** Saved: the confirmation names the new record and links to it. */
export const Saved: Story = { play: saveValid };
/** The server refuses a field (422): its message lands on that field. */
export const ServerRefusesAField: Story = {
  beforeEach({ msw }) {
    msw.use(
      http.post('*/api/v1/errors', () =>
        problem(422, 'Invalid error record', 'Some fields were not accepted.', [{ field: 'endpoint', message: 'This endpoint was retired last week.' }]),
      ),
    );
  },
  play: saveValid,
};
/** The connection drops as it saves: the reason, and every entry still in its field. */
export const NetworkFailure: Story = {
  beforeEach({ msw }) {
    msw.use(http.post('*/api/v1/errors', () => HttpResponse.error()));
  },
  play: saveValid,
};
/** Cancel after typing: the form asks before discarding. */
export const DiscardConfirmation: Story = {
  async play({ canvasElement }) {
    const root = await form(canvasElement);
    await fill(root, { count: '12' });
    press(root, '[part="actions"] button[type="button"]');
  },
};
export const OptionsLoading: Story = loading<Args>();
export const OptionsFail: Story = { args: { apiBase: scenario('server-error') } };
/** No endpoints to choose from yet: the select offers only its prompt. */
export const NoEndpointOptions: Story = {
  args: { apiBase: '/api/odd/v1' },
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/errors/options', () => HttpResponse.json({ endpoints: [] })));
  },
};
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
export const Narrow: Story = { args: { width: '320px' } };
export const German: Story = { args: { locale: 'de' } };
export const Japanese: Story = { args: { locale: 'ja' } };

// The API slow, timing out, answering a proxy's HTML 502, or out of reach.
const failures = apiFailures<Args>('ops-error-form');
export const Slow: Story = failures.slow;
export const TimedOut: Story = failures.timedOut;
export const BadGateway: Story = failures.badGateway;
export const NetworkError: Story = failures.networkError;

export const KeyboardFocus: Story = keyboardFocus<Args>('ops-error-form', '#code');
export const ForcedColours: Story = forcedColours;
