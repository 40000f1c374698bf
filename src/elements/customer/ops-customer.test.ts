import { expect } from '@open-wc/testing';
import { delay, http } from 'msw';
import { problem } from '../../../mocks/problem.ts';
import { facts } from '../../../test/detail.ts';
import { $, $$, allowVirtualizerResizeNotice, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import { createConsoleClient } from '../../api/client.ts';
import './define.ts';
import type { OpsCustomer } from './ops-customer.ts';

async function customer(id: string, extra = '') {
  return mount<OpsCustomer>('ops-customer', { 'customer-id': id, ...attrs(extra) });
}
const loaded = (el: Element) => waitFor(() => $(el, '.facts'), 'facts');
const notes = (el: Element) => $$(el, '.note').map((n) => [text(n.querySelector('.note-text')), text(n.querySelector('.muted'))]);
const history = (el: Element) => $$(el, '.history li').map((li) => `${text(li.querySelector('.history-kind'))} — ${text(li.querySelector('.muted'))}`);

async function typeNote(el: OpsCustomer, value: string) {
  const textarea = $<HTMLTextAreaElement>(el, 'textarea')!;
  textarea.value = value;
  textarea.dispatchEvent(new Event('input'));
  await el.updateComplete;
  $<HTMLButtonElement>(el, '.note-form button[type="submit"]')!.click();
}

describe('ops-customer', () => {
  allowVirtualizerResizeNotice();
  const api = useMockApi();

  it('says when no rate limit was set, and gives the busiest minute without a share of one', async () => {
    const el = await customer('cus_initech');
    await loaded(el);
    expect(facts(el)['Rate limit']).to.equal('None set');
    expect(facts(el)['Busiest minute']).to.equal('9511 Sep 2026 at 15:40');
    expect(facts(el)['429s']).to.equal('3');
  });

  it('shows the name and status as the title, the other key facts as label and value pairs', async () => {
    const el = await customer('cus_acme');
    await loaded(el);
    expect(text($(el, 'h2 > span'))).to.equal('Acme Ltd');
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Customers / Acme Ltd');
    expect(facts(el)).to.deep.equal({
      Created: '02 Mar 2025',
      Plan: 'Free',
      Requests: '120,344',
      Errors: '2.1%',
      'Account owner': 'Ana Silva',
      'Rate limit': '600 a minute',
      // 588 of 600 is 98.0%; the minute in the page's time zone (UTC here).
      'Busiest minute': '588 (98.0% of the limit)14 Sep 2026 at 09:12',
      '429s': '42',
    });
    expect([text($(el, '.title .badge')), $(el, '.title .badge')!.dataset['tone']]).to.deep.equal(['Expired', 'danger']);
    expect(text($(el, '.fact [part="avatar"]'))).to.equal('AS');
  });

  it('shows Active with a good badge and an unknown status neutrally', async () => {
    const active = await customer('cus_globex');
    await loaded(active);
    expect(text($(active, '.title .badge'))).to.equal('Active');
    expect($(active, '.title .badge')!.dataset['tone']).to.equal('success');
  });

  it('lists related endpoints with their request counts, each a drill-down', async () => {
    const el = await customer('cus_acme');
    await loaded(el);
    expect($$(el, '.related li').map(text)).to.deep.equal(['GET /contacts 5,120 requests', 'POST /messages 3,310 requests']);
    const fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $$<HTMLButtonElement>(el, '.related button')[1]!.click();
    const event = await fired;
    expect(event.detail).to.deep.equal({ kind: 'endpoint', id: 'ep_1', label: 'POST /messages' });
    expect(event.cancelable).to.equal(true);
  });

  it("lists the customer's latest requests: the request log of its requests alone", async () => {
    const el = await customer('cus_globex');
    await loaded(el);
    const log = $(el, 'ops-request-log')!;
    expect(log.getAttribute('customer-id')).to.equal('cus_globex');
    await waitFor(() => $$(log, '[part="row"]').length > 0, 'its requests');
    const asked = api.requests.filter((u) => u.pathname.endsWith('/requests'));
    expect(asked.at(-1)!.searchParams.get('customerId')).to.equal('cus_globex');
    // Each row is one of this customer's requests, as the request's own detail says.
    const client = createConsoleClient({ baseUrl: API_BASE });
    for (const row of $$(log, '[part="row"]').slice(0, 5)) expect((await client.getRequest(row.dataset['id']!)).customer!.id).to.equal('cus_globex');
  });

  it("shows the customer's traffic over the range of the page, and its requests since the range began", async () => {
    const el = await customer('cus_globex', 'range=7d');
    await loaded(el);
    const traffic = $(el, 'ops-traffic')!;
    expect(traffic.getAttribute('customer-id')).to.equal('cus_globex');
    expect(traffic.getAttribute('range')).to.equal('7d');
    await waitFor(() => $(traffic, '[data-metric="requests"] .versus'), 'its traffic');
    expect(text($(traffic, '[data-metric="requests"] .versus'))).to.equal('vs previous 7 days');
    const asked = api.requests.filter((u) => u.pathname.endsWith('/traffic')).at(-1)!;
    expect([asked.searchParams.get('customerId'), asked.searchParams.get('range')]).to.deep.equal(['cus_globex', '7d']);
    expect($(el, 'ops-request-log')!.getAttribute('range')).to.equal('7d');
  });

  it('says exactly "No notes yet." when there are none', async () => {
    const el = await customer('cus_globex');
    await loaded(el);
    expect(text($(el, '.no-notes'))).to.equal('No notes yet.');
    expect(notes(el)).to.deep.equal([]);
  });

  it('lists history newest first as "<actor name>, <DD Mon YYYY>"', async () => {
    const el = await customer('cus_acme');
    await loaded(el);
    expect(history(el)).to.deep.equal([
      'Status changed — Ana Silva, 01 Sep 2026',
      'Note added — Ana Silva, 30 Aug 2026',
      'Assigned owner — Lee Park, 11 Jun 2025',
      'Updated details — Lee Park, 20 Apr 2025',
      'Created — Lee Park, 02 Mar 2025',
    ]);
  });

  it('adds a note and its "Note added" history item', async () => {
    const el = await customer('cus_globex');
    await loaded(el);
    await typeNote(el, 'Wants SSO before renewal.');
    await waitFor(() => notes(el).length === 1, 'note shown');
    expect(notes(el)[0]).to.deep.equal(['Wants SSO before renewal.', 'Ana Silva, 14 Sep 2026']);
    expect(history(el)[0]).to.equal('Note added — Ana Silva, 14 Sep 2026');
    expect($(el, '.no-notes')).to.equal(null);
    expect($<HTMLTextAreaElement>(el, 'textarea')!.value).to.equal('');
    expect(api.db.customers.find((c) => c.id === 'cus_globex')!.notes).to.have.length(1);
  });

  it('keeps the text when the post fails, and the retry reuses the same key', async () => {
    const failedKeys: (string | null)[] = [];
    api.use(
      http.post(`*${API_BASE}/customers/:id/notes`, ({ request }) => {
        failedKeys.push(request.headers.get('Idempotency-Key'));
        return problem(500, 'Internal Server Error');
      }),
    );
    const el = await customer('cus_globex');
    await loaded(el);
    await typeNote(el, 'Call back on Monday.');
    const message = await waitFor(() => text($(el, '#note-error')) || false, 'failure shown');
    expect(message).to.match(/^Could not add the note\. The console API had a problem answering/);
    expect($<HTMLTextAreaElement>(el, 'textarea')!.value).to.equal('Call back on Monday.');
    expect(notes(el)).to.deep.equal([]);

    api.resetHandlers();
    $<HTMLButtonElement>(el, '.note-form button[type="submit"]')!.click();
    await waitFor(() => notes(el).length === 1, 'saved on retry');
    const saved = api.db.writes.filter((w) => w.path.endsWith('/notes')).map((w) => w.idempotencyKey);
    expect(failedKeys).to.have.length(1);
    expect(saved).to.deep.equal(failedKeys);
  });

  it('sends one POST however often the button is pressed', async () => {
    api.use(
      http.post(`*${API_BASE}/customers/:id/notes`, async () => {
        await delay(200);
      }),
    );
    const el = await customer('cus_globex');
    await loaded(el);
    await typeNote(el, 'Only once.');
    $<HTMLButtonElement>(el, '.note-form button[type="submit"]')!.click();
    $<HTMLButtonElement>(el, '.note-form button[type="submit"]')!.click();
    await waitFor(() => notes(el).length === 1, 'saved');
    expect(api.requests.filter((u) => u.pathname.endsWith('/notes'))).to.have.length(1);
  });

  it('refuses an empty note without posting', async () => {
    const el = await customer('cus_globex');
    await loaded(el);
    await typeNote(el, '   ');
    await el.updateComplete;
    expect(text($(el, '#note-error'))).to.equal('Write a note first.');
    expect($(el, 'textarea')!.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
    expect(api.db.writes).to.have.length(0);
  });

  it('says a customer that does not exist was not found, without a Retry that cannot help', async () => {
    const el = await customer('cus_missing');
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.equal('Customer not found. No customer has the id “cus_missing”. It may have been deleted, or the link may be wrong.');
    expect($(el, '[part="retry-button"]')).to.equal(null);
    el.customerId = 'cus_acme';
    await loaded(el);
  });

  it('shows a server failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await customer('cus_acme');
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load this customer\. The console API had a problem answering\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await customer('cus_acme', `theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
