import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { delay, http } from 'msw';
import { problem } from '../../../mocks/problem.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { CancelDetail, ErrorRecordDetail, NavigateDetail } from '../../shared/events.ts';
import '../console/define.ts';
import './define.ts';
import type { OpsErrorForm } from './ops-error-form.ts';

async function form(extra = '') {
  return mount<OpsErrorForm>('ops-error-form', attrs(extra));
}
const ready = (el: Element) => waitFor(() => $(el, 'form'), 'form');
const control = (el: Element, field: string) => $<HTMLInputElement>(el, `#${field}`)!;
const message = (el: Element, field: string) => text($(el, `#${field}-error`));
const saveButton = (el: Element) => $$<HTMLButtonElement>(el, '[part="actions"] button').find((b) => b.type === 'submit')!;
const posts = (api: { requests: URL[] }) => api.requests.filter((u) => u.pathname.endsWith('/errors'));
const VALID = { code: '500', endpoint: 'POST /webhooks', count: '12', firstSeen: '2026-09-10', status: 'Fixed', notes: 'Seen after deploy 214.' };

async function fill(el: OpsErrorForm, values: Partial<typeof VALID>) {
  for (const [field, value] of Object.entries(values)) {
    const input = control(el, field);
    input.value = value;
    input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input'));
  }
  await el.updateComplete;
}
/** A form sent with nothing chosen and a negative count: every rule has something to say. */
async function submitInvalid() {
  const el = await form();
  await ready(el);
  await fill(el, { count: '-3' });
  saveButton(el).click();
  await waitFor(() => message(el, 'count'), 'messages');
  return el;
}
const typedValues = (el: Element) => Object.fromEntries(Object.keys(VALID).map((f) => [f, control(el, f).value]));

