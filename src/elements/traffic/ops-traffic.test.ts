import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { $, $$, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { Traffic } from '../../api/schemas.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import '../console/define.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import './define.ts';
import type { OpsTraffic } from './ops-traffic.ts';

async function traffic(attributes = '') {
  return mount<OpsTraffic>('ops-traffic', attrs(attributes));
}
const loaded = (el: Element) => waitFor(() => $$(el, '[part="metric"]').length === 4, 'metrics');
const metric = (el: Element, key: string) => $(el, `[data-metric="${key}"]`)!;
const breakdown = (el: Element) => $$(el, '[part="breakdown-row"]').map((r) => [...r.children].map(text));
const serve = (body: Traffic) => http.get(`*${API_BASE}/traffic`, () => HttpResponse.json(body));

describe('ops-traffic', () => {
  const api = useMockApi();

  it('shows the four metrics with their signed changes', async () => {
    const el = await traffic();
    await loaded(el);
    expect($$(el, '.figure-label').map(text)).to.deep.equal(['Requests', 'Error rate', 'Latency', 'Bandwidth']);
    expect($$(el, '.figure-value').map(text)).to.deep.equal(['1,284,301', '1.2%', '182 ms', '64.0%']);
    expect(text(metric(el, 'requests').querySelector('.change'))).to.equal('▲ Up +12.5% vs last month');
    expect(text(metric(el, 'errorRate').querySelector('.change'))).to.equal('▼ Down \u22120.4% vs last month');
    expect(['requests', 'errorRate', 'latency', 'bandwidth'].map((k) => metric(el, k).querySelector<HTMLElement>('.change')!.dataset['tone'])).to.deep.equal([
      'good',
      'good',
      'bad',
      'flat',
    ]);
    expect(api.requests[0]!.searchParams.get('range')).to.equal('12m');
  });

  it('formats every unit the API sends', async () => {
    const body = structuredClone(fixtures.traffic);
    body.metrics.requests = { value: 1284301, unit: 'USD', changePct: 12.5 };
    body.metrics.latency = { value: 182, unit: 'EUR', changePct: 3.1 };
    body.metrics.bandwidth = { value: 1_536_000_000, unit: 'bytes', changePct: 2.2 };
    body.metrics.errorRate = { value: 7, unit: 'widgets', changePct: 0 };
    api.use(serve(body));
    const el = await traffic();
    await loaded(el);
    expect($$(el, '.figure-value').map(text)).to.deep.equal(['$1,284,301', '7 widgets', '€182', '1.5 GB']);
    expect(text(metric(el, 'errorRate').querySelector('.change'))).to.equal('▬ No change 0.0% vs last month');
  });

  it('shows a dash, not 0.0%, for a change the API has nothing to compare with (null), in the cards and the breakdown', async () => {
    const body = structuredClone<Traffic>(fixtures.traffic);
    body.metrics.requests = { ...body.metrics.requests, changePct: null };
    body.metrics.latency = { ...body.metrics.latency, changePct: null };
    body.breakdown = [{ ...body.breakdown[0]!, changePct: null }, ...body.breakdown.slice(1)];
    api.use(serve(body));
    const el = await traffic();
    await loaded(el);
    expect(text(metric(el, 'requests').querySelector('.change'))).to.equal('—No comparison vs last month');
    expect(text(metric(el, 'latency').querySelector('.change'))).to.equal('—No comparison vs last month');
    expect(text(metric(el, 'errorRate').querySelector('.change'))).to.equal('▼ Down \u22120.4% vs last month');
    const messages = $$(el, '[part="breakdown"] tbody tr').find((r) => text(r.children[0]) === 'POST /messages')!;
    expect([text(messages.children[2]), messages.children[2]!.querySelector('span')!.className]).to.deep.equal(['—', 'tone-flat']);
    $$<HTMLButtonElement>(el, '[part="breakdown"] thead button')
      .find((b) => text(b).startsWith('Change'))!
      .click();
    await el.updateComplete;
    expect(breakdown(el).map((r) => r[2])).to.deep.equal(['+9.8%', '+1.2%', '\u22120.6%', '\u22122.3%', '—', '—'], 'no change sorts last');
  });

  it('charts requests over time (this year, last year) and error rate by month, with month labels from the data', async () => {
    const el = await traffic();
    await loaded(el);
    const [overTime, errors] = $$<OpsChart>(el, 'ops-chart');
    const months = ['Oct', 'Nov', 'Dec', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep'];
    const a = overTime!.data as ChartData;
    expect([a.type, a.categories, a.series.map((s) => s.name)]).to.deep.equal(['line', months, ['This year', 'Last year']]);
    expect(a.series[0]!.values).to.deep.equal(fixtures.traffic.requestsOverTime.thisYear);
    const b = errors!.data as ChartData;
    expect([b.type, b.series[0]!.values]).to.deep.equal(['bar', fixtures.traffic.errorRateByMonth.valuesPct]);
    await waitFor(() => overTime!.chart && errors!.chart, 'charts drawn');
    expect($$(el, 'h3').map(text)).to.deep.equal(['Requests over time', 'Error rate by month', 'Breakdown']);
    const table = errors!.shadowRoot!.querySelector('tbody tr')!;
    expect([...table.children].map(text)).to.deep.equal(['Oct', '1.4%']);
  });

  it('shows the breakdown with Name, Value, Change and Share, sorted by share', async () => {
    const el = await traffic();
    await loaded(el);
    expect($$(el, '[part="breakdown"] thead th').map((th) => text(th).replace(/[▲▼↕]/g, ''))).to.deep.equal(['Name', 'Value', 'Change', 'Share']);
    expect(breakdown(el)[0]).to.deep.equal(['POST /messages', '$482,113', '+4.1%', '37.5%']);
    expect(breakdown(el).map((r) => r[3])).to.deep.equal(['37.5%', '15.4%', '6.5%', '5.0%', '3.8%', '31.8%']);
    expect($$(el, '.share-fill').map((r) => r.getAttribute('width'))).to.deep.equal(['37.5', '15.4', '6.5', '5', '3.8', '31.8']);
  });

  it('shows the rest of the traffic as an "Other" row, after the rows whatever the sort', async () => {
    const el = await traffic();
    await loaded(el);
    const rest = 100 - fixtures.traffic.breakdown.reduce((sum, row) => sum + row.sharePct, 0);
    expect(breakdown(el).at(-1)).to.deep.equal(['Other', '—', '—', `${rest.toFixed(1)}%`]);
    $$<HTMLButtonElement>(el, '[part="breakdown"] thead button')
      .find((b) => text(b).startsWith('Share'))!
      .click();
    await el.updateComplete;
    expect(breakdown(el).at(-1)![0]).to.equal('Other');
  });

  it('colours each change in the breakdown as the metric cards do: a rise good, a fall bad', async () => {
    const el = await traffic();
    await loaded(el);
    const tones = $$(el, '[part="breakdown"] tbody tr').map((r) => [text(r.children[2]), r.children[2]!.querySelector('span')!.className]);
    expect(tones).to.deep.equal(
      fixtures.traffic.breakdown.map(({ changePct }) => [
        `${changePct! > 0 ? '+' : '\u2212'}${Math.abs(changePct!).toFixed(1)}%`,
        changePct! > 0 ? 'tone-good' : 'tone-bad',
      ]),
    );
    expect(getComputedStyle($(el, '[part="breakdown"] tbody .tone-good')!).color).to.not.equal(
      getComputedStyle($(el, '[part="breakdown"] tbody .tone-bad')!).color,
    );
  });

  it('sorts the breakdown by any column', async () => {
    const el = await traffic();
    await loaded(el);
    const button = (label: string) => $$<HTMLButtonElement>(el, '[part="breakdown"] thead button').find((b) => text(b).startsWith(label))!;
    button('Change').click();
    await el.updateComplete;
    expect(breakdown(el).map((r) => r[2])).to.deep.equal(['+9.8%', '+4.1%', '+1.2%', '\u22120.6%', '\u22122.3%', '—']);
    expect($(el, 'th[aria-sort="descending"]')!.textContent).to.contain('Change');
    button('Name').click();
    await el.updateComplete;
    expect(breakdown(el).map((r) => r[0])).to.deep.equal(['GET /contacts', 'GET /usage', 'POST /auth/token', 'POST /messages', 'POST /webhooks', 'Other']);
    expect($(el, 'th[aria-sort="ascending"]')!.textContent).to.contain('Name');
  });

  it('colours a rise in latency or error rate as bad news, and takes shares that only round short of 100 as complete', async () => {
    const body = structuredClone<Traffic>(fixtures.traffic);
    body.breakdown = [
      { method: 'GET', path: '/slow', value: 950, unit: 'ms', changePct: 12, sharePct: 33.3 },
      { method: 'GET', path: '/errors', value: 4.2, unit: 'percent', changePct: 3, sharePct: 33.3 },
      { method: 'GET', path: '/busy', value: 1200, unit: 'count', changePct: 5, sharePct: 33.3 },
    ];
    api.use(http.get(`*${API_BASE}/traffic`, () => HttpResponse.json(body)));
    const el = await traffic();
    await loaded(el);
    const tone = (name: string) =>
      $$(el, '[part="breakdown"] tbody tr')
        .find((r) => text(r.children[0]) === name)!
        .children[2]!.querySelector('span')!.className;
    expect([tone('GET /slow'), tone('GET /errors'), tone('GET /busy')]).to.deep.equal(['tone-bad', 'tone-bad', 'tone-good']);
    expect(breakdown(el).map((r) => r[0])).to.not.include('Other');
  });

  it('sends the range to the API', async () => {
    const el = await traffic('range=30d');
    await loaded(el);
    expect(api.requests.at(-1)!.searchParams.get('range')).to.equal('30d');
  });

  it('over a time range: the range’s metrics against the one before, its days against the days before, and each day leads to its requests', async () => {
    const expected = await createConsoleClient({ baseUrl: API_BASE }).getTraffic({ range: '7d' });
    const el = await traffic('range=7d&time-zone=UTC');
    await loaded(el);
    expect(api.requests[0]!.searchParams.get('range')).to.equal('7d');
    expect(text(metric(el, 'requests').querySelector('.figure-value'))).to.equal(expected.metrics.requests.value.toLocaleString('en-US'));
    expect(text(metric(el, 'requests').querySelector('.versus'))).to.equal('vs previous 7 days');
    const [overTime, errorRate] = $$<OpsChart>(el, 'ops-chart');
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    // `2026-09-08T00:00:00Z` → `08 Sep`, read here without the formatting module.
    const days = expected.overTime!.starts.map((s) => `${s.slice(8, 10)} ${MONTHS[Number(s.slice(5, 7)) - 1]}`);
    expect(overTime!.data).to.deep.equal({
      type: 'bar',
      categories: days,
      categoryName: 'Day',
      series: [
        { name: 'This period', values: expected.overTime!.requests },
        { name: 'Previous period', values: expected.overTime!.previousRequests },
      ],
    });
    expect(errorRate!.data!.series[0]!.values).to.deep.equal(expected.overTime!.errorPct);
    expect(text(el.shadowRoot!.querySelector('#error-rate'))).to.equal('Error rate over time');
    // The table's day is a drill-down to that day's requests (the canvas bar fires the same).
    await waitFor(() => overTime!.shadowRoot!.querySelector('tbody th button, tbody th a'), 'day links');
    const first = overTime!.shadowRoot!.querySelector<HTMLElement>('tbody tr:first-child th button, tbody tr:first-child th a')!;
    const seen = new Promise<CustomEvent<NavigateDetail>>((resolve) => el.addEventListener('ops-navigate', (e) => resolve(e), { once: true }));
    el.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    first.click();
    const { detail } = await seen;
    expect(detail).to.include({ kind: 'requests', id: '', label: days[0], from: expected.overTime!.starts[0], to: expected.overTime!.starts[1] });
    const next = new Promise<CustomEvent<NavigateDetail>>((resolve) =>
      el.addEventListener(
        'ops-navigate',
        (e) => {
          e.preventDefault();
          resolve(e);
        },
        { once: true },
      ),
    );
    overTime!.dispatchEvent(new CustomEvent('ops-chart-select', { detail: { index: 6, category: days[6] }, bubbles: true, composed: true }));
    const last = await next;
    expect(last.detail.from).to.equal(expected.overTime!.starts[6]);
    expect(last.detail.to, 'the last day runs to the window’s end').to.equal(expected.window!.to);
  });

  it('shows one customer’s traffic with customer-id', async () => {
    const expected = await createConsoleClient({ baseUrl: API_BASE }).getTraffic({ range: '12m', customerId: 'cus_acme' });
    const el = await traffic('customer-id=cus_acme');
    await loaded(el);
    expect(api.requests[0]!.searchParams.get('customerId')).to.equal('cus_acme');
    expect(text(metric(el, 'requests').querySelector('.figure-value'))).to.equal(expected.metrics.requests.value.toLocaleString('en-US'));
    expect(expected.metrics.requests.value).to.be.lessThan(fixtures.traffic.metrics.requests.value, 'a share of all the traffic');
    // Over a range, a day of the customer's traffic leads to the customer's requests of that day.
    el.setAttribute('range', '7d');
    await waitFor(() => text(metric(el, 'requests').querySelector('.versus')) === 'vs previous 7 days', 'the range');
    const chart = $<OpsChart>(el, 'ops-chart')!;
    const day = await waitFor(() => chart.shadowRoot!.querySelector<HTMLElement>('tbody tr th :is(a, button)'), 'days as links');
    const fired = new Promise<CustomEvent<NavigateDetail>>((resolve) =>
      el.addEventListener(
        'ops-navigate',
        (e) => {
          e.preventDefault();
          resolve(e);
        },
        { once: true },
      ),
    );
    day.click();
    expect((await fired).detail).to.include({ kind: 'requests', customerId: 'cus_acme' });
  });

  it('follows the range of the <ops-console> around it, and its own range over it', async () => {
    const wrapper = document.createElement('ops-console');
    wrapper.setAttribute('api-base', API_BASE);
    wrapper.setAttribute('range', '24h');
    const el = document.createElement('ops-traffic');
    wrapper.append(el);
    document.body.append(wrapper);
    try {
      await loaded(el);
      expect(api.requests.at(-1)!.searchParams.get('range')).to.equal('24h');
      expect(text(metric(el, 'requests').querySelector('.versus'))).to.equal('vs previous 24 h');
      el.setAttribute('range', '1h');
      await waitFor(() => text(metric(el, 'requests').querySelector('.versus')) === 'vs previous hour', 'its own range');
      expect(api.requests.at(-1)!.searchParams.get('range')).to.equal('1h');
    } finally {
      wrapper.remove();
    }
  });

  it('ignores an unknown range with a warning, instead of a request Retry cannot mend', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const el = await traffic('range=2w');
      await loaded(el);
      expect(api.requests[0]!.searchParams.get('range')).to.equal('12m');
      expect(warnings.join()).to.contain('ignored range="2w"');
      // A time without its offset means different instants in different places: not sent either.
      const local = await traffic('from=2026-09-14T08:00&to=2026-09-14T09:00');
      await loaded(local);
      expect(api.requests.at(-1)!.searchParams.has('from')).to.equal(false);
      expect(warnings.join()).to.contain('ignored from="2026-09-14T08:00"');
    } finally {
      console.warn = warn;
    }
  });

  it('shows empty charts and breakdown clearly', async () => {
    const body = structuredClone(fixtures.traffic);
    body.requestsOverTime = { months: [], thisYear: [], lastYear: [] };
    body.errorRateByMonth = { months: body.errorRateByMonth.months, valuesPct: body.errorRateByMonth.valuesPct.map(() => 0) };
    body.breakdown = [];
    api.use(serve(body));
    const el = await traffic();
    await loaded(el);
    const charts = $$<OpsChart>(el, 'ops-chart');
    await waitFor(() => charts.every((c) => c.shadowRoot?.querySelector('[part="empty"]')), 'empty charts');
    expect(text($(el, '.empty'))).to.equal('No breakdown for this period yet.');
  });

  it('shows a new API with no traffic yet (the empty scenario) as zeros, no error rate or latency of nothing, empty charts and no breakdown', async () => {
    api.use(...scenarios.empty());
    const el = await traffic();
    await loaded(el);
    expect($$(el, '[part="metric"] .figure-value').map(text)).to.deep.equal(['0', '—', '—', '0.0%']);
    expect(metric(el, 'latency').querySelector<HTMLElement>('.change')!.dataset['direction']).to.equal('none', 'no change of a latency of nothing');
    const charts = $$<OpsChart>(el, 'ops-chart');
    await waitFor(() => charts.every((c) => c.shadowRoot?.querySelector('[part="empty"]')), 'empty charts');
    expect(text($(el, '.empty'))).to.equal('No breakdown for this period yet.');
  });

  // Every failure kind, with Retry, is covered for every element by test/hardening.test.ts.

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await traffic(`theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
