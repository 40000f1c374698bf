import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { $, $$, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { ChartData } from '../../shared/chart/chart-data.ts';
import type { OpsChart } from '../../shared/chart/ops-chart.ts';
import './define.ts';
import type { OpsVersions } from './ops-versions.ts';

const versions = (extra = '') => mount<OpsVersions>('ops-versions', attrs(extra));
const loaded = (el: Element) => waitFor(() => $(el, '[part="versions"] tbody tr'), 'versions');
/** `14 Sep 2026`, the UTC day of a timestamp (from `Mon, 14 Sep 2026 09:39:00 GMT`). */
const dayOf = (iso: string) => new Date(iso).toUTCString().split(' ').slice(1, 4).join(' ');
const rows = (el: Element) => $$(el, '[part="versions"] tbody tr').map((r) => [...r.children].map((cell) => text(cell)));

describe('ops-versions', () => {
  const api = useMockApi();
  const client = () => createConsoleClient({ baseUrl: API_BASE });

  it('lists each version with its requests and share, busiest first, and requests without one as “No version”', async () => {
    const expected = await client().getVersions();
    const el = await versions();
    await loaded(el);
    const published = (v: (typeof expected.versions)[number]) => (v.publishedAt ? dayOf(v.publishedAt) : '—');
    expect(rows(el)).to.deep.equal(
      expected.versions.map((v) => [v.version ?? 'No version', v.requests.toLocaleString('en-US'), `${v.sharePct.toFixed(1)}%`, published(v)]),
    );
    expect(rows(el).map((r) => r[0])).to.include('No version');
    expect(rows(el).at(-1)).to.deep.equal(['v4', '0', '0.0%', '14 Sep 2026'], 'a published version nobody calls yet comes last');
    const guide = $<HTMLAnchorElement>(el, '[part="versions"] a')!;
    expect([guide.href, guide.target, guide.rel, text(guide)]).to.deep.equal(['https://docs.example.com/v3', '_blank', 'noopener noreferrer', '15 Mar 2026']);
    expect(expected.versions.reduce((sum, v) => sum + Math.round(v.sharePct * 10), 0)).to.equal(1000);
  });

  it('charts each version’s requests per day over the last 30 days', async () => {
    const expected = await client().getVersions();
    const el = await versions();
    await loaded(el);
    const chart = $<OpsChart>(el, 'ops-chart')!;
    const data = chart.data as ChartData;
    expect(data.categories).to.have.length(30);
    expect(data.categoryName).to.equal('Day');
    expect(data.series.map((s) => [s.name, s.values])).to.deep.equal(
      expected.versions.filter((v) => v.requests).map((v) => [v.version ?? 'No version', v.perBucket]),
    );
    expect(chart.getAttribute('label')).to.equal('Requests by API version over time');
  });

  it('over a time range asks for it and charts its buckets', async () => {
    const expected = await client().getVersions({}, { range: '24h' });
    const el = await versions('range=24h');
    await loaded(el);
    const data = $<OpsChart>(el, 'ops-chart')!.data as ChartData;
    expect(data.categories).to.deep.equal(expected.starts.map((s) => s.slice(11, 16)));
    expect(data.series[0]!.values).to.deep.equal(expected.versions[0]!.perBucket);
  });

  it('lists each deprecated endpoint with its sunset and the customers and keys still calling it', async () => {
    const expected = (await client().getVersions()).deprecations!;
    const el = await versions('time-zone=UTC');
    await loaded(el);
    const items = $$(el, '[part="deprecations"] article');
    expect(items.map((item) => text(item.querySelector('h4')))).to.deep.equal(['DELETE /contacts Deprecated', 'GET /usage v2 Deprecated']);
    const facts = (item: Element) => [...item.querySelectorAll('.fact')].map((f) => [text(f.querySelector('dt')), text(f.querySelector('dd'))]);
    expect(facts(items[0]!)).to.deep.equal([
      ['Sunset', '14 Oct 2026, in 30 days'],
      ['Requests', expected[0]!.requests.toLocaleString('en-US')],
      ['Replacement', 'POST /contacts/archive'],
      ['Documentation', 'Migration guide'],
    ]);
    const when = (iso: string) => `${dayOf(iso)} at ${iso.slice(11, 16)}`;
    const tables = [...items[0]!.querySelectorAll('[part="callers"]')];
    const cells = (table: Element) => [...table.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => text(c)));
    expect(tables.map((t) => t.getAttribute('aria-label'))).to.deep.equal(['Customers still calling', 'Keys still calling']);
    expect([...items[0]!.querySelectorAll('h5')].map((h) => text(h))).to.deep.equal(['Customers still calling', 'Keys still calling']);
    expect(cells(tables[0]!)).to.deep.equal(expected[0]!.customers.map((c) => [c.name ?? c.id, c.requests.toLocaleString('en-US'), when(c.lastCallAt)]));
    expect(cells(tables[1]!)).to.deep.equal(expected[0]!.keys.map((c) => [c.id, c.requests.toLocaleString('en-US'), when(c.lastCallAt)]));
  });

  it('leads from a customer still calling to its page', async () => {
    const el = await versions();
    await loaded(el);
    const seen: unknown[] = [];
    el.addEventListener('ops-navigate', (event) => seen.push((event as CustomEvent).detail));
    ($(el, '[part="deprecations"] [part="callers"] tbody a, [part="deprecations"] [part="callers"] tbody button') as HTMLElement).click();
    expect(seen).to.have.length(1);
    expect(seen[0]).to.include({ kind: 'customer', id: 'cus_acme', label: 'Acme Ltd' });
  });

  it('leads from a key still calling to its page', async () => {
    const el = await versions();
    await loaded(el);
    const seen: unknown[] = [];
    el.addEventListener('ops-navigate', (event) => seen.push((event as CustomEvent).detail));
    const keys = $$(el, '[part="deprecations"] [part="callers"]')[1]!;
    (keys.querySelector('tbody a, tbody button') as HTMLElement).click();
    expect(seen).to.deep.equal([{ kind: 'key', id: 'key_live_acme_0', label: 'key_live_acme_0' }]);
  });

  it('says when nobody called a deprecated endpoint in the range, and marks one turned off', async () => {
    const answer = await client().getVersions();
    const quiet = { ...answer.deprecations![0]!, customers: [], keys: [], requests: 0, turnedOff: true, daysToSunset: 0, docsUrl: 'javascript:alert(1)' };
    api.use(http.get(`*${API_BASE}/versions`, () => HttpResponse.json({ ...answer, deprecations: [quiet] })));
    const el = await versions();
    await loaded(el);
    const item = $(el, '[part="deprecations"] article')!;
    expect(text(item.querySelector('h4'))).to.equal('DELETE /contacts Turned off');
    expect(text(item.querySelector('.fact dd'))).to.equal('14 Oct 2026', 'a passed sunset is a day, not a day ahead');
    expect([...item.querySelectorAll('.none')].map((p) => text(p))).to.deep.equal([
      'Customers still calling No calls in this time range.',
      'Keys still calling No calls in this time range.',
    ]);
    expect(item.querySelector('a[href^="javascript"]'), 'a link that is not http(s) is text').to.equal(null);
    expect(text(item)).to.include('Migration guide');
  });

  it('shows a version name from outside as text, never markup', async () => {
    const answer = await client().getVersions();
    const hostile = '<img src=x onerror=alert(1)>';
    api.use(http.get(`*${API_BASE}/versions`, () => HttpResponse.json({ ...answer, versions: [{ ...answer.versions[0]!, version: hostile }] })));
    const el = await versions();
    await loaded(el);
    expect(rows(el)[0]![0]).to.equal(hostile);
    expect($(el, '[part="versions"] img')).to.equal(null);
  });

  it('says when there were no requests in the range', async () => {
    api.use(...scenarios.empty());
    const el = await versions();
    const empty = await waitFor(() => $(el, '[part="empty"]'), 'empty');
    expect(text(empty)).to.equal('No requests in this time range.');
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await versions();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load API versions\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await versions(`theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
