import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { createConsoleClient } from '../../api/client.ts';
import { facts } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsKey } from './ops-key.ts';

async function keyPage(id: string, extra = '') {
  return mount<OpsKey>('ops-key', { 'key-id': id, 'time-zone': 'UTC', ...attrs(extra) });
}
const loaded = (el: Element) => waitFor(() => $(el, '.facts'), 'facts');
const client = () => createConsoleClient({ baseUrl: API_BASE });
const tableRows = (el: Element, part: string) => $$(el, `[part="${part}"] tbody tr`).map((row) => [...row.children].map((cell) => text(cell)));

describe('ops-key', () => {
  const api = useMockApi();

  it('shows "API keys / <name>", its status and its facts', async () => {
    const expected = await client().getKey('key_live_acme_0');
    const el = await keyPage('key_live_acme_0');
    await loaded(el);
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('API keys / Production');
    expect(text($(el, '.title .badge'))).to.equal('Active');
    const shown = facts(el);
    expect(shown).to.include({
      Key: 'key_live_acme_0',
      Customer: 'Acme Ltd',
      Requests: expected.requests.toLocaleString('en-US'),
      Errors: `${expected.errorPct.toFixed(1)}%`,
      P95: `${expected.p95Ms} ms`,
      '429s': String(expected.throttled),
    });
    expect(shown).to.not.have.property('Revoked');
    expect(shown).to.not.have.property('Used after revocation');
  });

  it('charts its requests and server errors in the range’s buckets, each bucket leading to its requests', async () => {
    const expected = await client().getKey('key_live_acme_0', {}, { range: '24h' });
    const el = await keyPage('key_live_acme_0', 'range=24h');
    await loaded(el);
    const chart = $<OpsChart>(el, 'ops-chart')!;
    expect(chart.data!.categories).to.deep.equal(expected.overTime.starts.map((s) => s.slice(11, 16)));
    expect(chart.data!.series.map((s) => s.values)).to.deep.equal([expected.overTime.requests, expected.overTime.errors]);
    const fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    chart.dispatchEvent(new CustomEvent('ops-chart-select', { detail: { index: 1 } }));
    expect((await fired).detail).to.include({ kind: 'requests', keyId: 'key_live_acme_0', from: expected.overTime.starts[1], to: expected.overTime.starts[2] });
  });

  it('lists the endpoints and versions it called, with shares that add up to 100.0%', async () => {
    const expected = await client().getKey('key_live_acme_0');
    const el = await keyPage('key_live_acme_0');
    await loaded(el);
    const endpoints = tableRows(el, 'endpoints');
    expect(endpoints.map((row) => row[0])).to.deep.equal(expected.endpoints.map((e) => e.label));
    expect(endpoints.map((row) => row[2])).to.deep.equal(expected.endpoints.map((e) => e.requests.toLocaleString('en-US')));
    const sum = (column: string[]) => Math.round(column.reduce((total, share) => total + Number(share.replace('%', '')), 0) * 10) / 10;
    expect(sum(endpoints.map((row) => row[3]!))).to.equal(100);
    const versions = tableRows(el, 'versions');
    expect(versions.map((row) => row[0])).to.deep.equal(expected.versions.map((v) => v.version ?? 'None'));
    expect(sum(versions.map((row) => row[2]!))).to.equal(100);
  });

  it('flags a revoked key’s use after its revocation, in its facts and its latest requests', async () => {
    const expected = await client().getKey('key_live_initech_2');
    const el = await keyPage('key_live_initech_2');
    await loaded(el);
    expect(text($(el, '.title .badge'))).to.equal('Revoked');
    const shown = facts(el);
    expect(shown['Revoked']).to.equal('11 Sep 2026 at 16:20');
    expect(shown['Used after revocation']).to.match(new RegExp(`^${expected.afterRevocation!.requests.toLocaleString('en-US')} requests Last `));
    const rows = $$(el, '[part="requests"] tbody tr');
    expect(rows).to.have.length(expected.latestRequests.length);
    expect(rows.map((row) => row.querySelector('.badge.tone-danger') !== null)).to.deep.equal(expected.latestRequests.map((r) => r.afterRevocation));
    expect(expected.latestRequests.some((r) => r.afterRevocation)).to.equal(true);
    expect(text($(el, '[part="requests"] tbody tr .badge.tone-danger'))).to.equal('After revocation');
  });

  it('leads to all of its requests, its customer and an endpoint, cancelably', async () => {
    const el = await keyPage('key_live_acme_0');
    await loaded(el);
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    const all = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $$(el, '.link')
      .find((link) => text(link) === 'All requests with this key')!
      .click();
    expect((await all).detail).to.include({ kind: 'requests', id: '', keyId: 'key_live_acme_0' });
    const endpoint = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $(el, '[part="endpoints"] tbody th button')!.click();
    expect((await endpoint).detail.kind).to.equal('endpoint');
  });

  it('says a key it cannot find is not found, without Retry', async () => {
    const el = await keyPage('key_nobody');
    const panel = await waitFor(() => $(el, '[part="error"]'), 'not found');
    expect(text(panel)).to.contain('API key not found.');
    expect($(el, '[part="retry-button"]')).to.equal(null);
  });

  it('shows a key with no requests in the range without figures', async () => {
    const el = await keyPage('key_live_acme_old');
    await loaded(el);
    expect(text($(el, '.title .badge'))).to.equal('Idle');
    expect(facts(el)).to.include({ Requests: '0', Errors: '—', P95: '—', 'Last used': '20 Jul 2026 at 17:05' });
    expect($(el, '[part="endpoints"]')).to.equal(null);
    expect($$(el, 'p.muted').map((p) => text(p))).to.include('No requests in this range.');
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await keyPage('key_live_acme_0');
    await waitFor(() => $(el, '[part="error"]'), 'error');
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('shows the name and id as text, never markup', async () => {
    const base = await client().getKey('key_live_acme_0');
    api.use(http.get(`*${API_BASE}/keys/:id`, () => HttpResponse.json({ ...base, name: '<b>x</b>', id: '<i>y</i>' })));
    const el = await keyPage('key_live_acme_0');
    await loaded(el);
    expect(text($(el, 'h2 > span'))).to.equal('<b>x</b>');
    expect($(el, '.facts b, .facts i, h2 b')).to.equal(null);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await keyPage('key_live_initech_2', `theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
