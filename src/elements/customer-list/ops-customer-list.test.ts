import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { spokenText } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail, SortDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsCustomerList } from './ops-customer-list.ts';

async function customerList(extra = '') {
  return mount<OpsCustomerList>('ops-customer-list', { 'time-zone': 'UTC', ...attrs(extra) });
}
const rows = (el: Element) => $$(el, 'tbody tr');
const names = (el: Element) => rows(el).map((row) => text(row.querySelector('th')));
const loaded = (el: Element) => waitFor(() => rows(el).length > 0 && !$(el, 'table[aria-busy="true"]'), 'rows');
const byName = [...fixtures.customers].sort((a, b) => a.name.localeCompare(b.name));

describe('ops-customer-list', () => {
  const api = useMockApi();

  it('lists every customer by name with status, plan, requests, errors, 429s, created and owner', async () => {
    const el = await customerList();
    await loaded(el);
    expect(names(el)).to.deep.equal(byName.map((c) => c.name));
    const acme = fixtures.customers.find((c) => c.id === 'cus_acme')!;
    const row = $(el, 'tr[data-id="cus_acme"]')!;
    expect([...row.querySelectorAll('td')].map((cell) => spokenText(cell))).to.deep.equal([
      acme.status,
      acme.plan,
      acme.requests.toLocaleString('en-US'),
      `${acme.errorPct.toFixed(1)}%`,
      String(acme.throttled),
      '02 Mar 2025',
      acme.owner.name,
    ]);
    expect($(el, 'thead th[aria-sort="ascending"]')!.textContent).to.contain('Customer');
  });

  it('searches by name through the API, and says when nothing matches', async () => {
    const el = await customerList();
    await loaded(el);
    const search = $<HTMLInputElement>(el, 'input[type="search"]')!;
    search.value = 'glob';
    search.dispatchEvent(new Event('change'));
    await waitFor(() => names(el).join() === 'Globex Corp', 'searched');
    expect(api.requests.at(-1)!.searchParams.get('q')).to.equal('glob');
    expect(el.getAttribute('q')).to.equal('glob');
    search.value = 'Wayne';
    search.dispatchEvent(new Event('change'));
    expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty'))).to.equal('No customers match “Wayne”.');
  });

  it('sorts through the API: requests most first then flipped, created newest first, name Z–A', async () => {
    const el = await customerList();
    await loaded(el);
    const header = (name: string) => $$<HTMLButtonElement>(el, 'thead button.sort').find((b) => text(b).startsWith(name))!;
    const sorted = nextEvent<CustomEvent<SortDetail>>(el, 'ops-sort');
    header('Requests').click();
    expect((await sorted).detail).to.deep.equal({ sort: '-requests' });
    const mostFirst = [...fixtures.customers].sort((a, b) => b.requests - a.requests).map((c) => c.name);
    await waitFor(() => names(el).join() === mostFirst.join(), 'most requests first');
    expect(api.requests.at(-1)!.searchParams.get('sort')).to.equal('-requests');
    header('Requests').click();
    await waitFor(() => names(el).join() === [...mostFirst].reverse().join(), 'fewest first');
    header('Created').click();
    const newestFirst = [...fixtures.customers].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((c) => c.name);
    await waitFor(() => names(el).join() === newestFirst.join(), 'newest first');
    header('Customer').click();
    await waitFor(() => names(el).join() === byName.map((c) => c.name).join(), 'A–Z');
    header('Customer').click();
    await waitFor(
      () =>
        names(el).join() ===
        [...byName]
          .reverse()
          .map((c) => c.name)
          .join(),
      'Z–A',
    );
    expect(el.getAttribute('sort')).to.equal('-name');
  });

  it('ignores an unknown sort with a warning, and lists by name', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => void warnings.push(message);
    try {
      const el = await customerList('sort=plan');
      await loaded(el);
      expect(api.requests.at(-1)!.searchParams.has('sort')).to.equal(false);
      expect(names(el)).to.deep.equal(byName.map((c) => c.name));
      expect(warnings.some((w) => w.includes('ignored sort="plan" on ops-customer-list'))).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });

  it('leads to each customer, cancelably', async () => {
    const el = await customerList();
    await loaded(el);
    const opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, 'tr[data-id="cus_globex"] .row-link')!.click();
    expect((await opened).detail).to.deep.equal({ kind: 'customer', id: 'cus_globex', label: 'Globex Corp' });
  });

  it('pages with "Load more"', async () => {
    const el = await customerList('limit=2');
    await loaded(el);
    expect(names(el)).to.have.length(2);
    $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
    await waitFor(() => names(el).length === 4, 'second page');
    expect(names(el)).to.deep.equal(byName.slice(0, 4).map((c) => c.name));
  });

  it('shows an unknown status neutrally, and a name as text, never markup', async () => {
    api.use(
      http.get(`*${API_BASE}/customers`, () =>
        HttpResponse.json({ items: [{ ...fixtures.customers[0], name: '<img src=x onerror=alert(1)>', status: 'Paused' }], nextCursor: null }),
      ),
    );
    const el = await customerList();
    await loaded(el);
    expect(names(el)).to.deep.equal(['<img src=x onerror=alert(1)>']);
    expect($(el, 'tbody img')).to.equal(null);
    expect($(el, 'tbody .badge')!.dataset['tone']).to.equal('neutral');
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await customerList();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load customers\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await customerList(`theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
