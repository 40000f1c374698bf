/**
 * `audience="customer"`: each element a customer's console shows, on the mock API, without the
 * operators' parts (customers, owners, notes, error records, activity) and worded for the
 * customer; and the routed console with only the customer's pages.
 */
import { expect } from '@open-wc/testing';
import { http } from 'msw';
import { fixtures } from '../mocks/index.ts';
import '../src/all.ts';
import { OPERATOR_TAGS } from '../src/shared/view-paths.ts';
import { $, $$, descendants, text, waitFor } from './dom.ts';
import { mount } from './harness.ts';
import { useMockApi } from './mock-api.ts';

/** All the text a person reads in `el`, through its shadow roots and the panels inside. */
function everything(el: Element): { text: string; hrefs: string[]; tags: string[] } {
  const all = [...descendants(el.shadowRoot!)];
  const roots = [el.shadowRoot!, ...all.flatMap((node) => (node.shadowRoot ? [node.shadowRoot] : []))];
  return {
    text: roots.map((root) => root.textContent).join(' '),
    hrefs: all.flatMap((node) => (node instanceof HTMLAnchorElement ? [node.getAttribute('href') ?? ''] : [])),
    tags: all.map((node) => node.localName),
  };
}

const OPERATOR_WORDS = ['Account owner', 'Top customers', 'Error records', 'Latest activity', 'alert firing'];

describe('audience="customer"', () => {
  const api = useMockApi();

  const cases: [tag: string, attrs: Record<string, string>, loaded: string][] = [
    ['ops-overview', {}, '[part="figure"]'],
    ['ops-endpoint-detail', { 'endpoint-id': 'ep_4' }, '.facts'],
    ['ops-request-log', {}, '[part="row"]'],
    ['ops-request-detail', { 'request-id': 'rq_59645962' }, '.facts'],
    ['ops-key-list', {}, 'tbody tr'],
    ['ops-key', { 'key-id': 'key_live_acme_0' }, '.facts'],
    ['ops-webhook-list', {}, 'tbody tr'],
    ['ops-webhook', { 'webhook-id': 'wh_invoice_paid' }, '.facts'],
  ];
  for (const [tag, attrs, loaded] of cases)
    it(`${tag} leaves out the operators’ parts and links nowhere a customer’s console has no page`, async () => {
      const operator = await mount(tag, { ...attrs }, { wrapper: { routing: 'hash' } });
      await waitFor(() => $(operator, loaded), `${tag} loaded`);
      const customer = await mount(tag, { ...attrs }, { wrapper: { routing: 'hash', audience: 'customer' } });
      await waitFor(() => $(customer, loaded), `${tag} loaded for a customer`);
      const seen = everything(customer);
      for (const words of OPERATOR_WORDS) expect(seen.text, `${tag}: ${words}`).not.to.contain(words);
      expect(seen.hrefs.filter((href) => /^#\/(customers|errors|activity|versions)/.test(href))).to.deep.equal([]);
      expect(seen.tags).not.to.include.members(['ops-activity-feed', 'ops-error-list', 'textarea']);
      // The same element for an operator does link to customers (so the check above can fail).
      if (['ops-request-detail', 'ops-key-list', 'ops-key', 'ops-webhook-list', 'ops-webhook'].includes(tag))
        await waitFor(() => everything(operator).hrefs.some((href) => href.startsWith('#/customers/')), `${tag} links a customer for an operator`);
    });

  it('the overview speaks to the customer: its requests, by its name, without the activity feed', async () => {
    const el = await mount('ops-overview', { audience: 'customer' });
    await waitFor(() => $(el, '[part="figure"]'), 'figures');
    const labels = $$(el, '.figure-label').map((label) => text(label));
    expect(labels).to.deep.equal(['Your requests this month', 'Your requests today', 'Your error rate', 'Your P95 latency', 'Your active keys']);
    expect(text($(el, '[part="greeting"]'))).to.match(new RegExp(`, ${fixtures.overview.owner.name}$`));
    expect($(el, 'ops-activity-feed')).to.equal(null);
  });

  it('an operators’ panel on a customer’s page shows nothing and asks the API nothing', async () => {
    const asked: string[] = [];
    api.use(
      http.all('*', ({ request }) => {
        asked.push(new URL(request.url).pathname);
      }),
    );
    // Every operators' panel the registry names, with the ids each might want.
    expect(OPERATOR_TAGS).to.include.members(['ops-customer', 'ops-error-form', 'ops-activity-feed', 'ops-alerts', 'ops-slo']);
    const els = await Promise.all(
      OPERATOR_TAGS.map((tag) =>
        mount(tag, { audience: 'customer', 'customer-id': 'cus_acme', 'error-id': 'err_1', 'slo-id': 'slo_1', 'refresh-interval': '1000' }),
      ),
    );
    // The same page's operator panel loads meanwhile: by then the others would have asked too.
    const operator = await mount('ops-customer-list');
    await waitFor(() => $(operator, 'tbody tr'), 'the operator’s list');
    for (const el of els) expect(el.shadowRoot?.childElementCount ?? 0, el.localName).to.equal(0);
    expect(asked.filter((path) => path.startsWith('/api/') && !path.endsWith('/customers'))).to.deep.equal([]);
  });

  it('the request log has no Customer filter; an operator’s has', async () => {
    const customer = await mount('ops-request-log', { audience: 'customer' });
    const operator = await mount('ops-request-log');
    await waitFor(() => $(operator, '.customer-filter') && $(customer, '.key-filter'), 'toolbars');
    expect($(customer, '.customer-filter')).to.equal(null);
  });

  it('the routed console for a customer has only the customer’s sections and pages', async () => {
    location.hash = '#/customers';
    const host = document.createElement('ops-console');
    host.setAttribute('routing', 'hash');
    host.setAttribute('audience', 'customer');
    host.setAttribute('api-base', '/api/v1');
    document.body.append(host);
    try {
      const app = await waitFor(
        () => host.shadowRoot?.querySelector('ops-console-app')?.shadowRoot?.querySelector('nav a') && host.shadowRoot.querySelector('ops-console-app')!,
        'the console',
      );
      expect([...app.shadowRoot!.querySelectorAll('nav a')].map((a) => text(a))).to.deep.equal([
        'Overview',
        'Endpoints',
        'Requests',
        'Traffic',
        'Keys',
        'Webhooks',
      ]);
      await waitFor(() => app.shadowRoot!.querySelector('.not-found'), 'no customers page');
      location.hash = '#/keys';
      await waitFor(() => app.shadowRoot!.querySelector('ops-key-list'), 'the keys page');
    } finally {
      host.remove();
      location.hash = '';
    }
  });
});
