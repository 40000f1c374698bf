import { expect } from '@open-wc/testing';
import { alertFixtures } from '../../../mocks/alerts.ts';
import { FIXTURE_NOW } from '../../../mocks/fixtures.ts';
import { spokenText } from '../../../test/detail.ts';
import { $, $$, text, waitFor } from '../../../test/dom.ts';
import { mount } from '../../../test/harness.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsAlerts } from './ops-alerts.ts';

const rows = (el: Element) => $$(el, 'tbody tr');
const loaded = (el: Element) => waitFor(() => rows(el).length > 0 && !$(el, 'table[aria-busy="true"]'), 'rows');

describe('ops-alerts', () => {
  const { alerts } = alertFixtures(FIXTURE_NOW.getTime());

  it('lists each alert with its state, value against threshold, start, end and whom it told', async () => {
    const el = await mount<OpsAlerts>('ops-alerts');
    await loaded(el);
    expect(rows(el).map((row) => text(row.querySelector('th')))).to.deep.equal(alerts.map((a) => a.ruleName));
    const [firing, resolved] = rows(el).map((row) => [...row.querySelectorAll('td')].map((cell) => spokenText(cell)));
    expect(firing).to.deep.equal(['Firing', '6.8%', '5.0%', '14 Sep 2026 at 09:33', '—', '1 delivered']);
    expect(resolved).to.deep.equal(['Resolved', '1.2%', '5.0%', '13 Sep 2026 at 07:45', '13 Sep 2026 at 08:45', '2 delivered']);
    expect(rows(el)[0]!.querySelector<HTMLElement>('.badge')!.dataset['tone']).to.equal('danger');
  });

  it('filters by state through the API, and says when nothing is firing', async () => {
    const el = await mount<OpsAlerts>('ops-alerts', { state: 'resolved' });
    await loaded(el);
    expect(rows(el).map((row) => text(row.querySelector('th')))).to.have.length(1);
    expect(spokenText(rows(el)[0]!.querySelector('td'))).to.equal('Resolved');
  });

  it('leads from an alert to what its rule watches', async () => {
    const el = await mount<OpsAlerts>('ops-alerts');
    await loaded(el);
    const navigated = new Promise<NavigateDetail>((resolve) => el.addEventListener('ops-navigate', (e) => resolve(e.detail), { once: true }));
    rows(el)[0]!.querySelector<HTMLElement>('.row-link')!.click();
    expect(await navigated).to.include({ kind: 'endpoint', id: 'ep_4' });
  });
});
