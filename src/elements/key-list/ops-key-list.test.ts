import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { createConsoleClient } from '../../api/client.ts';
import type { KeySummary } from '../../api/schemas.ts';
import { spokenText } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail, SortDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsKeyList } from './ops-key-list.ts';

async function keyList(extra = '') {
  return mount<OpsKeyList>('ops-key-list', { 'time-zone': 'UTC', ...attrs(extra) });
}
const rows = (el: Element) => $$(el, 'tbody tr');
const ids = (el: Element) => rows(el).map((row) => row.dataset['id']);
const loaded = (el: Element) => waitFor(() => rows(el).length > 0 && !$(el, 'table[aria-busy="true"]'), 'rows');
const client = () => createConsoleClient({ baseUrl: API_BASE });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
/** `14 Sep 2026 at 09:41` in UTC, as the seed writes a time. */
const when = (iso: string) => {
  const d = new Date(iso);
  return `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
};

describe('ops-key-list', () => {
  const api = useMockApi();

  it('lists every key busiest first with status, customer, requests, errors, p95, 429s, last use and creation', async () => {
    const expected = (await client().listKeys()).items;
    const el = await keyList();
    await loaded(el);
    expect(ids(el)).to.deep.equal(expected.map((k) => k.id));
    const acme = expected.find((k) => k.id === 'key_live_acme_0')!;
    const row = $(el, 'tr[data-id="key_live_acme_0"]')!;
    expect(text(row.querySelector('th'))).to.equal('Production key_live_acme_0');
    expect([...row.querySelectorAll('td')].map((cell) => spokenText(cell))).to.deep.equal([
      'Active',
      'Acme Ltd',
      acme.requests.toLocaleString('en-US'),
      `${acme.errorPct.toFixed(1)}%`,
      `${acme.p95Ms} ms`,
      acme.throttled.toLocaleString('en-US'),
      when(acme.lastUsedAt!),
      when(acme.createdAt!),
    ]);
  });

  it('shows a key nobody registered by its id, Unregistered, without customer or creation', async () => {
    const el = await keyList();
    await loaded(el);
    const row = $(el, 'tr[data-id="key_live_hooli_0"]')!;
    expect(text(row.querySelector('th'))).to.equal('key_live_hooli_0');
    const cells = [...row.querySelectorAll('td')].map((cell) => spokenText(cell));
    expect([cells[0], cells[1], cells.at(-1)]).to.deep.equal(['Unregistered', '—', '—']);
    expect(row.querySelector('.badge')!.getAttribute('data-tone')).to.equal('warning');
  });

  it('filters by status through the API, and says when none has it', async () => {
    const el = await keyList();
    await loaded(el);
    const select = $<HTMLSelectElement>(el, 'select')!;
    select.value = 'Revoked';
    select.dispatchEvent(new Event('change'));
    await waitFor(() => ids(el).join() === 'key_live_initech_2', 'the revoked key');
    expect(api.requests.at(-1)!.searchParams.get('status')).to.equal('Revoked');
    expect(el.getAttribute('status')).to.equal('Revoked');
    api.use(http.get(`*${API_BASE}/keys`, () => HttpResponse.json({ items: [], nextCursor: null })));
    el.status = 'Idle';
    expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty'))).to.equal('No Idle API keys.');
  });

  it('searches by name, id or customer through the API', async () => {
    const el = await keyList();
    await loaded(el);
    const search = $<HTMLInputElement>(el, 'input[type="search"]')!;
    search.value = 'globex';
    search.dispatchEvent(new Event('change'));
    await waitFor(() => ids(el).length === 3 && ids(el).every((id) => id!.startsWith('key_live_globex_')), 'Globex’s keys');
    expect(api.requests.at(-1)!.searchParams.get('q')).to.equal('globex');
    search.value = 'nobody';
    search.dispatchEvent(new Event('change'));
    expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty'))).to.equal('No API keys match “nobody”.');
  });

  it('lists one customer’s keys, sorted by the API', async () => {
    const el = await keyList('customer-id=cus_initech&sort=name');
    await loaded(el);
    expect(api.requests.at(-1)!.searchParams.get('customerId')).to.equal('cus_initech');
    expect(rows(el).map((row) => text(row.querySelector('th .row-link')))).to.deep.equal(['CI', 'Production', 'Staging']);
    const sorted = nextEvent<CustomEvent<SortDetail>>(el, 'ops-sort');
    $$<HTMLButtonElement>(el, 'thead button.sort')
      .find((b) => text(b).startsWith('Last used'))!
      .click();
    expect((await sorted).detail).to.deep.equal({ sort: '-lastUsedAt' });
    await waitFor(() => api.requests.at(-1)!.searchParams.get('sort') === '-lastUsedAt', 'sorted by the API');
  });

  it('leads to each key and its customer, cancelably', async () => {
    const el = await keyList();
    await loaded(el);
    const opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, 'tr[data-id="key_live_globex_1"] .row-link')!.click();
    expect((await opened).detail).to.deep.equal({ kind: 'key', id: 'key_live_globex_1', label: 'Staging' });
    const customer = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $$<HTMLButtonElement>(el, 'tr[data-id="key_live_globex_1"] td button')[0]!.click();
    expect((await customer).detail).to.deep.equal({ kind: 'customer', id: 'cus_globex', label: 'Globex Corp' });
  });

  it('shows names as text and an unknown status neutrally', async () => {
    const odd: KeySummary = {
      id: 'key_x',
      name: '<img src=x onerror=alert(1)>',
      customer: null,
      createdAt: null,
      revokedAt: null,
      lastUsedAt: null,
      requests: 0,
      errorPct: 0,
      p95Ms: null,
      throttled: 0,
      status: 'Suspended',
    };
    api.use(http.get(`*${API_BASE}/keys`, () => HttpResponse.json({ items: [odd], nextCursor: null })));
    const el = await keyList();
    await loaded(el);
    expect(text($(el, 'tbody th .row-link'))).to.equal('<img src=x onerror=alert(1)>');
    expect($(el, 'tbody img')).to.equal(null);
    expect($(el, 'tbody .badge')!.dataset['tone']).to.equal('neutral');
    expect(spokenText($$(el, 'tbody td').at(-2)!)).to.equal('Never');
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await keyList();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load API keys\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await keyList(`theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
