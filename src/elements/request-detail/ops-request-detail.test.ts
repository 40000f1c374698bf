import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { facts } from '../../../test/detail.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { RequestDetail } from '../../api/schemas.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsRequestDetail } from './ops-request-detail.ts';

/** The seed's line: POST /webhooks answering 500 in 1,240 ms at 09:41, by Lee Park. */
const SEED_REQUEST = 'rq_59645962';

async function requestDetail(id = SEED_REQUEST, extra = '') {
  return mount<OpsRequestDetail>('ops-request-detail', { 'request-id': id, 'time-zone': 'UTC', ...attrs(extra) });
}
const loaded = (el: Element) => waitFor(() => $(el, '.facts'), 'facts');

/** What the mock API answers for the seed's line (its customer, key and headers are generated). */
const seedDetail = (): Promise<RequestDetail> => createConsoleClient({ baseUrl: API_BASE }).getRequest(SEED_REQUEST);

describe('ops-request-detail', () => {
  const api = useMockApi();

  it('shows "Requests / POST /webhooks" and the status code beside the title, coloured as an error', async () => {
    const el = await requestDetail();
    await loaded(el);
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Requests / POST /webhooks');
    expect(text($(el, 'h2 > span'))).to.equal('POST /webhooks');
    const badge = $(el, '.title .badge')!;
    expect([text(badge), badge.dataset['tone']]).to.deep.equal(['500', 'danger']);
  });

  it('shows every recorded fact, formatted, and the kept headers as sent', async () => {
    const expected = await seedDetail();
    const el = await requestDetail();
    await loaded(el);
    expect(facts(el)).to.deep.equal({
      Endpoint: 'POST /webhooks',
      Duration: '1,240 ms',
      Time: '14 Sep 2026 at 09:41',
      Actor: 'Lee Park',
      Customer: expected.customer!.name,
      Key: expected.keyId!,
      'API version': 'v3',
      'Response size': '214B',
    });
    expect($(el, '.fact time')!.getAttribute('datetime')).to.equal('2026-09-14T09:41:00Z');
    const rows = $$(el, '[part="headers"] tbody tr').map((row) => [...row.children].map((cell) => text(cell)));
    expect(rows).to.deep.equal(expected.headers!.map((h) => [h.name, h.value]));
    expect(rows.find(([name]) => name === 'authorization')).to.deep.equal(['authorization', '[redacted]']);
  });

  it('says what was not recorded instead of leaving gaps, for a backend that records only the log’s line', async () => {
    api.use(
      http.get(`*${API_BASE}/requests/:id`, () =>
        HttpResponse.json({
          id: 'rq_1',
          method: 'GET',
          path: '/usage',
          status: 200,
          durationMs: 8,
          actor: { id: 'anonymous', name: 'Anonymous' },
          time: '2026-09-14T09:40:00Z',
        }),
      ),
    );
    const el = await requestDetail('rq_1');
    await loaded(el);
    expect(facts(el)).to.deep.equal({
      Endpoint: 'GET /usage',
      Duration: '8 ms',
      Time: '14 Sep 2026 at 09:40',
      Actor: 'Anonymous',
      Customer: '—',
      Key: '—',
      'API version': '—',
      'Response size': '—',
    });
    expect($(el, '[part="headers"]')).to.equal(null);
    expect(text($(el, '.headers-empty'))).to.equal('No headers were kept for this request: the collector keeps only those it is told to.');
    expect($(el, '.fact .link'), 'no endpoint to link to').to.equal(null);
  });

  it('takes null for what a backend did not record, and an empty API version as none', async () => {
    api.use(
      http.get(`*${API_BASE}/requests/:id`, () =>
        HttpResponse.json({
          id: 'rq_1',
          method: 'GET',
          path: '/usage',
          route: null,
          status: 200,
          durationMs: 8,
          actor: { id: 'anonymous', name: 'Anonymous' },
          time: '2026-09-14T09:40:00Z',
          apiVersion: '',
          headers: null,
        }),
      ),
    );
    const el = await requestDetail('rq_1');
    await loaded(el);
    expect(facts(el)['Endpoint']).to.equal('GET /usage');
    expect(facts(el)['API version']).to.equal('—');
    expect($(el, '.headers-empty')).not.to.equal(null);
  });

  it('lets the keyboard reach the headers table when it scrolls', async () => {
    const el = await requestDetail();
    await loaded(el);
    const region = $(el, '[part="headers"]')!.closest('[role="region"]')!;
    expect([region.getAttribute('aria-label'), region.getAttribute('tabindex')]).to.deep.equal(['Request headers', '0']);
  });

  it('treats header names and values as text, never markup', async () => {
    const seed = await seedDetail();
    api.use(
      http.get(`*${API_BASE}/requests/:id`, () => HttpResponse.json({ ...seed, headers: [{ name: '<img src=x onerror=alert(1)>', value: '<b>bold</b>' }] })),
    );
    const el = await requestDetail();
    await loaded(el);
    expect($(el, '[part="headers"] img, [part="headers"] b')).to.equal(null);
    expect($$(el, '[part="headers"] tbody tr').map((row) => [...row.children].map((cell) => text(cell)))).to.deep.equal([
      ['<img src=x onerror=alert(1)>', '<b>bold</b>'],
    ]);
  });

  it('drills down to the request list, the endpoint and the customer, cancelably', async () => {
    const expected = await seedDetail();
    const el = await requestDetail(SEED_REQUEST, 'requests-href=/console/requests');
    await loaded(el);
    const crumb = $<HTMLAnchorElement>(el, '[part="breadcrumb"] a')!;
    expect(crumb.getAttribute('href')).to.equal('/console/requests');
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    const first = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    const before = location.href;
    crumb.click();
    expect((await first).detail).to.deep.equal({ kind: 'requests', id: '', label: 'Requests', href: '/console/requests' });
    expect(location.href).to.equal(before);

    const [endpoint, customer] = $$<HTMLButtonElement>(el, '.fact button');
    const second = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    endpoint!.click();
    expect((await second).detail).to.deep.equal({ kind: 'endpoint', id: expected.endpointId, label: 'POST /webhooks' });
    const third = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    customer!.click();
    expect((await third).detail).to.deep.equal({ kind: 'customer', id: expected.customer!.id, label: expected.customer!.name });
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await requestDetail();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load this request\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('says a request that is not in the log was not found, without Retry', async () => {
    const el = await requestDetail('rq_1');
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.equal('Request not found. No request has the id “rq_1”. It may be older than the log keeps, or the link may be wrong.');
    expect($(el, '[part="retry-button"]')).to.equal(null);
  });

  it('reads in German', async () => {
    const el = await requestDetail(SEED_REQUEST, 'locale=de');
    await loaded(el);
    // The translations arrive as a chunk of their own; the panel renders again when they do.
    await waitFor(() => text($(el, '[part="breadcrumb"]')) === 'Anfragen / POST /webhooks', 'German breadcrumb');
    expect(Object.keys(facts(el))).to.deep.equal(['Endpunkt', 'Dauer', 'Zeit', 'Akteur', 'Kunde', 'Schlüssel', 'API-Version', 'Antwortgröße']);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await requestDetail(SEED_REQUEST, `theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
