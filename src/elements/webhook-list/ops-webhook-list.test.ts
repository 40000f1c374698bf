import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { spokenText } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail, SortDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsWebhookList } from './ops-webhook-list.ts';

async function webhookList(extra = '') {
  return mount<OpsWebhookList>('ops-webhook-list', { 'time-zone': 'UTC', ...attrs(extra) });
}
const rows = (el: Element) => $$(el, 'tbody tr');
const names = (el: Element) => rows(el).map((row) => text(row.querySelector('th')));
const loaded = (el: Element) => waitFor(() => rows(el).length > 0 && !$(el, 'table[aria-busy="true"]'), 'rows');
const byName = [...fixtures.webhooks].sort((a, b) => a.name.localeCompare(b.name)).map((w) => w.name);

describe('ops-webhook-list', () => {
  const api = useMockApi();

  it('lists every webhook by name with customer, status, delivered, last sent and owner', async () => {
    const el = await webhookList();
    await loaded(el);
    expect(names(el)).to.deep.equal(byName);
    const failed = fixtures.webhooks.find((w) => w.id === 'wh_message_failed')!;
    const row = $(el, 'tr[data-id="wh_message_failed"]')!;
    expect([...row.querySelectorAll('td')].map((cell) => spokenText(cell))).to.deep.equal([
      failed.customer.name,
      failed.status,
      `${failed.deliveredPct.toFixed(1)}%`,
      '14 Sep 2026',
      failed.owner!.name,
    ]);
    expect(row.querySelector<HTMLElement>('.badge')!.dataset['tone']).to.equal('danger');
    expect($(el, 'thead th[aria-sort="ascending"]')!.textContent).to.contain('Webhook');
  });

  it('searches by name or customer through the API, and says when nothing matches', async () => {
    const el = await webhookList();
    await loaded(el);
    const search = $<HTMLInputElement>(el, 'input[type="search"]')!;
    search.value = 'umbrella';
    search.dispatchEvent(new Event('change'));
    await waitFor(() => names(el).join() === 'usage.threshold', 'searched by customer');
    expect(api.requests.at(-1)!.searchParams.get('q')).to.equal('umbrella');
    expect(el.getAttribute('q')).to.equal('umbrella');
    search.value = 'refund';
    search.dispatchEvent(new Event('change'));
    expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty'))).to.equal('No webhooks match “refund”.');
  });

  it('sorts through the API: delivered most first then flipped, last sent newest first, name Z–A', async () => {
    const el = await webhookList();
    await loaded(el);
    const header = (name: string) => $$<HTMLButtonElement>(el, 'thead button.sort').find((b) => text(b).startsWith(name))!;
    const sorted = nextEvent<CustomEvent<SortDetail>>(el, 'ops-sort');
    header('Delivered').click();
    expect((await sorted).detail).to.deep.equal({ sort: '-deliveredPct' });
    const mostFirst = [...fixtures.webhooks].sort((a, b) => b.deliveredPct - a.deliveredPct).map((w) => w.name);
    await waitFor(() => names(el).join() === mostFirst.join(), 'most delivered first');
    expect(api.requests.at(-1)!.searchParams.get('sort')).to.equal('-deliveredPct');
    header('Delivered').click();
    await waitFor(() => names(el).join() === [...mostFirst].reverse().join(), 'least delivered first');
    header('Last sent').click();
    const newestFirst = [...fixtures.webhooks].sort((a, b) => b.lastSentAt.localeCompare(a.lastSentAt)).map((w) => w.name);
    await waitFor(() => names(el).join() === newestFirst.join(), 'newest first');
    header('Webhook').click();
    await waitFor(() => names(el).join() === byName.join(), 'A–Z');
    header('Webhook').click();
    await waitFor(() => names(el).join() === [...byName].reverse().join(), 'Z–A');
    expect(el.getAttribute('sort')).to.equal('-name');
  });

  it('ignores an unknown sort with a warning, and lists by name', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => void warnings.push(message);
    try {
      const el = await webhookList('sort=status');
      await loaded(el);
      expect(api.requests.at(-1)!.searchParams.has('sort')).to.equal(false);
      expect(names(el)).to.deep.equal(byName);
      expect(warnings.some((w) => w.includes('ignored sort="status" on ops-webhook-list'))).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });

  it('leads to each webhook and to its customer, cancelably', async () => {
    const el = await webhookList();
    await loaded(el);
    let opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, 'tr[data-id="wh_invoice_paid"] .row-link')!.click();
    const event = await opened;
    expect(event.detail).to.deep.equal({ kind: 'webhook', id: 'wh_invoice_paid', label: 'invoice.paid' });
    expect(event.cancelable).to.equal(true);
    opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, 'tr[data-id="wh_invoice_paid"] td button, tr[data-id="wh_invoice_paid"] td a')!.click();
    expect((await opened).detail).to.deep.equal({ kind: 'customer', id: 'cus_acme', label: 'Acme Ltd' });
  });

  it('pages with "Load more"', async () => {
    const el = await webhookList('limit=2');
    await loaded(el);
    expect(names(el)).to.deep.equal(byName.slice(0, 2));
    $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
    await waitFor(() => names(el).length === 4, 'second page');
    expect(names(el)).to.deep.equal(byName);
    expect($(el, '[part="load-more"]')).to.equal(null);
  });

  it('shows an unknown status neutrally, and names as text, never markup', async () => {
    const odd = { ...fixtures.webhooks[0], name: '<img src=x onerror=alert(1)>', customer: { id: 'cus_x', name: '<b>Bold</b>' }, status: 'Paused' };
    api.use(http.get(`*${API_BASE}/webhooks`, () => HttpResponse.json({ items: [odd], nextCursor: null })));
    const el = await webhookList();
    await loaded(el);
    expect(names(el)).to.deep.equal(['<img src=x onerror=alert(1)>']);
    expect(spokenText($(el, 'tbody td'))).to.equal('<b>Bold</b>');
    expect($(el, 'tbody img, tbody b')).to.equal(null);
    expect($(el, 'tbody .badge')!.dataset['tone']).to.equal('neutral');
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await webhookList();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load webhooks\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
    expect(names(el)).to.deep.equal(byName);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await webhookList(`theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
