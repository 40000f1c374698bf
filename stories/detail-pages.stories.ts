import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { delay, http, HttpResponse } from 'msw';
import type {} from 'msw-storybook-addon/csf3';
import { fixtures, problem } from '../mocks/index.ts';

interface Args {
  apiBase: string;
  theme?: 'light' | 'dark';
  width?: string;
}

const scenario = (name: string) => `/api/scenario/${name}/v1`;
const frame = (args: Args, content: unknown) => html`<div style="max-width: ${args.width ?? '60rem'}">${content}</div>`;

export default {
  title: 'Elements/Detail pages',
  args: { apiBase: '/api/v1' },
} satisfies Meta<Args>;

type Story = StoryObj<Args>;

/** The shadow root of `tag` in the story, once it holds `selector` (the data has loaded). */
async function shadowWith(canvasElement: HTMLElement, tag: string, selector: string): Promise<ShadowRoot> {
  const el = canvasElement.querySelector(tag)!;
  for (let i = 0; i < 100 && !el.shadowRoot?.querySelector(selector); i++) await delay(50);
  return el.shadowRoot!;
}

// ops-customer
const customer =
  (id: string): Story['render'] =>
  (args) =>
    frame(args, html`<ops-customer api-base=${args.apiBase} customer-id=${id} theme=${ifDefined(args.theme)}></ops-customer>`);
export const CustomerFreePlan: Story = { render: customer('cus_acme') };
export const CustomerWithoutNotes: Story = { render: customer('cus_globex') };
/** A note typed and sent while the server refuses notes: the reason shows, the text stays in the field. */
export const CustomerNoteFails: Story = {
  render: customer('cus_globex'),
  beforeEach({ msw }) {
    msw.use(http.post('*/api/v1/customers/:id/notes', () => problem(503, 'Service Unavailable', 'Notes are read-only during maintenance.')));
  },
  async play({ canvasElement }) {
    const root = await shadowWith(canvasElement, 'ops-customer', 'textarea');
    const textarea = root.querySelector('textarea')!;
    textarea.value = 'Called about the renewal; will upgrade next month.';
    textarea.dispatchEvent(new Event('input'));
    await delay(50);
    root.querySelector<HTMLButtonElement>('.note-form button[type="submit"]')!.click();
  },
};
export const CustomerLoading: Story = { args: { apiBase: scenario('hang') }, render: customer('cus_acme') };
export const CustomerNotFound: Story = { args: { apiBase: scenario('not-found') }, render: customer('cus_missing') };
export const CustomerDark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' }, render: customer('cus_acme') };
export const CustomerNarrow: Story = { args: { width: '320px' }, render: customer('cus_acme') };

// ops-webhook
const webhook: Story['render'] = (args) =>
  frame(args, html`<ops-webhook api-base=${args.apiBase} webhook-id="wh_invoice_paid" theme=${ifDefined(args.theme)}></ops-webhook>`);
export const WebhookInvoicePaid: Story = { render: webhook };
export const WebhookUnknownStatus: Story = {
  args: { apiBase: '/api/odd/v1' },
  render: webhook,
  beforeEach({ msw }) {
    msw.use(http.get('*/api/odd/v1/webhooks/:id', () => HttpResponse.json({ ...fixtures.webhooks[0], status: 'Paused' })));
  },
};
export const WebhookLoading: Story = { args: { apiBase: scenario('hang') }, render: webhook };
export const WebhookError: Story = { args: { apiBase: scenario('server-error') }, render: webhook };
export const WebhookDark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' }, render: webhook };

// ops-error
const errorPage =
  (id: string): Story['render'] =>
  (args) =>
    frame(args, html`<ops-error api-base=${args.apiBase} error-id=${id} theme=${ifDefined(args.theme)}></ops-error>`);
export const ErrorOpen: Story = { render: errorPage('err_500_webhooks') };
export const ErrorFixed: Story = { render: errorPage('err_401_messages') };
export const ErrorIgnored: Story = { render: errorPage('err_400_contacts') };
/** A status change the server refuses: the badge goes back, with the reason. */
export const ErrorChangeRefused: Story = {
  render: errorPage('err_429_messages'),
  beforeEach({ msw }) {
    msw.use(http.patch('*/api/v1/errors/:id', () => problem(409, 'Conflict', 'Someone else changed this record.')));
  },
  async play({ canvasElement }) {
    const root = await shadowWith(canvasElement, 'ops-error', 'select[name="status"]');
    const select = root.querySelector<HTMLSelectElement>('select[name="status"]')!;
    select.value = 'Fixed';
    select.dispatchEvent(new Event('change'));
    await delay(50);
    root.querySelector<HTMLButtonElement>('[part="edit"] button[type="submit"]')!.click();
  },
};
export const ErrorMalformed: Story = { args: { apiBase: scenario('malformed') }, render: errorPage('err_500_webhooks') };
export const ErrorDark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' }, render: errorPage('err_500_webhooks') };

// ops-error-form
const errorForm: Story['render'] = (args) => frame(args, html`<ops-error-form api-base=${args.apiBase} theme=${ifDefined(args.theme)}></ops-error-form>`);

export const NewError: Story = { render: errorForm };
/** "Save error" pressed on an empty form: messages by each field, focus on the first. */
export const NewErrorWithErrors: Story = {
  render: errorForm,
  async play({ canvasElement }) {
    (await shadowWith(canvasElement, 'ops-error-form', 'form')).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
  },
};
/** A valid form on its way: the button says "Saving…" and cannot be pressed again. */
export const NewErrorSaving: Story = {
  render: errorForm,
  beforeEach({ msw }) {
    msw.use(http.post('*/api/v1/errors', () => delay('infinite')));
  },
  async play({ canvasElement }) {
    const root = await shadowWith(canvasElement, 'ops-error-form', 'form');
    const set = (id: string, value: string) => {
      const input = root.querySelector<HTMLInputElement>(`#${id}`)!;
      input.value = value;
      input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input'));
    };
    set('code', '500');
    set('endpoint', 'POST /webhooks');
    set('count', '12');
    set('firstSeen', '2026-09-10');
    await delay(50);
    root.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
  },
};
export const NewErrorOptionsFail: Story = { args: { apiBase: scenario('server-error') }, render: errorForm };
export const NewErrorDark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' }, render: errorForm };
export const NewErrorNarrow: Story = { args: { width: '320px' }, render: errorForm };
