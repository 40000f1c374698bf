import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { facts } from '../../../test/detail.ts';
import { $, $$, allowVirtualizerResizeNotice, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { EndpointDetail } from '../../api/schemas.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsEndpointDetail } from './ops-endpoint-detail.ts';

async function endpointDetail(id = 'ep_4', extra = '') {
  return mount<OpsEndpointDetail>('ops-endpoint-detail', { 'endpoint-id': id, 'time-zone': 'UTC', ...attrs(extra) });
}
const loaded = (el: Element) => waitFor(() => $(el, '.facts'), 'facts');
/** What the mock API answers for the endpoint (its days and customers are generated). */
const detailOf = (id: string): Promise<EndpointDetail> => createConsoleClient({ baseUrl: API_BASE }).getEndpoint(id);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `2026-08-16` → `16 Aug`, read here without the formatting module. */
const dayLabel = (ymd: string) => `${ymd.slice(8)} ${MONTHS[Number(ymd.slice(5, 7)) - 1]}`;

describe('ops-endpoint-detail', () => {
  allowVirtualizerResizeNotice();
  const api = useMockApi();

  it('shows "Endpoints / POST /webhooks", its status and its figures over 30 days', async () => {
    const el = await endpointDetail();
    await loaded(el);
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Endpoints / POST /webhooks');
    const badge = $(el, '.title .badge')!;
    expect([text(badge), badge.dataset['tone']]).to.deep.equal(['Failing', 'danger']);
    const row = fixtures.endpoints.find((e) => e.id === 'ep_4')!;
    expect(facts(el)).to.deep.equal({
      'Requests (30 days)': row.requests.toLocaleString('en-US'),
      Errors: `${row.errorPct.toFixed(1)}%`,
      P50: `${row.p50Ms!.toLocaleString('en-US')} ms`,
      P95: `${row.p95Ms.toLocaleString('en-US')} ms`,
      P99: `${row.p99Ms!.toLocaleString('en-US')} ms`,
      'API version': 'v3',
    });
  });

  it('says a deprecated endpoint turns off, on which day, and what replaces it', async () => {
    const el = await endpointDetail('ep_3', 'time-zone=UTC');
    await loaded(el);
    expect(text($(el, '.title [part="deprecation"]'))).to.equal('Deprecated Sunset 14 Oct 2026');
    expect(facts(el)['Replacement']).to.equal('POST /contacts/archive');
  });

  it('charts requests, server errors and p95 latency per day, labelled by day, each with a table', async () => {
    const expected = await detailOf('ep_4');
    const el = await endpointDetail();
    await loaded(el);
    const [requests, latency] = $$<OpsChart>(el, 'ops-chart');
    const days = expected.daily.days.map(dayLabel);
    expect(requests!.data).to.deep.equal({
      type: 'bar',
      categories: days,
      categoryName: 'Day',
      series: [
        { name: 'Requests', values: expected.daily.requests },
        { name: 'Server errors', values: expected.daily.errors },
      ],
    });
    expect(latency!.data).to.deep.equal({
      type: 'line',
      categories: days,
      categoryName: 'Day',
      series: [{ name: 'P95 latency', values: expected.daily.p95Ms }],
    });
    await waitFor(() => requests!.chart && latency!.chart, 'charts drawn');
    expect(requests!.shadowRoot!.querySelectorAll('tbody tr')).to.have.length(30);
    expect(text(requests!.shadowRoot!.querySelector('thead th'))).to.equal('Day', 'the table names days as days');
  });

  it('over a time range shows the range’s requests, its buckets, and the log of the range', async () => {
    const expected = await createConsoleClient({ baseUrl: API_BASE }).getEndpoint('ep_4', {}, { range: '24h' });
    const el = await endpointDetail('ep_4', 'range=24h');
    await loaded(el);
    expect(facts(el)['Requests']).to.equal(expected.requests.toLocaleString('en-US'));
    const [requests] = $$<OpsChart>(el, 'ops-chart');
    expect(requests!.data!.categories).to.deep.equal(
      expected.overTime!.starts.map((s) => s.slice(11, 16)),
      'the 24 hours, as clock times',
    );
    expect(requests!.data!.series[0]!.values).to.deep.equal(expected.overTime!.requests);
    expect($(el, 'ops-request-log')!.getAttribute('range')).to.equal('24h', 'the latest requests are the range’s');
    // An hour of the chart leads to this endpoint's requests of that hour.
    const hour = await waitFor(() => requests!.shadowRoot!.querySelector<HTMLElement>('tbody tr:nth-child(2) th :is(a, button)'), 'hours as links');
    const fired = nextEvent<CustomEvent<NavigateDetail>>(el, 'ops-navigate');
    el.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    hour.click();
    expect((await fired).detail).to.include({ kind: 'requests', endpointId: 'ep_4', from: expected.overTime!.starts[1], to: expected.overTime!.starts[2] });
  });

  it('lists the status codes with their requests and shares that add up to 100.0%', async () => {
    const expected = await detailOf('ep_4');
    const el = await endpointDetail();
    await loaded(el);
    const rows = $$(el, '[part="status-codes"] tbody tr').map((row) => [...row.children].map((cell) => text(cell)));
    const total = expected.statusCodes.reduce((sum, s) => sum + s.requests, 0);
    expect(rows.map(([code, requests]) => [code, requests])).to.deep.equal(
      expected.statusCodes.map((s) => [String(s.status), s.requests.toLocaleString('en-US')]),
    );
    const shares = rows.map(([, , share]) => Number(share!.replace('%', '')));
    expect(shares.reduce((a, b) => a + b, 0).toFixed(1)).to.equal('100.0');
    expected.statusCodes.forEach((s, i) => expect(Math.abs(shares[i]! - (s.requests / total) * 100)).to.be.at.most(0.1));
    const serverErrors = $$(el, '[part="status-codes"] tbody tr').find((row) => text(row.querySelector('th')) === '500')!;
    expect(serverErrors.querySelector<HTMLElement>('.badge')!.dataset['tone']).to.equal('danger');
  });

  it('names its busiest customers, each a drill-down', async () => {
    const expected = await detailOf('ep_4');
    const el = await endpointDetail();
    await loaded(el);
    const items = $$(el, '[part="customers"] li');
    expect(items.map((li) => text(li))).to.deep.equal(expected.topCustomers.map((c) => `${c.name} ${c.requests.toLocaleString('en-US')} requests`));
    const opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    items[0]!.querySelector<HTMLElement>('.link')!.click();
    const first = expected.topCustomers[0]!;
    expect((await opened).detail).to.deep.equal({ kind: 'customer', id: first.id, label: first.name });
  });

  it('lists only its own error records and its own latest requests', async () => {
    const el = await endpointDetail();
    await loaded(el);
    const errors = $(el, 'ops-error-list')!;
    const own = fixtures.errorRecords.filter((r) => r.endpoint === 'POST /webhooks');
    expect(own.length).to.be.lessThan(fixtures.errorRecords.length);
    await waitFor(() => $$(errors, 'tbody tr').length === own.length, 'its error records');
    expect($$(errors, 'tbody tr').map((row) => row.dataset['id'])).to.have.members(own.map((r) => r.id));
    const log = $(el, 'ops-request-log')!;
    await waitFor(() => $$(log, '[part="row"]').length > 0, 'its requests');
    for (const row of $$(log, '[part="row"]')) expect(text(row)).to.contain('POST /webhooks');
    expect(api.requests.some((url) => url.pathname.endsWith('/requests') && url.searchParams.get('endpointId') === 'ep_4')).to.equal(true);
  });

  it('leads back to the endpoints from its breadcrumb, cancelably', async () => {
    const el = await endpointDetail();
    await loaded(el);
    const opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    const cancel = (e: Event) => e.preventDefault();
    document.addEventListener('ops-navigate', cancel, { once: true });
    const before = location.href;
    $(el, '[part="breadcrumb"] a, [part="breadcrumb"] button')!.click();
    const event = await opened;
    expect(event.detail).to.include({ kind: 'endpoints' });
    expect(event.defaultPrevented).to.equal(true);
    expect(location.href).to.equal(before, 'the host took it over');
  });

  it('says an unknown endpoint was not found', async () => {
    const el = await endpointDetail('ep_gone');
    expect(text(await waitFor(() => $(el, '[part="error"]'), 'not found'))).to.match(/^Endpoint not found\./);
  });

  it('says when nothing called it: no codes, no customers', async () => {
    const row = fixtures.endpoints.find((e) => e.id === 'ep_3')!;
    const quiet = {
      ...row,
      daily: { days: ['2026-09-13', '2026-09-14'], requests: [0, 3], errors: [0, 0], p95Ms: [null, 120] },
      statusCodes: [],
      topCustomers: [],
    };
    api.use(http.get(`*${API_BASE}/endpoints/:id`, () => HttpResponse.json(quiet)));
    const el = await endpointDetail('ep_3');
    await loaded(el);
    expect($$(el, 'p.muted').map((p) => text(p))).to.include.members([
      'No requests in the last 30 days.',
      'No customer called this endpoint in the last 30 days.',
    ]);
    expect($(el, '[part="status-codes"]')).to.equal(null);
    // A day without requests has no latency: a dash, never "0 ms".
    const latency = $$<OpsChart>(el, 'ops-chart')[1]!;
    await waitFor(() => latency.shadowRoot!.querySelectorAll('tbody tr').length === 2, 'latency table');
    expect([...latency.shadowRoot!.querySelectorAll('tbody tr')].map((row) => text(row.querySelector('td')))).to.deep.equal(['—', '120 ms']);
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await endpointDetail();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load this endpoint\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await endpointDetail('ep_4', `theme=${theme}`);
      await loaded(el);
      await waitFor(() => $$($(el, 'ops-error-list')!, 'tbody tr').length > 0, 'error list');
      await expect(el).to.be.accessible();
    }
  });
});
