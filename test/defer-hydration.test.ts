// The defer-hydration protocol the React components rely on: an element with it, or inside an
// <ops-console> with it, renders nothing and sends no request; what was set meanwhile still
// counts once the wait ends; and an element taken out of a waiting wrapper does not wait for it.
import { expect, fixture, html } from '@open-wc/testing';
import '../src/all.ts';
import type { OpsEndpointTable } from '../src/elements/endpoint-table/ops-endpoint-table.ts';
import type { OpsRequestLog } from '../src/elements/request-log/ops-request-log.ts';
import { $, $$, nextFrames, text, waitFor } from './dom.ts';
import { API_BASE, useMockApi } from './mock-api.ts';

describe('defer-hydration', () => {
  const api = useMockApi();

  it('an element inside a waiting <ops-console> waits for it, then keeps what was set meanwhile', async () => {
    sessionStorage.clear();
    const wrapper = await fixture<HTMLElement>(
      html`<ops-console defer-hydration api-base=${API_BASE}><ops-request-log persist-key="held"></ops-request-log></ops-console>`,
    );
    const log = wrapper.querySelector<OpsRequestLog>('ops-request-log')!;
    log.method = 'POST'; // as a framework sets a property before it lets the element go
    await nextFrames();
    expect(log.shadowRoot!.childElementCount, 'nothing rendered while waiting').to.equal(0);
    expect(api.requests, 'no request while waiting').to.deep.equal([]);

    wrapper.removeAttribute('defer-hydration');
    await waitFor(() => $$(log, '[part="row"]').length > 0, 'rows');
    expect(api.requests.map((url) => url.searchParams.get('method'))).to.deep.equal(['POST']);
    // The change made while waiting reached willUpdate: the filter is kept for the next visit.
    expect(JSON.parse(sessionStorage.getItem('ops-request-log:held') ?? '{}')).to.include({ method: 'POST' });
  });

  it('an element with the attribute waits until it is removed', async () => {
    const table = await fixture<OpsEndpointTable>(html`<ops-endpoint-table defer-hydration api-base=${API_BASE}></ops-endpoint-table>`);
    await nextFrames();
    expect(api.requests).to.deep.equal([]);
    table.removeAttribute('defer-hydration');
    const first = await waitFor(() => $(table, 'tbody .row-link'), 'rows');
    expect(text(first)).to.equal('POST /messages');
  });

  it('an element moved out of a waiting <ops-console> loads with its own api-base', async () => {
    const page = await fixture<HTMLElement>(
      html`<div><ops-console defer-hydration api-base="/elsewhere"><ops-endpoint-table api-base=${API_BASE}></ops-endpoint-table></ops-console></div>`,
    );
    const table = page.querySelector<OpsEndpointTable>('ops-endpoint-table')!;
    await nextFrames();
    page.append(table);
    const first = await waitFor(() => $(table, 'tbody .row-link'), 'rows after the move', 10_000);
    expect(text(first)).to.equal('POST /messages');
  });
});
