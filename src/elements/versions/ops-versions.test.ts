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
const rows = (el: Element) => $$(el, '[part="versions"] tbody tr').map((r) => [...r.children].map((cell) => text(cell)));

describe('ops-versions', () => {
  const api = useMockApi();
  const client = () => createConsoleClient({ baseUrl: API_BASE });

  it('lists each version with its requests and share, busiest first, and requests without one as “No version”', async () => {
    const expected = await client().getVersions();
    const el = await versions();
    await loaded(el);
    expect(rows(el)).to.deep.equal(expected.versions.map((v) => [v.version ?? 'No version', v.requests.toLocaleString('en-US'), `${v.sharePct.toFixed(1)}%`]));
    expect(rows(el).map((r) => r[0])).to.include('No version');
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
    expect(data.series.map((s) => [s.name, s.values])).to.deep.equal(expected.versions.map((v) => [v.version ?? 'No version', v.perBucket]));
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
