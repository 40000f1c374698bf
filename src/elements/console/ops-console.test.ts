import { expect, fixture, html } from '@open-wc/testing';
import { fixtures } from '../../../mocks/index.ts';
import { $, $$, allowVirtualizerResizeNotice, text, waitFor } from '../../../test/dom.ts';
import { API_BASE, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import { ELEMENTS, type ElementEntry } from '../registry.ts';
import './define.ts';
import type { OpsConsole } from './ops-console.ts';

const START = location.href;

async function routedConsole(attributes: Record<string, string> = { routing: 'hash' }): Promise<OpsConsole> {
  const host = document.createElement('ops-console');
  for (const [name, value] of Object.entries({ 'api-base': API_BASE, 'time-zone': 'UTC', locale: 'en-US', ...attributes })) host.setAttribute(name, value);
  return fixture<OpsConsole>(html`${host}`);
}
const app = (host: Element) => host.shadowRoot!.querySelector('ops-console-app')!;
const maybeApp = (host: Element): Element | null => host.shadowRoot!.querySelector('ops-console-app');
/** The view the console shows now, once it has loaded its first part. */
async function view(host: Element, tag: string, ready: string): Promise<HTMLElement> {
  return waitFor(() => {
    const shown = maybeApp(host)?.shadowRoot?.querySelector<HTMLElement>(`.view > ${tag}`);
    return shown?.shadowRoot?.querySelector(ready) ? shown : null;
  }, `${tag} shown`);
}
const current = (host: Element) => text($(app(host), 'nav a[aria-current]'));
const hashChange = () => new Promise((resolve) => addEventListener('hashchange', resolve, { once: true }));

describe('ops-console routing', () => {
  const mockApi = useMockApi();
  allowVirtualizerResizeNotice();
  beforeEach(() => history.replaceState(null, '', START));
  afterEach(() => history.replaceState(null, '', START));

  it('is the whole console: from the overview to an endpoint, a request, a customer, and back with the browser', async () => {
    const host = await routedConsole();
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    expect(current(host)).to.equal('Overview');
    // One link per page with a section, in the registry's order: a page added there is in the navigation.
    expect($$(app(host), 'nav a').map((a) => text(a))).to.deep.equal(
      (ELEMENTS as readonly ElementEntry[]).flatMap((e) => (e.view?.section ? [e.view.section] : [])),
    );
    expect($$(app(host), 'nav a').map((a) => text(a))).to.include.members(['Overview', 'Endpoints', 'Requests', 'Keys', 'Alert rules']);

    // The overview's table of recent endpoints: each row a real link into the console.
    const table = await waitFor(() => $(overview, 'ops-endpoint-table'), 'table');
    const row = await waitFor(() => $<HTMLAnchorElement>(table, 'tbody tr a.row-link'), 'endpoint link');
    expect(row.getAttribute('href')).to.equal('#/endpoints/ep_4');
    row.click();
    const endpoint = await view(host, 'ops-endpoint-detail', '.facts');
    expect(location.hash).to.equal('#/endpoints/ep_4');
    expect(endpoint.getAttribute('endpoint-id')).to.equal('ep_4');
    expect(current(host)).to.equal('Endpoints');
    expect(app(host).shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Endpoints', 'the new view has the focus, named by its section');
    expect($(app(host), 'nav a[href="#/endpoints"]')!.getAttribute('aria-current')).to.equal('true', 'a page within the section, not the section’s own');

    const log = await waitFor(() => $(endpoint, 'ops-request-log'), 'its log');
    const request = await waitFor(() => $<HTMLAnchorElement>(log, '[part="row"] a.row-link'), 'a request');
    const requestId = request.getAttribute('href')!.replace('#/requests/', '');
    request.click();
    const detail = await view(host, 'ops-request-detail', '.facts');
    expect(detail.getAttribute('request-id')).to.equal(requestId);
    expect(current(host)).to.equal('Requests');

    const customerLink = $$<HTMLAnchorElement>(detail, '.fact a').find((a) => a.getAttribute('href')!.startsWith('#/customers/'))!;
    const customerId = customerLink.getAttribute('href')!.replace('#/customers/', '');
    customerLink.click();
    const customer = await view(host, 'ops-customer', '.facts');
    expect(customer.getAttribute('customer-id')).to.equal(customerId);
    expect(text($(customer, 'h2'))).to.contain(fixtures.customers.find((c) => c.id === customerId)!.name);

    history.back();
    await hashChange();
    expect((await view(host, 'ops-request-detail', '.facts')).getAttribute('request-id')).to.equal(requestId);
    history.back();
    await hashChange();
    expect((await view(host, 'ops-endpoint-detail', '.facts')).getAttribute('endpoint-id')).to.equal('ep_4');
    history.back();
    await hashChange();
    await view(host, 'ops-overview', '[part="figure"]');
    expect(current(host)).to.equal('Overview');
  });

  it('changes the range once for every view: the address keeps it, the links carry it, a chart day leads to its requests, and back returns to the range before', async () => {
    const api = mockApi;
    const host = await routedConsole();
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    expect($$(overview, '.figure-label').map(text)[0]).to.equal('Requests this month', 'the default periods first');
    const control = $(app(host), 'nav ops-time-range')!;
    const select = await waitFor(() => $<HTMLSelectElement>(control, 'select'), 'range select');
    expect(select.value).to.equal('');
    select.value = '24h';
    select.dispatchEvent(new Event('change'));
    await hashChange();
    expect(location.hash).to.equal('#/?range=24h');
    // The overview and the table inside it ask for the range and say what they compare with.
    await waitFor(() => $$(overview, '.figure-label').map(text)[0] === 'Requests', 'ranged figures');
    expect(text($(overview, '.versus'))).to.equal('vs previous 24 h');
    await waitFor(() => api.requests.some((r) => r.pathname.endsWith('/endpoints') && r.searchParams.get('range') === '24h'), 'the table asks for the range');
    expect(select.value).to.equal('24h');
    // Every section's link and every drill-down keep it.
    expect($(app(host), 'nav a[href^="#/traffic"]')!.getAttribute('href')).to.equal('#/traffic?range=24h');
    const row = await waitFor(() => $<HTMLAnchorElement>($(overview, 'ops-endpoint-table')!, 'tbody tr a.row-link'), 'endpoint link');
    expect(row.getAttribute('href')).to.match(/^#\/endpoints\/ep_\d+\?range=24h$/);
    $<HTMLAnchorElement>(app(host), 'nav a[href^="#/traffic"]')!.click();
    const traffic = await view(host, 'ops-traffic', '[part="metric"]');
    expect(text($(traffic, '.versus'))).to.equal('vs previous 24 h');
    // An hour of the traffic chart opens the request log of that hour.
    const chart = $(traffic, 'ops-chart')!;
    const hour = await waitFor(() => chart.shadowRoot!.querySelector<HTMLAnchorElement>('tbody tr:nth-last-child(2) th a'), 'an hour as a link');
    const from = new URLSearchParams(hour.getAttribute('href')!.split('?')[1]).get('from')!;
    hour.click();
    const log = await view(host, 'ops-request-log', '[part="row"]');
    expect(log.closest('ops-console')).to.equal(null, 'inside the console’s view');
    const times = await waitFor(() => {
      const shown = $$(log, '[part="row"] time').map((t) => Date.parse(t.getAttribute('datetime')!));
      return shown.length ? shown : null;
    }, 'the hour’s requests');
    for (const time of times) expect(time >= Date.parse(from) && time < Date.parse(from) + 3_600_000, 'within the hour').to.equal(true);
    expect($<HTMLSelectElement>(control, 'select')!.value).to.equal('custom', 'the control shows the hour as a custom range');
    // Back, and back again: the 24 hours, then the default periods.
    history.back();
    await view(host, 'ops-traffic', '[part="metric"]');
    expect(new URLSearchParams(location.hash.split('?')[1]).get('range')).to.equal('24h');
    await waitFor(() => $<HTMLSelectElement>(control, 'select')!.value === '24h', 'the control shows the 24 hours again');
    history.back();
    history.back();
    await waitFor(() => location.hash === '' || location.hash === '#/', 'at the start');
    await waitFor(() => $<HTMLSelectElement>(control, 'select')!.value === '', 'the default periods again');
  });

  it('opens a deep link, leads from the errors to a new record and to the record it saved', async () => {
    history.replaceState(null, '', '#/errors/err_500_webhooks');
    const host = await routedConsole();
    const error = await view(host, 'ops-error', '.facts');
    expect(error.getAttribute('error-id')).to.equal('err_500_webhooks');
    expect(current(host)).to.equal('Errors');
    $<HTMLAnchorElement>(app(host), 'nav a[href="#/errors"]')!.click();
    const list = await view(host, 'ops-error-list', 'tbody tr');
    $<HTMLAnchorElement>(list, 'a[href="#/errors/new"]')!.click();
    await view(host, 'ops-error-form', 'form');
    expect(location.hash).to.equal('#/errors/new');
  });

  it('says when an address names no page, and leads to the overview', async () => {
    history.replaceState(null, '', '#/nowhere');
    const host = await routedConsole();
    const notFound = await waitFor(() => $(app(host), '.not-found'), 'not found');
    expect(text(notFound)).to.equal('There is no such page in this console. Go to the overview');
    notFound.querySelector('a')!.click();
    await view(host, 'ops-overview', '[part="figure"]');
  });

  it('with routing="history", moves by the address under base-path without loading a page, and back', async () => {
    const host = await routedConsole({ routing: 'history', 'base-path': '/console-test/' });
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    const table = await waitFor(() => $(overview, 'ops-endpoint-table'), 'table');
    const row = await waitFor(() => $<HTMLAnchorElement>(table, 'tbody tr a.row-link'), 'endpoint link');
    expect(row.getAttribute('href')).to.equal('/console-test/endpoints/ep_4');
    const seen: NavigateDetail[] = [];
    host.addEventListener('ops-navigate', (e) => seen.push(e.detail));
    row.click();
    await view(host, 'ops-endpoint-detail', '.facts');
    expect(location.pathname).to.equal('/console-test/endpoints/ep_4');
    expect(seen.map((d) => d.kind)).to.deep.equal(['endpoint'], 'the host still hears the drill-down');
    history.back();
    await view(host, 'ops-overview', '[part="figure"]');
    expect(location.href).to.equal(START);
  });

  it('opens the overview’s share group as the endpoints searched for it, from the address’s query', async () => {
    const host = await routedConsole();
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    const group = await waitFor(() => $<HTMLAnchorElement>(overview, '[part="shares"] .share-group a'), 'a share group');
    expect(group.getAttribute('href')).to.equal('#/endpoints?q=%2Fmessages');
    group.click();
    const table = await view(host, 'ops-endpoint-table', 'tbody tr');
    expect(table.getAttribute('q')).to.equal('/messages');
    await waitFor(() => $$(table, 'tbody tr').every((row) => text(row.querySelector('th')).includes('/messages')), 'only /messages rows');
    expect(current(host)).to.equal('Endpoints');
  });

  it('leads from the overview’s Active keys to the keys in use, and from a key to its requests', async () => {
    const host = await routedConsole();
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    const activeKeys = await waitFor(() => $$<HTMLAnchorElement>(overview, '[part="figure"] a').find((a) => text(a) === 'Active keys'), 'the Active keys link');
    expect(activeKeys.getAttribute('href')).to.equal('#/keys?status=Active');
    activeKeys.click();
    const keys = await view(host, 'ops-key-list', 'tbody tr');
    expect(keys.getAttribute('status')).to.equal('Active');
    expect(current(host)).to.equal('Keys');
    await waitFor(() => $$(keys, 'tbody .badge').every((badge) => text(badge) === 'Active'), 'only active keys');
    const key = await waitFor(() => $<HTMLAnchorElement>(keys, 'tbody tr a.row-link'), 'a key');
    const keyId = key.getAttribute('href')!.replace('#/keys/', '');
    key.click();
    const page = await view(host, 'ops-key', '.facts');
    expect(page.getAttribute('key-id')).to.equal(keyId);
    const all = await waitFor(() => $$<HTMLAnchorElement>(page, 'a.link').find((a) => text(a) === 'All requests with this key'), 'its requests');
    expect(all.getAttribute('href')).to.equal(`#/requests?keyId=${keyId}`);
    all.click();
    const log = await view(host, 'ops-request-log', '[part="toolbar"]');
    expect(log.getAttribute('key-id')).to.equal(keyId);
  });

  it('keeps the console’s own links where the host gives routes for some kinds only', async () => {
    const host = document.createElement('ops-console');
    host.setAttribute('routing', 'hash');
    host.setAttribute('api-base', API_BASE);
    host.routes = { customer: '/crm/customers/{id}' };
    await fixture(html`${host}`);
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    const table = await waitFor(() => $(overview, 'ops-endpoint-table'), 'table');
    expect((await waitFor(() => $<HTMLAnchorElement>(table, 'tbody tr a.row-link'), 'endpoint link')).getAttribute('href')).to.equal('#/endpoints/ep_4');
    history.replaceState(null, '', '#/requests/rq_59645962');
    dispatchEvent(new HashChangeEvent('hashchange'));
    const detail = await view(host, 'ops-request-detail', '.facts');
    expect($$<HTMLAnchorElement>(detail, '.fact a').map((a) => a.getAttribute('href')!.split('/').slice(0, 3).join('/'))).to.include('/crm/customers');
  });

  it('leaves the host’s own anchors alone (a skip link’s #main)', async () => {
    const host = await routedConsole();
    await view(host, 'ops-overview', '[part="figure"]');
    location.hash = '#main';
    await hashChange();
    await view(host, 'ops-overview', '[part="figure"]');
    expect($(app(host), '.not-found')).to.equal(null);
  });

  it('passes axe: one navigation, the view a named region, no second main landmark', async () => {
    const host = await routedConsole();
    await view(host, 'ops-overview', '[part="figure"]');
    expect($(app(host), 'main')).to.equal(null);
    await expect(app(host)).to.be.accessible();
  });

  it('with routing="history", its navigation moves without loading a page, and a host that cancels a drill-down routes it itself', async () => {
    const host = await routedConsole({ routing: 'history', 'base-path': '/console-test' });
    await view(host, 'ops-overview', '[part="figure"]');
    const marker = Symbol('page');
    (window as unknown as Record<symbol, boolean>)[marker] = true;
    $<HTMLAnchorElement>(app(host), 'nav a[href="/console-test/traffic"]')!.click();
    await view(host, 'ops-traffic', '[part="metric"]');
    expect(location.pathname).to.equal('/console-test/traffic');
    expect((window as unknown as Record<symbol, boolean>)[marker]).to.equal(true, 'the same page');
    history.back();
    // The overview drawn anew on the way back.
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    const cancel = (e: Event) => e.preventDefault();
    document.addEventListener('ops-navigate', cancel);
    try {
      const table = await waitFor(() => $(overview, 'ops-endpoint-table'), 'table');
      (await waitFor(() => $<HTMLAnchorElement>(table, 'tbody tr a.row-link'), 'endpoint link')).click();
      await new Promise((r) => setTimeout(r, 100));
      expect(location.href).to.equal(START, 'the host took it over');
      expect(maybeApp(host)!.shadowRoot!.querySelector('.view > ops-overview')).not.to.equal(null);
    } finally {
      document.removeEventListener('ops-navigate', cancel);
    }
  });

  it('stays the invisible provider without routing, and ignores an unknown mode', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => void warnings.push(message);
    try {
      const plain = await routedConsole({});
      expect(plain.shadowRoot!.querySelector('ops-console-app')).to.equal(null);
      const odd = await routedConsole({ routing: 'tabs' });
      expect(odd.shadowRoot!.querySelector('ops-console-app')).to.equal(null);
      expect(warnings.some((w) => w.includes('ignored routing="tabs"'))).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });
});
