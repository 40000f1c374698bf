import { expect } from '@open-wc/testing';
import { alertFixtures } from '../../../mocks/alerts.ts';
import { FIXTURE_NOW } from '../../../mocks/fixtures.ts';
import { facts } from '../../../test/detail.ts';
import { $, $$, text, waitFor } from '../../../test/dom.ts';
import { mount } from '../../../test/harness.ts';
import './define.ts';
import type { OpsSlo } from './ops-slo.ts';

describe('ops-slo', () => {
  const [slo] = alertFixtures(FIXTURE_NOW.getTime()).slos;

  it('shows the target, the good share, the budget left, each window’s burn rate and the burn-down', async () => {
    const el = await mount<OpsSlo>('ops-slo', { 'slo-id': slo!.id });
    await waitFor(() => $(el, '.facts'), 'facts');
    expect(text($(el, '[part="breadcrumb"]'))).to.equal(`Alerts / ${slo!.name}`);
    expect(facts(el)).to.deep.include({
      Target: '99.5% over 28d',
      'Good request': 'Not a server error',
      'Good share': '99.6%',
      'Error budget left': '28.4%',
      Requests: '1,201,544',
    });
    expect($$(el, '[part="burn-rates"] th').map((th) => text(th))).to.deep.equal(['5m', '30m', '1h', '6h', '3d']);
    expect($$(el, '[part="burn-rates"] td').map((td) => text(td))).to.deep.equal(['2.1×', '1.6×', '1.4×', '1.2×', '1.1×']);
    const chart = $(el, 'ops-chart') as HTMLElement & { data: { categories: string[]; series: { values: number[] }[] } };
    expect(chart.data.categories).to.have.length(28);
    expect(chart.data.series[0]!.values.at(-1)).to.equal(28.4);
  });

  it('says so for an SLO it does not know', async () => {
    const el = await mount<OpsSlo>('ops-slo', { 'slo-id': 'slo_nope' });
    await waitFor(() => $(el, '[part="error"], [part="not-found"]'), 'not found');
    expect(text(el.shadowRoot!.querySelector('[part="error"], [part="not-found"]'))).to.contain('SLO not found.');
  });
});
