import { expect, fixture, html } from '@open-wc/testing';
import { fixtures } from '../../../mocks/index.ts';
import { $, $$, allowVirtualizerResizeNotice, text, waitFor } from '../../../test/dom.ts';
import { API_BASE, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail } from '../../shared/events.ts';
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
    const shown = maybeApp(host)?.shadowRoot?.querySelector<HTMLElement>(`main > ${tag}`);
    return shown?.shadowRoot?.querySelector(ready) ? shown : null;
  }, `${tag} shown`);
}
const current = (host: Element) => text($(app(host), 'nav a[aria-current="page"]'));
const hashChange = () => new Promise((resolve) => addEventListener('hashchange', resolve, { once: true }));

describe('ops-console routing', () => {
  useMockApi();
  allowVirtualizerResizeNotice();
  beforeEach(() => history.replaceState(null, '', START));
  afterEach(() => history.replaceState(null, '', START));

  it('is the whole console: from the overview to an endpoint, a request, a customer, and back with the browser', async () => {
    const host = await routedConsole();
    const overview = await view(host, 'ops-overview', '[part="figure"]');
    expect(current(host)).to.equal('Overview');
    expect($$(app(host), 'nav a').map((a) => text(a))).to.deep.equal([
      'Overview',
      'Endpoints',
      'Requests',
      'Traffic',
      'Customers',
      'Webhooks',
      'Errors',
      'Activity',
    ]);

    // The overview's table of recent endpoints: each row a real link into the console.
    const table = await waitFor(() => $(overview, 'ops-endpoint-table'), 'table');
    const row = await waitFor(() => $<HTMLAnchorElement>(table, 'tbody tr a.row-link'), 'endpoint link');
    expect(row.getAttribute('href')).to.equal('#/endpoints/ep_4');
    row.click();
    const endpoint = await view(host, 'ops-endpoint-detail', '.facts');
    expect(location.hash).to.equal('#/endpoints/ep_4');
    expect(endpoint.getAttribute('endpoint-id')).to.equal('ep_4');
    expect(current(host)).to.equal('Endpoints');
    expect(app(host).shadowRoot!.activeElement?.tagName).to.equal('MAIN', 'the new view has the focus');

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
