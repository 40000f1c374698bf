import { expect } from '@open-wc/testing';
import { delay, http } from 'msw';
import { problem } from '../../../mocks/problem.ts';
import { facts } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import type { ErrorRecordDetail, NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsError } from './ops-error.ts';

async function errorPage(id = 'err_500_webhooks', extra = '') {
  return mount<OpsError>('ops-error', { 'error-id': id, ...attrs(extra) });
}
const loaded = (el: Element) => waitFor(() => $(el, '.facts'), 'facts');
const badge = (el: Element) => $(el, '.title .badge')!;

async function change(el: OpsError, status: string, notes?: string) {
  const select = $<HTMLSelectElement>(el, 'select[name="status"]')!;
  select.value = status;
  select.dispatchEvent(new Event('change'));
  if (notes !== undefined) {
    const textarea = $<HTMLTextAreaElement>(el, 'textarea[name="notes"]')!;
    textarea.value = notes;
    textarea.dispatchEvent(new Event('input'));
  }
  await el.updateComplete;
  $<HTMLButtonElement>(el, '[part="edit"] button[type="submit"]')!.click();
}

describe('ops-error', () => {
  const api = useMockApi();

  it('titles the page "<code> <title>" with breadcrumb and status badge', async () => {
    const el = await errorPage();
    await loaded(el);
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Errors / 500 Server error');
    expect(text($(el, 'h2 span'))).to.equal('500 Server error');
    expect([text(badge(el)), badge(el).dataset['tone']]).to.deep.equal(['Open', 'warning']);
  });

  it('shows endpoint, count, first seen and owner, the notes once (in the form), and related endpoints', async () => {
    const el = await errorPage('err_429_messages');
    await loaded(el);
    expect(facts(el)).to.deep.equal({
      Endpoint: 'POST /messages',
      Count: '1,290',
      'First seen': '18 Jan 2026',
      'Account owner': 'Lee Park',
    });
    expect($<HTMLTextAreaElement>(el, 'textarea[name="notes"]')!.value).to.equal('Acme hits the limit at month end.');
    // The form to change status and notes follows the facts it changes, before the chart.
    const order = [...el.shadowRoot!.querySelectorAll('.facts, [part="edit"], ops-chart')].map((e) => e.localName);
    expect(order).to.deep.equal(['dl', 'form', 'ops-chart']);
    expect($$(el, '.related li').map(text)).to.deep.equal(['POST /messages 482,113 requests']);
  });

  it('shows every status as its badge', async () => {
    for (const [id, status, tone] of [
      ['err_401_messages', 'Fixed', 'success'],
      ['err_400_contacts', 'Ignored', 'neutral'],
    ]) {
      const el = await errorPage(id);
      await loaded(el);
      expect([text(badge(el)), badge(el).dataset['tone']]).to.deep.equal([status, tone]);
    }
  });

  it('charts the monthly series Oct–Sep', async () => {
    const el = await errorPage();
    await loaded(el);
    const chart = $<OpsChart>(el, 'ops-chart')!;
    expect((chart.data as ChartData).categories).to.deep.equal(['Oct', 'Nov', 'Dec', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep']);
    await waitFor(() => chart.chart, 'chart drawn');
  });

  it('over a time range charts the record’s occurrences in the range’s buckets, and keeps them after a save', async () => {
    const expected = await createConsoleClient({ baseUrl: API_BASE }).getError('err_500_webhooks', {}, { range: '7d' });
    const el = await errorPage('err_500_webhooks', 'range=7d');
    await loaded(el);
    expect(api.requests.find((u) => u.pathname.endsWith('/errors/err_500_webhooks'))!.searchParams.get('range')).to.equal('7d');
    const chart = $<OpsChart>(el, 'ops-chart')!;
    expect(chart.data!.series[0]!.values).to.deep.equal(expected.countsOverTime!.values);
    expect(chart.data!.categoryName).to.equal('Day');
    expect($$(el, 'h3').map(text)).to.include('Occurrences over time');
    // A day of them leads to the requests it counts: the record's endpoint, its code, that day.
    const day = await waitFor(() => chart.shadowRoot!.querySelector<HTMLElement>('tbody tr:nth-child(2) th :is(a, button)'), 'days as links');
    const fired = nextEvent<CustomEvent<NavigateDetail>>(el, 'ops-navigate');
    el.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    day.click();
    expect((await fired).detail).to.include({
      kind: 'requests',
      endpointId: 'ep_4',
      status: '500',
      from: expected.countsOverTime!.starts[1],
      to: expected.countsOverTime!.starts[2],
    });
    const updated = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-updated');
    await change(el, 'Fixed');
    await updated;
    await el.updateComplete;
    expect($<OpsChart>(el, 'ops-chart')!.data!.series[0]!.values).to.deep.equal(
      expected.countsOverTime!.values,
      'the saved answer has no range: the chart stays',
    );
  });

  it('saves a status change with PATCH and updates the badge', async () => {
    const el = await errorPage();
    await loaded(el);
    const updated = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-updated');
    await change(el, 'Fixed', 'Retries fixed upstream.');
    expect((await updated).detail.record).to.include({ status: 'Fixed', notes: 'Retries fixed upstream.' });
    expect(text(badge(el))).to.equal('Fixed');
    expect($<HTMLTextAreaElement>(el, 'textarea[name="notes"]')!.value).to.equal('Retries fixed upstream.');
    const patch = api.db.writes.find((w) => w.method === 'PATCH')!;
    expect(patch.body).to.deep.equal({ status: 'Fixed', notes: 'Retries fixed upstream.' });
  });

  it('shows the change at once, then reverts it visibly with the reason when refused', async () => {
    api.use(
      http.patch(`*${API_BASE}/errors/:id`, async () => {
        await delay(150);
        return problem(409, 'Conflict', 'Someone else changed this record.');
      }),
    );
    const el = await errorPage();
    await loaded(el);
    await change(el, 'Ignored');
    await waitFor(() => text(badge(el)) === 'Ignored', 'optimistic badge');
    const message = await waitFor(() => text($(el, '[part="edit"] .form-error')) || false, 'reason shown');
    expect(message).to.equal(
      'The change was not saved: This record was changed elsewhere. Reload and try again. (409 Conflict: Someone else changed this record.)',
    );
    expect(text(badge(el))).to.equal('Open');
    expect($<HTMLSelectElement>(el, 'select[name="status"]')!.value).to.equal('Ignored');
  });

  it('fires ops-navigate from the breadcrumb', async () => {
    const el = await errorPage();
    await loaded(el);
    const fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    $<HTMLAnchorElement>(el, '[part="breadcrumb"] a')!.click();
    expect((await fired).detail).to.deep.equal({ kind: 'errors', id: '', label: 'Errors', href: '#errors' });
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.malformed());
    const el = await errorPage();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load this error record\. The console API sent data in a shape/);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('says an error record that does not exist was not found, without Retry', async () => {
    const el = await errorPage('err_gone');
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.equal('Error record not found. No error record has the id “err_gone”. It may have been deleted, or the link may be wrong.');
    expect($(el, '[part="retry-button"]')).to.equal(null);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await errorPage('err_500_webhooks', `theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
