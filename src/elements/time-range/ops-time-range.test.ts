import { expect } from '@open-wc/testing';
import { $, $$, text, waitFor } from '../../../test/dom.ts';
import { mount } from '../../../test/harness.ts';
import { API_BASE, useMockApi } from '../../../test/mock-api.ts';
import type { RangeDetail } from '../../shared/events.ts';
import '../console/define.ts';
import '../overview/define.ts';
import './define.ts';
import type { OpsTimeRange } from './ops-time-range.ts';

const select = (el: Element) => $<HTMLSelectElement>(el, 'select')!;
const choose = (el: Element, value: string) => {
  select(el).value = value;
  select(el).dispatchEvent(new Event('change'));
};
const field = (el: Element, name: string) => $<HTMLInputElement>(el, `input[name="${name}"]`)!;
const nextRange = (el: HTMLElement) => new Promise<CustomEvent<RangeDetail>>((resolve) => el.addEventListener('ops-range-change', resolve, { once: true }));

describe('ops-time-range', () => {
  const api = useMockApi();

  it('offers the default periods, the last hour to the last 12 months, and a custom range', async () => {
    const el = await mount<OpsTimeRange>('ops-time-range');
    expect($$(el, 'option').map(text)).to.deep.equal([
      'Default periods',
      'Last hour',
      'Last 24 hours',
      'Last 7 days',
      'Last 30 days',
      'Last 12 months',
      'Custom range',
    ]);
    expect(text($(el, 'label'))).to.match(/^Time range/);
    expect(select(el).value).to.equal('');
  });

  it('fires ops-range-change with the choice and, alone, keeps it itself', async () => {
    const el = await mount<OpsTimeRange>('ops-time-range');
    const fired = nextRange(el);
    choose(el, '7d');
    expect((await fired).detail).to.deep.equal({ range: '7d' });
    await el.updateComplete;
    expect(el.getAttribute('range')).to.equal('7d');
    const back = nextRange(el);
    choose(el, '');
    expect((await back).detail).to.deep.equal({});
  });

  it('reads a custom range in the configured time zone, and says what is wrong with one it cannot use', async () => {
    const el = await mount<OpsTimeRange>('ops-time-range', { 'time-zone': 'Asia/Tokyo' });
    choose(el, 'custom');
    await el.updateComplete;
    field(el, 'from').value = '2026-09-14T10:00';
    field(el, 'to').value = '2026-09-14T09:00';
    $<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    expect(text($(el, '[role="alert"]'))).to.equal('Choose a start before the end.');
    expect(field(el, 'from').getAttribute('aria-invalid')).to.equal('true');
    field(el, 'to').value = '';
    $<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    expect(text($(el, '[role="alert"]'))).to.equal('Choose both a start and an end.');
    const fired = nextRange(el);
    field(el, 'to').value = '2026-09-14T18:30';
    $<HTMLButtonElement>(el, 'button')!.click();
    // Tokyo is UTC+9: 10:00 there is 01:00 UTC.
    expect((await fired).detail).to.deep.equal({ from: '2026-09-14T01:00:00.000Z', to: '2026-09-14T09:30:00.000Z' });
    await el.updateComplete;
    expect(text($(el, '[role="alert"]'))).to.equal('');
    expect(select(el).value).to.equal('custom');
    expect(field(el, 'from').value).to.equal('2026-09-14T10:00', 'shown again in Tokyo time');
  });

  it('inside <ops-console>, shows the wrapper’s range and changes it for every element inside; a cancelled change changes nothing', async () => {
    const wrapper = document.createElement('ops-console');
    wrapper.setAttribute('api-base', API_BASE);
    wrapper.setAttribute('range', '30d');
    wrapper.innerHTML = '<ops-time-range></ops-time-range><ops-overview time-zone="UTC"></ops-overview>';
    document.body.append(wrapper);
    try {
      const control = wrapper.querySelector('ops-time-range')!;
      const overview = wrapper.querySelector('ops-overview')!;
      await waitFor(() => $(overview, '[part="figure"]'), 'overview');
      expect(api.requests.find((r) => r.pathname.endsWith('/overview'))!.searchParams.get('range')).to.equal('30d');
      await waitFor(() => select(control).value === '30d', 'the wrapper’s range shown');
      choose(control, '1h');
      await waitFor(() => text($(overview, '.versus')) === 'vs previous hour', 'the overview follows');
      expect(
        api.requests
          .filter((r) => r.pathname.endsWith('/overview'))
          .at(-1)!
          .searchParams.get('range'),
      ).to.equal('1h');
      expect(control.hasAttribute('range')).to.equal(false, 'the wrapper holds the range, not the control');
      wrapper.addEventListener('ops-range-change', (e) => e.preventDefault(), { once: true, capture: true });
      choose(control, '12m');
      await (wrapper as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      await (overview as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect((overview as unknown as { timeRange: RangeDetail }).timeRange).to.deep.equal({ range: '1h' }, 'the wrapper kept its range');
      expect(text($(overview, '.versus'))).to.equal('vs previous hour');
    } finally {
      wrapper.remove();
    }
  });

  it('passes axe, with the custom fields too', async () => {
    const el = await mount<OpsTimeRange>('ops-time-range');
    await expect(el).to.be.accessible();
    choose(el, 'custom');
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });
});