describe('ops-error-form', () => {
  const api = useMockApi();

  it('shows "Errors / New", the title and the hint', async () => {
    const el = await form();
    await ready(el);
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Errors / New');
    expect(text($(el, 'h2'))).to.equal('New error');
    expect(text($(el, '.hint'))).to.equal('You can change these details later.');
    expect($$(el, '[part="actions"] button').map(text)).to.deep.equal(['Cancel', 'Save error']);
  });

  it('labels every field and offers the seed values', async () => {
    const el = await form();
    await ready(el);
    expect($$(el, '.field label').map((l) => [text(l), l.getAttribute('for')])).to.deep.equal([
      ['Error', 'code'],
      ['Endpoint', 'endpoint'],
      ['Count', 'count'],
      ['First seen', 'firstSeen'],
      ['Status', 'status'],
      ['Notes (optional)', 'notes'],
    ]);
    const options = (field: string) => [...$<HTMLSelectElement>(el, `#${field}`)!.options].map((o) => o.text);
    expect(options('code')).to.deep.equal([
      'Choose an error',
      '400 Bad request',
      '401 Unauthorized',
      '404 Not found',
      '429 Too many requests',
      '500 Server error',
    ]);
    expect(options('endpoint')).to.deep.equal(['Choose an endpoint', 'POST /messages', 'POST /webhooks', 'GET /contacts']);
    expect(options('status')).to.deep.equal(['Open', 'Fixed', 'Ignored']);
    expect(control(el, 'firstSeen').type).to.equal('date');
  });

  it('validates with the contract schema: messages by each field, aria-invalid, focus on the first', async () => {
    const el = await submitInvalid();
    expect(['code', 'endpoint', 'count', 'firstSeen', 'status', 'notes'].map((f) => message(el, f))).to.deep.equal([
      'Choose an error.',
      'Choose an endpoint.',
      'The count cannot be negative.',
      'Enter the date it was first seen.',
      '',
      '',
    ]);
    expect(control(el, 'code').getAttribute('aria-invalid')).to.equal('true');
    expect(control(el, 'code').getAttribute('aria-describedby')).to.equal('code-error');
    expect(control(el, 'status').getAttribute('aria-invalid')).to.equal('false');
    await waitFor(() => el.shadowRoot!.activeElement === control(el, 'code'), 'focus on the first problem');
    expect(posts(api)).to.have.length(0);
  });

  it('draws every invalid field with the same red border, text inputs and date included', async () => {
    const el = await submitInvalid();
    const border = (field: string) => getComputedStyle(control(el, field)).borderTopColor;
    const red = border('code');
    expect(red).to.not.equal(border('status'), 'an invalid select is red, a valid one is not');
    expect([border('count'), border('firstSeen')]).to.deep.equal([red, red]);
  });

  it('gives the single-line fields one height', async () => {
    const el = await form();
    await ready(el);
    const heights = ['code', 'endpoint', 'count', 'firstSeen', 'status'].map((f) => control(el, f).getBoundingClientRect().height);
    expect(new Set(heights).size, heights.join(', ')).to.equal(1);
  });

  it('submits with Enter like any form', async () => {
    const el = await form();
    await ready(el);
    await fill(el, { code: '500', endpoint: 'POST /webhooks', firstSeen: '2026-09-10' });
    control(el, 'count').focus();
    await sendKeys({ type: '7' });
    const created = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-created');
    await sendKeys({ press: 'Enter' });
    expect((await created).detail.record).to.include({ code: 500, title: 'Server error', count: 7, endpoint: 'POST /webhooks', status: 'Open' });
  });

  it('posts once with an Idempotency-Key and fires ops-error-created with the new record', async () => {
    const el = await form();
    await ready(el);
    await fill(el, VALID);
    const created = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-created');
    saveButton(el).click();
    const { record } = (await created).detail;
    expect(record).to.include({
      code: 500,
      title: 'Server error',
      endpoint: 'POST /webhooks',
      count: 12,
      firstSeen: '2026-09-10',
      status: 'Fixed',
      notes: 'Seen after deploy 214.',
    });
    const writes = api.db.writes.filter((w) => w.method === 'POST');
    expect(writes).to.have.length(1);
    expect(writes[0]!.idempotencyKey).to.match(/^[0-9a-f-]{36}$/);
    expect(api.db.errors[0]!.id).to.equal(record.id);
    await waitFor(() => text($(el, '.saved')) === 'Saved 500 Server error.', 'saved message');
    expect(control(el, 'count').value).to.equal('');
  });

  it('confirms a save as a success, with the new record one click away', async () => {
    const el = await form();
    el.style.setProperty('--ops-color-success', 'rgb(1, 120, 2)');
    await ready(el);
    await fill(el, VALID);
    const created = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-created');
    saveButton(el).click();
    const { record } = (await created).detail;
    const saved = await waitFor(() => (text($(el, '.saved')) === 'Saved 500 Server error.' ? $(el, '.saved') : null), 'saved message');
    expect(getComputedStyle(saved).borderTopColor, 'in the success colour').to.equal('rgb(1, 120, 2)');
    const navigated = nextEvent<CustomEvent<NavigateDetail>>(el, 'ops-navigate');
    saved.querySelector<HTMLElement>('.link')!.click();
    expect((await navigated).detail).to.deep.include({ kind: 'error', id: record.id, label: '500 Server error' });
  });

  it('reads the chosen first-seen day back as the console writes dates', async () => {
    const el = await form();
    await ready(el);
    expect($(el, '#firstSeen-shown')).to.equal(null);
    await fill(el, { firstSeen: '2026-09-10' });
    expect(text($(el, '#firstSeen-shown'))).to.equal('10 Sep 2026');
    expect(control(el, 'firstSeen').getAttribute('aria-describedby')).to.equal('firstSeen-error firstSeen-shown');
  });

  it('puts the server’s 422 field errors on the same fields', async () => {
    api.use(
      http.post(`*${API_BASE}/errors`, () =>
        problem(422, 'Invalid error record', 'Some fields were not accepted.', [
          { field: 'endpoint', message: 'This endpoint is retired.' },
          { field: 'count', message: 'Too many for one record.' },
        ]),
      ),
    );
    const el = await form();
    await ready(el);
    await fill(el, VALID);
    saveButton(el).click();
    await waitFor(() => message(el, 'endpoint') === 'This endpoint is retired.', 'server message');
    expect(message(el, 'count')).to.equal('Too many for one record.');
    await waitFor(() => el.shadowRoot!.activeElement === control(el, 'endpoint'), 'focus');
    expect(typedValues(el)).to.deep.equal(VALID);
  });

  it('keeps every typed value after a 500 and reuses the Idempotency-Key on retry', async () => {
    const keys: (string | null)[] = [];
    api.use(
      http.post(`*${API_BASE}/errors`, ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'));
        return problem(500, 'Internal Server Error');
      }),
    );
    const el = await form();
    await ready(el);
    await fill(el, VALID);
    saveButton(el).click();
    await waitFor(() => text($(el, '.form-error')), 'reason');
    expect(text($(el, '.form-error'))).to.match(/^The error was not saved\. The console API had a problem answering/);
    expect(typedValues(el)).to.deep.equal(VALID);
    saveButton(el).click();
    await waitFor(() => keys.length === 2, 'second attempt');
    api.resetHandlers();
    const created = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-created');
    saveButton(el).click();
    await created;
    const saved = api.db.writes.filter((w) => w.method === 'POST').map((w) => w.idempotencyKey);
    expect(new Set([...keys, ...saved]).size).to.equal(1);
  });

  it('keeps values after a timeout, and a retry creates no duplicate', async () => {
    let slow = true;
    api.use(
      http.post(`*${API_BASE}/errors`, async () => {
        if (slow) await delay(2_000); // the record is created, but the answer comes too late
      }),
    );
    const wrapper = await fixture(html`<ops-console api-base=${API_BASE} timeout-ms="1000"><ops-error-form></ops-error-form></ops-console>`);
    const el = wrapper.querySelector('ops-error-form')!;
    await ready(el);
    await fill(el, VALID);
    saveButton(el).click();
    await waitFor(() => text($(el, '.form-error')), 'timeout shown');
    expect(text($(el, '.form-error'))).to.contain('did not answer within 1 second');
    expect(typedValues(el)).to.deep.equal(VALID);
    // The late answer's record lands on the server first (a condition, not a wall-clock wait).
    await waitFor(() => api.db.writes.filter((w) => w.method === 'POST').length === 1, 'first attempt reached the server');
    slow = false;
    const created = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-created');
    saveButton(el).click();
    await created;
    const writes = api.db.writes.filter((w) => w.method === 'POST');
    expect(writes).to.have.length(2);
    expect(writes[0]!.idempotencyKey).to.equal(writes[1]!.idempotencyKey);
    expect(api.db.errors.filter((e) => e.notes === VALID.notes)).to.have.length(1);
  });

  it('sends no second POST on a double click', async () => {
    api.use(
      http.post(`*${API_BASE}/errors`, async () => {
        await delay(150);
      }),
    );
    const el = await form();
    await ready(el);
    await fill(el, VALID);
    const created = nextEvent(el, 'ops-error-created');
    saveButton(el).click();
    saveButton(el).click();
    await el.updateComplete;
    expect(saveButton(el).disabled).to.equal(true);
    expect(text(saveButton(el))).to.equal('Saving…');
    await created;
    expect(posts(api)).to.have.length(1);
  });

  it('asks before Cancel discards typed values, and lets the host take over', async () => {
    const el = await form();
    await ready(el);
    await fill(el, { count: '4', notes: 'draft' });
    const cancel = () =>
      $$<HTMLButtonElement>(el, '[part="actions"] button')
        .find((b) => text(b) === 'Cancel')!
        .click();

    const hostTakesOver = nextEvent<CustomEvent<CancelDetail>>(el, 'ops-cancel');
    el.addEventListener('ops-cancel', (e) => e.preventDefault(), { once: true });
    cancel();
    const event = await hostTakesOver;
    expect(event.detail).to.deep.include({ dirty: true });
    expect(event.detail.values).to.include({ count: '4', notes: 'draft' });
    await el.updateComplete;
    expect($(el, '.confirm')).to.equal(null);
    expect(control(el, 'count').value).to.equal('4');

    cancel();
    await el.updateComplete;
    expect(text($(el, '.confirm'))).to.equal('Discard what you entered? Discard Keep editing');
    $$<HTMLButtonElement>(el, '.confirm button')[1]!.click();
    await el.updateComplete;
    expect(control(el, 'notes').value).to.equal('draft');

    cancel();
    await el.updateComplete;
    $$<HTMLButtonElement>(el, '.confirm button')[0]!.click();
    await el.updateComplete;
    expect([control(el, 'count').value, control(el, 'notes').value]).to.deep.equal(['', '']);
  });

  it('shows a failure to load the endpoint options, with Retry', async () => {
    api.use(...scenarios.unauthorized());
    const el = await form();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load the form\. You are not signed in/);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await ready(el);
  });

  it('passes axe in light and dark, with and without errors', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await form(`theme=${theme}`);
      await ready(el);
      await expect(el).to.be.accessible();
      saveButton(el).click();
      await waitFor(() => message(el, 'code'), 'errors shown');
      await expect(el).to.be.accessible();
    }
  });
});
