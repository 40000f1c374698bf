import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { facts } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsWebhook } from './ops-webhook.ts';

async function webhook(id = 'wh_invoice_paid', extra = '') {
  return mount<OpsWebhook>('ops-webhook', { 'webhook-id': id, ...attrs(extra) });
}
const loaded = (el: Element) => waitFor(() => $(el, '.facts'), 'facts');

describe('ops-webhook', () => {
  const api = useMockApi();

  it('over a time range charts its deliveries in the range’s buckets', async () => {
    const expected = await createConsoleClient({ baseUrl: API_BASE }).getWebhook('wh_invoice_paid', {}, { range: '24h' });
    const el = await webhook('wh_invoice_paid', 'range=24h');
    await loaded(el);
    const chart = $<OpsChart>(el, 'ops-chart')!;
    expect(chart.data!.categories).to.deep.equal(
      expected.countsOverTime!.starts.map((s) => s.slice(11, 16)),
      'the 24 hours, as clock times',
    );
    expect(chart.data!.series[0]!.values).to.deep.equal(expected.countsOverTime!.values);
    expect(chart.getAttribute('label')).to.equal('Deliveries over time');
  });

  it('shows the breadcrumb "Webhooks / invoice.paid" and the name as the title', async () => {
    const el = await webhook();
    await loaded(el);
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Webhooks / invoice.paid');
    expect(text($(el, 'h2 > span'))).to.equal('invoice.paid');
    expect($(el, '[aria-current="page"]')!.textContent).to.equal('invoice.paid');
  });

  it('shows customer, delivered, last sent, status and owner', async () => {
    const el = await webhook();
    await loaded(el);
    expect(facts(el)).to.deep.equal({ Customer: 'Acme Ltd', Delivered: '99.2%', 'Last sent': '13 Sep 2026', 'Account owner': 'Ana Silva' });
    expect([text($(el, '.title .badge')), $(el, '.title .badge')!.dataset['tone']]).to.deep.equal(['Healthy', 'success']);
    expect($$(el, '.related li').map(text)).to.deep.equal(['POST /webhooks 84,110 requests']);
  });

  it('drills down from the breadcrumb and the customer, cancelably', async () => {
    const el = await webhook('wh_invoice_paid', 'webhooks-href=/console/webhooks');
    await loaded(el);
    const crumb = $<HTMLAnchorElement>(el, '[part="breadcrumb"] a')!;
    expect(crumb.getAttribute('href')).to.equal('/console/webhooks');
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    const first = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    const before = location.href;
    crumb.click();
    expect((await first).detail).to.deep.equal({ kind: 'webhooks', id: '', label: 'Webhooks', href: '/console/webhooks' });
    expect(location.href).to.equal(before);
    const second = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, '.fact button')!.click();
    expect((await second).detail).to.deep.equal({ kind: 'customer', id: 'cus_acme', label: 'Acme Ltd' });
  });

  it('charts 12 monthly buckets labelled Oct through Sep, with a table', async () => {
    const el = await webhook();
    await loaded(el);
    const chart = $<OpsChart>(el, 'ops-chart')!;
    const data = chart.data as ChartData;
    expect(data.categories).to.deep.equal(['Oct', 'Nov', 'Dec', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep']);
    expect(data.series[0]!.values).to.deep.equal(fixtures.webhooks[0]!.activity.values);
    await waitFor(() => chart.chart, 'chart drawn');
    expect([...chart.shadowRoot!.querySelectorAll('tbody tr')].map((r) => text(r))).to.have.length(12);
  });

  it('renders an unknown status neutrally', async () => {
    api.use(http.get(`*${API_BASE}/webhooks/:id`, () => HttpResponse.json({ ...fixtures.webhooks[0], status: 'Paused' })));
    const el = await webhook();
    await loaded(el);
    expect(text($(el, '.title .badge'))).to.equal('Paused');
    expect($(el, '.title .badge')!.dataset['tone']).to.equal('neutral');
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await webhook();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load this webhook\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('says a webhook that does not exist was not found, without Retry', async () => {
    const el = await webhook('wh_gone');
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.equal('Webhook not found. No webhook has the id “wh_gone”. It may have been deleted, or the link may be wrong.');
    expect($(el, '[part="retry-button"]')).to.equal(null);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await webhook('wh_invoice_paid', `theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
