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
    expect(rows.find(([name]) => name === 'authorization')).to.deep.equal(['authorization', '[masked]']);
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

  /** The seed's request answered with these headers and bodies. */
  const withPayload = async (payload: Partial<RequestDetail>) => {
    const seed = await seedDetail();
    api.use(http.get(`*${API_BASE}/requests/:id`, () => HttpResponse.json({ ...seed, ...payload })));
    const el = await requestDetail();
    await loaded(el);
    return el;
  };
  const jsonBody = (text: string) => ({ contentType: 'application/json', size: new TextEncoder().encode(text).length, truncated: false, text });

  it('shows both sides’ headers and bodies: JSON pretty-printed and foldable, [masked] marked, other text as text', async () => {
    const order = { orderId: 'ord_7Q2X9', card: { number: '[masked]' }, items: [1, 2] };
    const el = await withPayload({
      responseHeaders: [{ name: 'set-cookie', value: '[masked]' }],
      requestBody: jsonBody(JSON.stringify(order)),
      responseBody: { contentType: 'text/plain', size: 5, truncated: false, text: 'line1\nline2' },
    });
    expect(text($(el, '[part="request-body"] .body-facts'))).to.equal(`application/json · ${JSON.stringify(order).length}B`);
    expect($$(el, '[part="request-body"] .json-key').map(text)).to.deep.equal(['"orderId"', '"card"', '"number"', '"items"']);
    expect($$(el, '[part="request-body"] details').length).to.equal(3);
    expect($$(el, '[part="request-body"] mark.masked').map(text)).to.deep.equal(['[masked]']);
    const card = $$<HTMLDetailsElement>(el, '[part="request-body"] details')[1]!;
    card.querySelector('summary')!.click();
    await waitFor(() => !card.open, 'folded');
    expect($(el, '[part="response-headers"] mark.masked')).not.to.equal(null);
    expect($(el, '[part="response-body"] pre')!.textContent).to.equal('line1\nline2');
  });

  it('shows a hostile body as text: markup, 10 MB, broken UTF-8 and JSON 10,000 levels deep never break the page', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const huge = 'x'.repeat(10_000_000);
    const el = await withPayload({
      requestBody: jsonBody(deep),
      responseBody: {
        contentType: 'text/html',
        size: huge.length + 40,
        truncated: false,
        text: `<script>window.hacked=1</script><img src=x onerror=alert(1)>\ufffd${huge}`,
      },
    });
    expect($(el, '[part="request-body"] details'), 'too deep for a tree').to.equal(null);
    expect($(el, '[part="request-body"] pre')!.textContent).to.equal(deep);
    expect($(el, '[part="response-body"] script, [part="response-body"] img')).to.equal(null);
    expect((window as { hacked?: number }).hacked).to.equal(undefined);
    const shown = $(el, '[part="response-body"] pre')!.textContent;
    expect(shown.startsWith('<script>window.hacked=1</script><img src=x onerror=alert(1)>\ufffdxxx')).to.equal(true);
    expect(shown.length).to.be.below(100_000);
    $$<HTMLButtonElement>(el, '[part="response-body"] button')
      .find((b) => text(b) === 'Show all')!
      .click();
    await waitFor(() => $(el, '[part="response-body"] pre')!.textContent.length > 10_000_000, 'the whole body');
  });

  it('says what was cut, what a body that is not text keeps, and when payloads are no longer kept or not shown', async () => {
    const el = await withPayload({
      requestBody: { contentType: 'application/json', size: 1_200_000, truncated: true, text: '{"a":' },
      responseBody: { contentType: 'image/png', size: 52_000, truncated: false, text: null },
    });
    expect(text($(el, '[part="request-body"] .truncated'))).to.equal('Truncated: 1.2 MB, 5B kept');
    expect(text($(el, '[part="response-body"] .muted'))).to.equal('Not text: only its type and size are kept.');
    const gone = await withPayload({ headers: null, payload: 'removed' });
    expect(text($(gone, '.payload-gone'))).to.equal('Payload no longer kept: its headers and bodies passed their retention, or were erased.');
    const hidden = await withPayload({ headers: null, payload: 'hidden' });
    expect(text($(hidden, '.payload-hidden'))).to.equal('Headers and bodies are not shown to this session.');
  });

  it('copies the body and the request as curl, masked values still masked', async () => {
    const copied: string[] = [];
    const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')!;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: (t: string) => (copied.push(t), Promise.resolve()) } });
    try {
      const body = '{"secret":"[masked]","it\'s":1}';
      const el = await withPayload({ headers: [{ name: 'authorization', value: '[masked]' }], requestBody: jsonBody(body) });
      $$<HTMLButtonElement>(el, '[part="request-body"] button')
        .find((b) => text(b) === 'Copy body')!
        .click();
      $<HTMLButtonElement>(el, 'button.curl')!.click();
      await waitFor(() => copied.length === 2, 'two copies');
      expect(copied[0]).to.equal(body);
      expect(copied[1]).to.equal(`curl -X POST "$API_URL"'/webhooks' \\\n  -H 'authorization: [masked]' \\\n  --data-raw '{"secret":"[masked]","it'\\''s":1}'`);
      await waitFor(() => text($(el, '.copied')) === 'Copied.', 'announced');
    } finally {
      delete (navigator as { clipboard?: unknown }).clipboard;
      Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
    }
  });

  it('passes axe with bodies, in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await withPayload({
        requestBody: jsonBody('{"a":[1,{"b":"[masked]"}]}'),
        responseBody: { contentType: 'text/plain', size: 2, truncated: false, text: 'ok' },
      });
      el.setAttribute('theme', theme);
      await expect(el).to.be.accessible();
    }
  });
});
