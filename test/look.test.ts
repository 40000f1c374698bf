/**
 * One look for one kind of thing across the elements: every detail page has the same header
 * (breadcrumb, then the name as title with the status badge beside it, neither repeated among
 * the facts), and a drill-down looks the same whether it is an <a> (the host gave a route) or a
 * <button> (it did not): underlined among other text, underlined only on hover as a row's name.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../src/all.ts';
import { $, $$, allowVirtualizerResizeNotice, nextFrames, text, waitFor } from './dom.ts';
import { mount } from './harness.ts';
import { facts } from './detail.ts';
import { API_BASE, useMockApi } from './mock-api.ts';

const ROUTES = {
  endpoint: '/ops/endpoints/{id}',
  endpoints: '/ops/endpoints',
  request: '/ops/requests/{id}',
  customer: '/ops/customers/{id}',
  customers: '/ops/customers',
  webhooks: '/ops/webhooks',
  errors: '/ops/errors',
};

/** `<tag>` inside `<ops-console>`, with drill-down routes or without; resolves once `ready` shows. */
async function mountRouted(tag: string, attrs: Record<string, string>, ready: string, routes: boolean) {
  const wrapper = await fixture<HTMLElement>(
    html`<ops-console api-base=${API_BASE} time-zone="UTC" style="--ops-color-accent: rgb(1, 2, 200)" .routes=${routes ? ROUTES : undefined}></ops-console>`,
  );
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  wrapper.append(el);
  await waitFor(() => $(el, ready), `${tag} loaded`);
  return el;
}

const look = (el: Element) => {
  const style = getComputedStyle(el);
  return {
    color: style.color,
    underline: style.textDecorationLine,
    font: `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`,
    background: style.backgroundColor,
  };
};

interface LinkCase {
  tag: string;
  attrs: Record<string, string>;
  ready: string;
  /** The drill-downs and whether they sit among other text (underlined) or name a row. */
  links: Record<string, 'text' | 'row'>;
}

const LINKS: LinkCase[] = [
  {
    tag: 'ops-webhook',
    attrs: { 'webhook-id': 'wh_invoice_paid' },
    ready: '.facts',
    links: { '[part="breadcrumb"] .crumb': 'text', '.fact .link': 'text', '.related .link': 'text' },
  },
  { tag: 'ops-customer', attrs: { 'customer-id': 'cus_acme' }, ready: '.facts', links: { '.related .link': 'text' } },
  { tag: 'ops-error', attrs: { 'error-id': 'err_500_webhooks' }, ready: '.facts', links: { '[part="breadcrumb"] .crumb': 'text', '.related .link': 'text' } },
  { tag: 'ops-overview', attrs: {}, ready: '[part="view-all"]', links: { '[part="view-all"]': 'text' } },
  { tag: 'ops-endpoint-table', attrs: {}, ready: '.row-link', links: { '.row-link': 'row' } },
  { tag: 'ops-request-log', attrs: {}, ready: '.row-link', links: { '.row-link': 'row' } },
];

