import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { problem } from '../../../mocks/problem.ts';
import { $, $$, nextEvent, nextFrames, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import './define.ts';
import type { OpsOverview } from './ops-overview.ts';

async function overview(attributes = '', clock = () => fixtures.FIXTURE_NOW) {
  return mount<OpsOverview>('ops-overview', attrs(attributes), { properties: { clock } });
}

const summaryLoaded = (el: Element) => waitFor(() => $(el, '[part="greeting"]'), 'greeting');
const table = (el: Element) => $(el, 'ops-endpoint-table')!;
const feed = (el: Element) => $(el, 'ops-activity-feed')!;
const tableRows = (el: Element) => [...(table(el).shadowRoot?.querySelectorAll('tbody tr') ?? [])];
const feedItems = (el: Element) => [...(feed(el).shadowRoot?.querySelectorAll('[part="item"]') ?? [])];
const figure = (el: Element, label: string) => $$(el, '[part="figure"]').find((f) => text(f.querySelector('.figure-label')) === label)!;

describe('ops-overview', () => {
  const api = useMockApi();

  it('over a time range shows the range’s requests, error rate, P95 and keys against the range before, in its buckets', async () => {
    const expected = await createConsoleClient({ baseUrl: API_BASE }).getOverview({}, { range: '24h' });
    const el = await overview('range=24h');
    await summaryLoaded(el);
    expect($$(el, '.figure-label').map(text)).to.deep.equal(
      ['Requests', 'Error rate', 'P95 latency', 'Active keys'],
      'today’s requests belong to the calendar view',
    );
    expect(text(figure(el, 'Requests').querySelector('.figure-value'))).to.equal(expected.figures.requests!.value.toLocaleString('en-US'));
    expect($$(el, '.versus').map(text)).to.deep.equal(['vs previous 24 h', 'vs previous 24 h', 'vs previous 24 h', 'vs previous 24 h']);
    const sparkline = figure(el, 'Requests').querySelector<OpsChart>('ops-chart')!;
    expect(sparkline.data!.categories).to.deep.equal(
      expected.overTime!.starts.map((s) => s.slice(11, 16)),
      'the 24 hours, as clock times',
    );
    expect(sparkline.data!.series[0]!.values).to.deep.equal(expected.overTime!.requests);
    expect(table(el).getAttribute('range')).to.equal('24h', 'the recent endpoints are the range’s');
    expect(api.requests.find((r) => r.pathname.endsWith('/overview'))!.searchParams.get('range')).to.equal('24h');
    // An hour of the sparkline leads to the requests of that hour.
    const hour = await waitFor(() => sparkline.shadowRoot!.querySelector<HTMLElement>('tbody tr:nth-child(3) th :is(a, button)'), 'hours as links');
    const fired = nextEvent<CustomEvent<NavigateDetail>>(el, 'ops-navigate');
    el.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    hour.click();
    expect((await fired).detail).to.include({ kind: 'requests', from: expected.overTime!.starts[2], to: expected.overTime!.starts[3] });
  });

  it('greets the account owner for the time of day in the configured zone', async () => {
    const morning = await overview();
    expect(text(await summaryLoaded(morning))).to.equal('Good morning, Ana');
    const afternoon = await overview('time-zone=Asia/Kolkata'); // 15:15 there
    expect(text(await summaryLoaded(afternoon))).to.equal('Good afternoon, Ana');
    const evening = await overview('time-zone=America/Los_Angeles'); // 02:45 there
    expect(text(await summaryLoaded(evening))).to.equal('Good evening, Ana');
  });

  it('shows the five figures labelled as the seed, with signed changes', async () => {
    const el = await overview();
    await summaryLoaded(el);
    expect($$(el, '.figure-label').map(text)).to.deep.equal(['Requests this month', 'Requests today', 'Error rate', 'P95 latency', 'Active keys']);
    expect($$(el, '.figure-value').map(text)).to.deep.equal(['1,284,301', '48,211', '1.2%', '182 ms', '342']);
    expect(text(figure(el, 'Requests today').querySelector('.change'))).to.equal('▲ Up +12.5% vs last month');
    expect(text(figure(el, 'Error rate').querySelector('.change'))).to.equal('▼ Down \u22120.4% vs last month');
    expect(figure(el, 'Requests this month').querySelector('.change')).to.equal(null);
  });

  it('shows a dash, not "No change 0.0%", in the first month: the API has nothing to compare with (null)', async () => {
    const body = structuredClone(fixtures.overview);
    for (const key of ['requestsToday', 'errorRate', 'p95Latency', 'activeKeys'] as const) body.figures[key].changePct = null;
    api.use(http.get(`*${API_BASE}/overview`, () => HttpResponse.json(body)));
    const el = await overview();
    await summaryLoaded(el);
    expect($$(el, '.figure-value').map(text)).to.deep.equal(['1,284,301', '48,211', '1.2%', '182 ms', '342']);
    expect($$(el, '.change').map(text)).to.deep.equal(Array(4).fill('—No comparison vs last month'));
    expect($$(el, '.change').map((c) => c.dataset['direction'])).to.deep.equal(Array(4).fill('none'));
  });

  it('colours each change as good or bad news for that figure', async () => {
    const el = await overview();
    await summaryLoaded(el);
    const tones = ['Requests today', 'Error rate', 'P95 latency', 'Active keys'].map((label) => {
      const change = figure(el, label).querySelector<HTMLElement>('.change')!;
      return [label, change.dataset['direction'], change.dataset['tone']];
    });
    expect(tones).to.deep.equal([
      ['Requests today', 'up', 'good'],
      ['Error rate', 'down', 'good'],
      ['P95 latency', 'up', 'bad'],
      ['Active keys', 'up', 'good'],
    ]);
    const good = getComputedStyle(figure(el, 'Requests today').querySelector('.change')!).color;
    const bad = getComputedStyle(figure(el, 'P95 latency').querySelector('.change')!).color;
    expect(good).to.equal('rgb(26, 127, 55)');
    expect(bad).to.equal('rgb(198, 40, 40)');
  });

  it('charts the 12-month series with month labels from the data', async () => {
    const el = await overview();
    await summaryLoaded(el);
    const spark = figure(el, 'Requests this month').querySelector('ops-chart')!;
    const data = spark.data as ChartData;
    expect(data.categories).to.deep.equal(['Oct', 'Nov', 'Dec', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep']);
    expect(data.series[0]!.values).to.deep.equal(fixtures.overview.figures.requestsThisMonth.series.values);
    await waitFor(() => spark.chart, 'sparkline drawn');
  });

  it('shows the requests by endpoint shares adding up to 100.0', async () => {
    const el = await overview();
    await summaryLoaded(el);
    const rows = $$(el, '[part="shares"] li').map((li) => [text(li.querySelector('.share-group')), text(li.querySelector('.share-value'))]);
    expect(rows).to.deep.equal([
      ['/messages', '41.2%'],
      ['/contacts', '22.3%'],
      ['/webhooks', '15.0%'],
      ['/auth', '12.5%'],
      ['Other', '9.0%'],
      ['Total', '100.0%'],
    ]);
    const chart = $<OpsChart>(el, '.shares-panel ops-chart')!;
    await waitFor(() => chart.chart, 'share chart drawn');
    expect((chart.data as ChartData).series[0]!.values.reduce((a: number, b) => a + (b ?? 0), 0).toFixed(1)).to.equal('100.0');
  });

  it('puts the donut and its legend side by side in a wide panel, one above the other in a narrow one', async () => {
    const el = await mount('ops-overview', {}, { width: 1264 });
    await summaryLoaded(el);
    const chart = () => $(el, '.shares-panel ops-chart')!.getBoundingClientRect();
    const legend = () => $(el, '[part="shares"]')!.getBoundingClientRect();
    expect(legend().left, 'legend beside the donut').to.be.at.least(chart().right);
    // The two panels of the row end level: the donut's no longer twice its neighbour's height in white.
    const panelHeight = (selector: string) => $(el, selector)!.getBoundingClientRect().height;
    await waitFor(() => feedItems(el).length > 0, 'activity');
    expect(panelHeight('.shares-panel')).to.be.at.most(panelHeight('.activity'));
    el.parentElement!.style.width = '320px';
    await nextFrames();
    expect(legend().top, 'legend under the donut').to.be.at.least(chart().bottom);
  });

  it('rounds shares that do not add up by largest remainder', async () => {
    api.use(
      http.get(`*${API_BASE}/overview`, () =>
        HttpResponse.json({
          ...fixtures.overview,
          requestsByEndpoint: [
            { group: '/a', sharePct: 33.33 },
            { group: '/b', sharePct: 33.33 },
            { group: 'Other', sharePct: 33.33 },
          ],
        }),
      ),
    );
    const el = await overview();
    await summaryLoaded(el);
    expect($$(el, '[part="shares"] .share-value').map(text)).to.deep.equal(['33.4%', '33.3%', '33.3%', '100.0%']);
  });

  it('embeds the recent endpoints and the latest activity', async () => {
    const el = await overview();
    await waitFor(() => tableRows(el).length === 5, 'recent endpoints');
    const request = api.requests.find((u) => u.pathname.endsWith('/endpoints'))!;
    expect(Object.fromEntries(request.searchParams)).to.deep.equal({ sort: 'recent', limit: '5' });
    expect(text(tableRows(el)[0]!.querySelector('th'))).to.equal('POST /webhooks');
    await waitFor(() => feedItems(el).length === 5, 'latest activity');
    expect(text(feedItems(el)[0]!.querySelector('.age'))).to.equal('3m');
    expect(text(feed(el).shadowRoot!.querySelector('[part="filters"] button'))).to.equal('All');
  });

  it('names the endpoints panel by what its rows are: recent, until the person sorts them', async () => {
    const el = await overview();
    await waitFor(() => tableRows(el).length === 5, 'recent endpoints');
    expect(text($(el, '#recent-title'))).to.equal('Recent endpoints');
    const header = (label: string) =>
      [...table(el).shadowRoot!.querySelectorAll<HTMLButtonElement>('th[aria-sort] button')].find((b) => text(b).startsWith(label))!;
    header('Requests').click();
    await waitFor(() => text($(el, '#recent-title')) === 'Endpoints by requests', 'renamed');
    header('P95').click();
    await waitFor(() => text($(el, '#recent-title')) === 'Endpoints by P95 latency', 'renamed again');
  });

  it('fires a cancelable ops-navigate from "View all" so a router can take over', async () => {
    const el = await overview('view-all-href=/console/endpoints');
    const link = $<HTMLAnchorElement>(el, '[part="view-all"]')!;
    expect(text(link)).to.equal('View all');
    expect(link.getAttribute('href')).to.equal('/console/endpoints');
    const fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    let clickPrevented = false;
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    link.addEventListener('click', (e) => queueMicrotask(() => (clickPrevented = e.defaultPrevented)), { once: true });
    const before = location.href;
    link.click();
    expect((await fired).detail).to.deep.equal({ kind: 'endpoints', id: '', label: 'View all', href: '/console/endpoints' });
    await Promise.resolve();
    expect(clickPrevented).to.equal(true);
    expect(location.href).to.equal(before);
  });

  it('leads from a share group, its legend entry or its slice, to the endpoints searched for it; Other leads nowhere', async () => {
    const el = await overview('view-all-href=/console/endpoints');
    await summaryLoaded(el);
    const legend = $$<HTMLAnchorElement>(el, '[part="shares"] .share-group a');
    expect(legend.map((a) => [text(a), a.getAttribute('href')])).to.deep.equal(
      ['/messages', '/contacts', '/webhooks', '/auth'].map((group) => [group, `/console/endpoints?q=${encodeURIComponent(group)}`]),
    );
    const cancel = (e: Event) => e.preventDefault();
    document.addEventListener('ops-navigate', cancel);
    try {
      let fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
      legend[1]!.click();
      expect((await fired).detail).to.deep.equal({ kind: 'endpoints', id: '', label: '/contacts', q: '/contacts', href: '/console/endpoints?q=%2Fcontacts' });
      const chart = $<OpsChart>(el, '.shares-panel ops-chart')!;
      fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
      chart.dispatchEvent(new CustomEvent('ops-chart-select', { detail: { index: 2, category: '/webhooks' }, bubbles: true, composed: true }));
      expect((await fired).detail).to.include({ kind: 'endpoints', q: '/webhooks' });
      const seen: unknown[] = [];
      const record = (e: Event) => seen.push(e);
      document.addEventListener('ops-navigate', record);
      chart.dispatchEvent(new CustomEvent('ops-chart-select', { detail: { index: 4, category: 'Other' }, bubbles: true, composed: true }));
      document.removeEventListener('ops-navigate', record);
      expect(seen).to.have.length(0);
      expect(text($(el, '[part="shares"] li:nth-child(5) .share-group'))).to.equal('Other');
      expect($(el, '[part="shares"] li:nth-child(5) a')).to.equal(null);
    } finally {
      document.removeEventListener('ops-navigate', cancel);
    }
  });

  it('lets drill-downs of the embedded table reach the host', async () => {
    const el = await overview();
    await waitFor(() => tableRows(el).length === 5, 'recent endpoints');
    const fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    tableRows(el)[0]!.querySelector('button')!.click();
    expect((await fired).detail).to.deep.equal({ kind: 'endpoint', id: 'ep_4', label: 'POST /webhooks' });
  });

  it('keeps the other parts when the overview request fails, and Retry recovers', async () => {
    api.use(http.get(`*${API_BASE}/overview`, () => problem(500, 'Internal Server Error')));
    const el = await overview();
    const panel = await waitFor(() => $(el, '.summary [part="error"]'), 'summary error');
    expect(text(panel)).to.match(/^Couldn’t load the overview\./);
    expect(text($(el, '.shares-panel'))).to.contain('Not available right now.');
    await waitFor(() => tableRows(el).length === 5 && feedItems(el).length === 5, 'other parts loaded');
    api.use(http.get(`*${API_BASE}/overview`, () => HttpResponse.json(fixtures.overview)));
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    expect(text(await summaryLoaded(el))).to.equal('Good morning, Ana');
    await waitFor(() => $$(el, '[part="shares"] li').length === 6, 'shares back');
  });

  it('keeps the figures when only the endpoint table fails', async () => {
    api.use(http.get(`*${API_BASE}/endpoints`, () => problem(503, 'Unavailable')));
    const el = await overview();
    await summaryLoaded(el);
    await waitFor(() => table(el).shadowRoot?.querySelector('[part="error"]'), 'table error');
    expect($$(el, '.figure-value')).to.have.length(5);
  });

  it('says once, with one Retry, that the whole API is down, and that Retry brings every part back', async () => {
    api.use(...scenarios.htmlInsteadOfJson());
    const el = await overview();
    await waitFor(() => $$(el, '[part="panel"]').every((panel) => panel.hidden), 'the parts give way to one message');
    const shown = [el, table(el), feed(el)].filter((part) => part.checkVisibility());
    const errors = shown.flatMap((part) => [...part.shadowRoot!.querySelectorAll('[part="error"]')]).filter((e) => e.checkVisibility());
    expect(errors.map(text)).to.deep.equal(['Couldn’t load the overview. The console API sent a response this console cannot read (not JSON). Retry']);
    const retries = shown.flatMap((part) => [...part.shadowRoot!.querySelectorAll('button')]).filter((b) => b.checkVisibility());
    expect(retries.map(text)).to.deep.equal(['Retry']);

    api.resetHandlers();
    retries[0]!.click();
    expect(text(await summaryLoaded(el))).to.equal('Good morning, Ana');
    await waitFor(() => tableRows(el).length === 5 && feedItems(el).length === 5, 'every part back');
    expect($$(el, '[part="panel"]').map((panel) => panel.hidden)).to.deep.equal([false, false, false]);
  });

  it('shows clear empty states on an empty account', async () => {
    api.use(...scenarios.empty());
    const el = await overview();
    await summaryLoaded(el);
    // A rate or a P95 of no requests is no figure, and nothing now against nothing then is no change.
    expect($$(el, '.figure-value').map(text)).to.deep.equal(['0', '0', '—', '—', '0']);
    expect($$(el, '.change').map(text)).to.deep.equal(Array(4).fill('—No comparison vs last month'));
    expect($$(el, '.change').map((c) => c.querySelector('[aria-hidden="true"]'))).to.deep.equal([null, null, null, null], 'no arrow');
    expect(text(figure(el, 'Requests this month').querySelector('ops-chart')!.shadowRoot!.querySelector('[part="empty"]'))).to.equal('No monthly data yet.');
    expect(text($(el, '.shares-panel ops-chart')!.shadowRoot!.querySelector('[part="empty"]'))).to.equal('No requests yet.');
    await waitFor(() => feed(el).shadowRoot?.querySelector('[part="empty"]'), 'feed empty');
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await overview(`theme=${theme}`);
      await summaryLoaded(el);
      await waitFor(() => tableRows(el).length === 5 && feedItems(el).length === 5, 'all parts');
      await expect(el).to.be.accessible();
    }
  });

  it('shows what is firing at the top, leading to the alerts; nothing while nothing fires', async () => {
    const el = await overview();
    const banner = await waitFor(() => $(el, '[part="alerts"]'), 'the firing alerts');
    expect(text(banner.querySelector('h3'))).to.equal('1 alert firing');
    expect(text(banner.querySelector('li'))).to.equal('POST /webhooks failing 6.8% against 5.0% · since 14 Sep 2026 at 09:33');
    const navigated = nextEvent<CustomEvent<NavigateDetail>>(el, 'ops-navigate');
    banner.querySelector<HTMLElement>('.link')!.click();
    expect((await navigated).detail).to.include({ kind: 'alerts', state: 'firing' });

    // Five shown of more: the heading does not undercount.
    const [firing] = (await createConsoleClient({ baseUrl: API_BASE }).listAlerts({ state: 'firing' })).items;
    api.use(
      http.get(`*${API_BASE}/alerts`, () => HttpResponse.json({ items: Array.from({ length: 5 }, (_, i) => ({ ...firing, id: `a_${i}` })), nextCursor: '5' })),
    );
    const busy = await overview();
    expect(text((await waitFor(() => $(busy, '[part="alerts"]'), 'the banner')).querySelector('h3'))).to.equal('5+ alerts firing');

    api.use(http.get(`*${API_BASE}/alerts`, () => HttpResponse.json({ items: [], nextCursor: null })));
    const quiet = await overview();
    await summaryLoaded(quiet);
    await waitFor(() => tableRows(quiet).length === 5, 'the table');
    expect($(quiet, '[part="alerts"]')).to.equal(null);
  });
});