describe('one look across the elements', () => {
  useMockApi();
  allowVirtualizerResizeNotice();

  for (const { tag, attrs, ready, links } of LINKS) {
    it(`${tag}: a drill-down looks the same as a link and as a button`, async () => {
      const linked = await mountRouted(tag, attrs, ready, true);
      const buttons = await mountRouted(tag, attrs, ready, false);
      for (const [selector, kind] of Object.entries(links)) {
        const a = $(linked, selector)!;
        const button = $(buttons, selector)!;
        // A list's crumb or "View all" always has an href (a fallback such as #webhooks); a record's drill-down needs a route.
        expect([a.localName, button.localName], selector).to.deep.equal(['a', /crumb|view-all/.test(selector) ? 'a' : 'button']);
        expect(look(button), `${selector} as a button`).to.deep.equal(look(a));
        expect(look(a).underline, `${selector} at rest`).to.equal(kind === 'text' ? 'underline' : 'none');
        expect(look(a).color, `${selector} in the accent colour`).to.equal('rgb(1, 2, 200)');
      }
    });
  }

  const RECORDS: { tag: string; attrs: Record<string, string>; crumbs: string; title: string; status: string }[] = [
    { tag: 'ops-customer', attrs: { 'customer-id': 'cus_acme' }, crumbs: 'Customers / Acme Ltd', title: 'Acme Ltd', status: 'Expired' },
    { tag: 'ops-webhook', attrs: { 'webhook-id': 'wh_invoice_paid' }, crumbs: 'Webhooks / invoice.paid', title: 'invoice.paid', status: 'Healthy' },
    { tag: 'ops-error', attrs: { 'error-id': 'err_500_webhooks' }, crumbs: 'Errors / 500 Server error', title: '500 Server error', status: 'Open' },
  ];
  for (const { tag, attrs, crumbs, title, status } of RECORDS) {
    it(`${tag}: the shared header, with the name and status said once`, async () => {
      const el = await mountRouted(tag, attrs, '.facts', false);
      const header = $(el, '[part="header"]')!;
      expect(text(header.querySelector('[part="breadcrumb"]'))).to.equal(crumbs);
      // The heading names the record alone; the status beside it is labelled for screen readers.
      expect(text(header.querySelector('h2'))).to.equal(title);
      expect(text(header.querySelector('.title-status'))).to.equal(`Status: ${status}`);
      expect(text(header.querySelector('.title .badge'))).to.equal(status);
      const shown = facts(el);
      expect(Object.keys(shown)).not.to.include('Status');
      expect(Object.values(shown)).not.to.include(title);
      expect($$(el, '.facts .badge')).to.have.length(0);
    });
  }

  for (const tag of ['ops-overview', 'ops-traffic']) {
    it(`${tag}: figure cards side by side wrap their change lines alike, at every width`, async () => {
      const el = await mount(tag, {}, { width: 'auto' });
      await waitFor(() => $$(el, '.figure .change').length >= 4, 'figures');
      const uneven: string[] = [];
      for (let width = 400; width <= 1400; width += 25) {
        el.parentElement!.style.width = `${width}px`;
        await nextFrames();
        // Cards of one width in one row: their change lines take the same number of lines.
        const rowsOfCards = new Map<string, Set<number>>();
        for (const card of $$(el, '.figure')) {
          const change = card.querySelector('.change');
          if (!change) continue;
          const box = card.getBoundingClientRect();
          const key = `${Math.round(box.top)}:${Math.round(box.width)}`;
          rowsOfCards.set(key, (rowsOfCards.get(key) ?? new Set()).add(Math.round(change.getBoundingClientRect().height)));
        }
        for (const [key, heights] of rowsOfCards) if (heights.size > 1) uneven.push(`${width} px, cards at ${key}: ${[...heights].join(' and ')} px`);
      }
      expect(uneven).to.deep.equal([]);
    });
  }

  it('ops-customer: "Customers" links only where the host has a customers page', async () => {
    const plain = await mountRouted('ops-customer', { 'customer-id': 'cus_acme' }, '.facts', false);
    const crumbs = $(plain, '[part="breadcrumb"]')!;
    expect(text(crumbs)).to.equal('Customers / Acme Ltd');
    expect(crumbs.querySelectorAll('a, button')).to.have.length(0);
    const routed = await mountRouted('ops-customer', { 'customer-id': 'cus_acme' }, '.facts', true);
    expect($(routed, '[part="breadcrumb"] a')!.getAttribute('href')).to.equal('/ops/customers');
    const own = await mountRouted('ops-customer', { 'customer-id': 'cus_acme', 'customers-href': '/crm/customers' }, '.facts', false);
    expect($(own, '[part="breadcrumb"] a')!.getAttribute('href')).to.equal('/crm/customers');
  });

  it('ops-error-form: the same header, titled "New error"', async () => {
    const el = await mountRouted('ops-error-form', {}, 'form', false);
    const header = $(el, '[part="header"]')!;
    expect(text(header.querySelector('[part="breadcrumb"]'))).to.equal('Errors / New');
    expect(text(header.querySelector('h2'))).to.equal('New error');
  });
});
