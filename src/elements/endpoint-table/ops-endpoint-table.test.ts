import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { delay, http, HttpResponse } from 'msw';
import { createMockApi, fixtures, generateEndpoints } from '../../../mocks/index.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { NavigateDetail, LoadErrorDetail } from '../../shared/events.ts';
import '../console/define.ts';
import './define.ts';
import type { OpsEndpointTable } from './ops-endpoint-table.ts';

const rows = (el: Element) => $$(el, 'tbody tr');
const rowTexts = (el: Element) => rows(el).map((row) => [...row.children].map((cell) => text(cell)));
const loaded = (el: Element) => waitFor(() => rows(el).length > 0, 'rows rendered');
const errorShown = (el: Element) => waitFor(() => $(el, '[part="error"]'), 'error shown');
/** What a deprecated route's Endpoint cell adds: the badge and its sunset day (`14 Oct 2026`, from `Wed, 14 Oct 2026 00:00:00 GMT`). */
const deprecationOf = (e: (typeof fixtures.endpoints)[number]) => {
  const deprecation = fixtures.deprecations.find((d) => (d.endpointIds as readonly string[]).includes(e.id));
  return deprecation ? ` Deprecated Sunset ${new Date(deprecation.sunsetAt).toUTCString().split(' ').slice(1, 4).join(' ')}` : '';
};

/** A row's Endpoint cell: its label, its API version when its route has more than one (on any page), and its deprecation (below). */
const endpointCell = (e: (typeof fixtures.endpoints)[number]) =>
  (fixtures.endpoints.filter((o) => o.method === e.method && o.path === e.path).length > 1
    ? `${e.method} ${e.path} ${e.apiVersion}`
    : `${e.method} ${e.path}`) + deprecationOf(e);

/** A table with `attributes` (query-string style) set before it connects, as in markup. */
async function table(attributes = '') {
  return mount<OpsEndpointTable>('ops-endpoint-table', attrs(attributes));
}

describe('ops-endpoint-table', () => {
  const api = useMockApi();

  describe('loaded', () => {
    it('renders every seed row with its formatted figures', async () => {
      const el = await table();
      await loaded(el);
      expect(rowTexts(el)).to.deep.equal(
        fixtures.endpoints.map((e) => [
          // A route on several rows carries its API version; a deprecated one, its badge and sunset.
          endpointCell(e),
          e.requests.toLocaleString('en-US'),
          e.p95Ms.toLocaleString('en-US'),
          `${e.errorPct.toFixed(1)}%`,
          e.status,
        ]),
      );
      expect(rowTexts(el)[0]).to.deep.equal(['POST /messages v3', '482,113', '212', '0.4%', 'Healthy']);
      expect($$(el, 'thead th').map(text)).to.deep.equal(['Endpoint', 'Requests↕', 'P95 ms↕', 'Errors↕', 'Status']);
    });

    it('marks a deprecated route with a badge and its sunset day, in the page’s time zone', async () => {
      const el = await table('time-zone=Pacific/Honolulu');
      await loaded(el);
      const marked = rows(el).filter((row) => row.querySelector('[part="deprecation"]'));
      expect(marked.map((row) => row.dataset['id'])).to.deep.equal(['ep_3', 'ep_7']);
      const badge = marked[0]!.querySelector<HTMLElement>('[part="deprecation"] .badge')!;
      expect([text(badge), badge.dataset['tone']]).to.deep.equal(['Deprecated', 'warning']);
      // Midnight UTC on the 14th is still the 13th in Honolulu.
      expect(text(marked[0]!.querySelector('.sunset'))).to.equal('Sunset 13 Oct 2026');
    });

    it('keeps rows that share method and path as separate rows keyed by id', async () => {
      const el = await table();
      await loaded(el);
      const usage = rows(el).filter((row) => text(row.querySelector('.row-link')) === 'GET /usage');
      expect(usage.map((row) => row.dataset['id'])).to.deep.equal(['ep_6', 'ep_7']);
      expect(usage.map((row) => text(row.querySelector('td')))).to.deep.equal(['30,112', '18,220']);
      // Told apart by their API version; a route on one row only needs none.
      expect(usage.map((row) => text(row.querySelector('[part="version"]')))).to.deep.equal(['v3', 'v2']);
      expect(
        rows(el)
          .filter((row) => row.querySelector('[part="version"]'))
          .map((row) => row.dataset['id']),
      ).to.deep.equal(['ep_1', 'ep_6', 'ep_7', 'ep_8']);
    });

    it('names the version of a route that has another version on a later page (the API counts them in versions)', async () => {
      const el = await table('limit=5&hide-more');
      await loaded(el);
      expect(rows(el).map((row) => row.dataset['id'])).to.deep.equal(['ep_1', 'ep_2', 'ep_3', 'ep_4', 'ep_5']);
      // POST /messages v2 (ep_8) is not on this page; its v3 row still says which version it is.
      expect(
        rows(el)
          .filter((row) => row.querySelector('[part="version"]'))
          .map((row) => [row.dataset['id'], text(row.querySelector('[part="version"]'))]),
      ).to.deep.equal([['ep_1', 'v3']]);
    });

    it('tells rows of one route apart by id when the API reports no versions', async () => {
      const unversioned = fixtures.endpoints.map(({ apiVersion: _, ...e }) => e);
      api.use(http.get(`*${API_BASE}/endpoints`, () => HttpResponse.json({ items: unversioned, nextCursor: null })));
      const el = await table();
      await loaded(el);
      const usage = rows(el).filter((row) => text(row.querySelector('.row-link')) === 'GET /usage');
      expect(usage.map((row) => text(row.querySelector('[part="version"]')))).to.deep.equal(['ep_6', 'ep_7']);
    });

    it('colours Healthy, Failing and Slow badges and renders an unknown status neutrally', async () => {
      api.use(
        http.get(`*${API_BASE}/endpoints`, () =>
          HttpResponse.json({
            items: [
              ...fixtures.endpoints.slice(2, 5),
              { id: 'ep_new', method: 'PATCH', path: '/keys', requests: 5, p95Ms: 9, errorPct: 0, status: 'Degraded' },
            ],
            nextCursor: null,
          }),
        ),
      );
      const el = await table();
      await loaded(el);
      expect($$(el, '.badge').map((b) => [text(b), b.dataset['tone']])).to.deep.equal([
        ['Healthy', 'success'],
        ['Failing', 'danger'],
        ['Healthy', 'success'],
        ['Degraded', 'neutral'],
      ]);
    });

    it('renders markup from the API as text', async () => {
      api.use(
        http.get(`*${API_BASE}/endpoints`, () =>
          HttpResponse.json({
            items: [{ id: 'x', method: 'GET', path: '/<img src=x onerror="window.__pwned=1">', requests: 1, p95Ms: 1, errorPct: 0, status: '<b>bold</b>' }],
            nextCursor: null,
          }),
        ),
      );
      const el = await table();
      await loaded(el);
      expect(text($(el, 'tbody th'))).to.equal('GET /<img src=x onerror="window.__pwned=1">');
      expect(text($(el, '.badge'))).to.equal('<b>bold</b>');
      expect($(el, 'tbody img, tbody b')).to.equal(null);
      expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
    });
  });

  describe('sorting', () => {
    it('sorts the whole loaded list here, without a request, largest first, then flips', async () => {
      const el = await table();
      await loaded(el);
      const requestsBefore = api.requests.length;
      const byRequests = [...fixtures.endpoints].sort((a, b) => b.requests - a.requests).map((e) => e.requests.toLocaleString('en-US'));
      const sorted = nextEvent<CustomEvent<{ sort: string }>>(el, 'ops-sort');
      $<HTMLButtonElement>(el, 'th[aria-sort] button')!.click();
      expect((await sorted).detail).to.deep.equal({ sort: '-requests' });
      await waitFor(() => rowTexts(el)[0]![1] === byRequests[0], 'descending rows');
      expect(rowTexts(el).map((r) => r[1])).to.deep.equal(byRequests);
      expect($(el, 'th[aria-sort="descending"]')?.textContent).to.contain('Requests');
      expect(el.getAttribute('sort')).to.equal('-requests');

      $<HTMLButtonElement>(el, 'th[aria-sort="descending"] button')!.click();
      await waitFor(() => rowTexts(el)[0]![1] === byRequests.at(-1), 'ascending rows');
      expect(rowTexts(el).map((r) => r[1])).to.deep.equal([...byRequests].reverse());
      expect($(el, 'th[aria-sort="ascending"]')?.textContent).to.contain('Requests');
      expect(api.requests.length, 'no request for a list that is all here').to.equal(requestsBefore);
    });

    it('sorts through the API while more pages exist, and again when the filter changes', async () => {
      const el = await table('limit=3');
      await loaded(el);
      $<HTMLButtonElement>(el, 'th[aria-sort] button')!.click();
      await waitFor(() => api.requests.at(-1)!.searchParams.get('sort') === '-requests', 'sorted by the API');
      const top3 = [...fixtures.endpoints].sort((a, b) => b.requests - a.requests).slice(0, 3);
      await waitFor(() => rowTexts(el)[0]![1] === top3[0]!.requests.toLocaleString('en-US'), 'descending rows');
      expect(rowTexts(el).map((r) => r[0])).to.deep.equal(top3.map(endpointCell));
      expect(api.requests.at(-1)!.searchParams.get('limit')).to.equal('3');
    });

    it('asks the API for the order on screen once the list is no longer all loaded', async () => {
      const el = await table();
      await loaded(el);
      $$<HTMLButtonElement>(el, 'th[aria-sort] button')[1]!.click(); // P95, sorted here: all 8 are loaded
      await waitFor(() => el.sort === '-p95Ms' && rowTexts(el)[0]![2] === '1,240', 'sorted here');
      const before = api.requests.length;
      el.limit = 3; // now a page of 3 out of 8
      await waitFor(() => api.requests.at(-1)!.searchParams.get('limit') === '3' && api.requests.at(-1)!.searchParams.get('sort') === '-p95Ms', 'API asked');
      const top3 = [...fixtures.endpoints].sort((a, b) => b.p95Ms - a.p95Ms).slice(0, 3);
      await waitFor(() => rows(el).length === 3, 'three rows');
      expect(rowTexts(el).map((r) => r[0])).to.deep.equal(top3.map(endpointCell));
      // One request, already in the order on screen: never the API's own order first, whose
      // three rows would be shown (sorted here) until a second answer replaced them.
      expect(api.requests.slice(before).map((r) => r.searchParams.get('sort'))).to.deep.equal(['-p95Ms']);
    });

    it('renders only the rows in view of a long table, each saying where it stands', async () => {
      const count = 300;
      api.use(...createMockApi({ endpointCount: count }).handlers);
      const el = await table('limit=500');
      await waitFor(() => $(el, 'table')?.getAttribute('aria-rowcount') === String(count + 1), 'long table');
      // Virtual scrolling arrives with the first long list; then only the rows in view remain.
      await waitFor(() => rows(el).filter((r) => !r.classList.contains('spacer')).length < 60, 'only the rows in view');
      const scroller = $(el, '.scroller')!;
      scroller.scrollTop = scroller.scrollHeight;
      await waitFor(() => $(el, `tr[aria-rowindex="${count + 1}"]`), 'the last row rendered');
      const all = generateEndpoints(count);
      const last = all.at(-1)!;
      expect(text($(el, `tr[aria-rowindex="${count + 1}"] th`))).to.equal(`${last.method} ${last.path}`);

      // Sorted here (all 300 are loaded): the busiest endpoint first, with no request.
      const requestsBefore = api.requests.length;
      $<HTMLButtonElement>(el, 'th[aria-sort] button')!.click();
      scroller.scrollTop = 0;
      const busiest = Math.max(...all.map((e) => e.requests));
      await waitFor(() => text($(el, 'tr[aria-rowindex="2"] td')) === busiest.toLocaleString('en-US'), 'busiest first');
      expect(api.requests.length, 'no request for a list that is all here').to.equal(requestsBefore);
    });

    it('sorts from the keyboard', async () => {
      const el = await table();
      await loaded(el);
      const p95 = $$<HTMLButtonElement>(el, 'th[aria-sort] button')[1]!;
      p95.focus();
      await sendKeys({ press: 'Enter' });
      await waitFor(() => rowTexts(el)[0]![2] === '1,240', 'sorted by P95');
      expect($(el, 'th[aria-sort="descending"]')?.textContent).to.contain('P95 ms');
      expect(rowTexts(el).map((r) => r[2])).to.deep.equal(['1,240', '980', '720', '310', '212', '140', '95', '88']);
    });
  });

  describe('filter and paging', () => {
    it('filters by status through the API', async () => {
      const el = await table();
      await loaded(el);
      const select = $<HTMLSelectElement>(el, 'select')!;
      expect([...select.options].map((o) => o.text)).to.deep.equal(['All statuses', 'Healthy', 'Failing', 'Slow']);
      select.value = 'Slow';
      select.dispatchEvent(new Event('change'));
      await waitFor(() => rows(el).length === 2, 'filtered rows');
      // Their v3 rows are filtered out; the route still has two versions, so each names its own.
      expect(rowTexts(el).map((r) => r[0])).to.deep.equal(['GET /usage v2 Deprecated Sunset 30 Sep 2026', 'POST /messages v2']);
      expect(api.requests.at(-1)!.searchParams.get('status')).to.equal('Slow');
      expect(el.getAttribute('status')).to.equal('Slow');
    });

    it('searches through the API with q, and says when nothing matches', async () => {
      const el = await table();
      await loaded(el);
      const search = $<HTMLInputElement>(el, 'input[type="search"]')!;
      expect(search.labels![0]!.textContent.trim()).to.equal('Search');
      search.value = ' USAGE ';
      search.dispatchEvent(new Event('change'));
      const expected = fixtures.endpoints.filter((e) => `${e.method} ${e.path}`.toLowerCase().includes('usage'));
      await waitFor(() => rows(el).length === expected.length && rowTexts(el).every((r) => r[0]!.startsWith('GET /usage')), 'searched rows');
      expect(api.requests.at(-1)!.searchParams.get('q')).to.equal('USAGE');
      expect(el.getAttribute('q')).to.equal('USAGE');
      search.value = 'nothing';
      search.dispatchEvent(new Event('change'));
      expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty state'))).to.equal('No endpoints match “nothing”.');
    });

    it('shows P50 and P99 columns when the host switches them on, sorted like the others', async () => {
      const el = await table('show-p50=&show-p99=');
      await loaded(el);
      expect($$(el, 'thead th').map((th) => text(th))).to.deep.equal(['Endpoint', 'Requests↕', 'P50 ms↕', 'P95 ms↕', 'P99 ms↕', 'Errors↕', 'Status']);
      const first = fixtures.endpoints[0]!;
      expect(rowTexts(el)[0]!.slice(1, 6)).to.deep.equal([
        first.requests.toLocaleString('en-US'),
        String(first.p50Ms),
        String(first.p95Ms),
        String(first.p99Ms),
        `${first.errorPct.toFixed(1)}%`,
      ]);
      $$<HTMLButtonElement>(el, 'thead button.sort')
        .find((b) => text(b).startsWith('P99'))!
        .click();
      const byP99 = [...fixtures.endpoints].sort((a, b) => b.p99Ms! - a.p99Ms!).map((e) => e.id);
      await waitFor(
        () =>
          rows(el)
            .map((r) => r.dataset['id'])
            .join() === byP99.join(),
        'sorted by p99',
      );
      expect(el.getAttribute('sort')).to.equal('-p99Ms');
    });

    it('shows — for a percentile an older server does not send', async () => {
      api.use(http.get(`*${API_BASE}/endpoints`, () => HttpResponse.json({ items: fixtures.endpoints.map(({ p50Ms: _, ...e }) => e), nextCursor: null })));
      const el = await table('show-p50=');
      await loaded(el);
      expect(rowTexts(el).map((r) => r[2])).to.deep.equal(fixtures.endpoints.map(() => '—'));
    });

    it('says so when no endpoint matches the filter', async () => {
      api.use(http.get(`*${API_BASE}/endpoints`, () => HttpResponse.json({ items: [], nextCursor: null })));
      const el = await table('status=Failing');
      await waitFor(() => $(el, '[part="empty"]'), 'empty state');
      expect(text($(el, '[part="empty"]'))).to.equal('No Failing endpoints.');
    });

    it('shows limit rows, then loads the next page through the cursor', async () => {
      const el = await table('limit=3');
      await loaded(el);
      expect(rows(el)).to.have.length(3);
      expect(api.requests[0]!.searchParams.get('limit')).to.equal('3');
      $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
      await waitFor(() => rows(el).length === 6, 'second page');
      expect(api.requests.at(-1)!.searchParams.get('cursor')).to.equal('3');
      $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
      await waitFor(() => rows(el).length === 8, 'last page');
      expect($(el, '[part="load-more"]')).to.equal(null);
      expect(rows(el).map((r) => r.dataset['id'])).to.deep.equal(fixtures.endpoints.map((e) => e.id));
    });

    it('caps the list at limit without "Load more" when hide-more is set', async () => {
      const el = await table('limit=5&hide-more=&hide-filter=');
      await loaded(el);
      expect(rows(el)).to.have.length(5);
      expect($(el, '[part="load-more"]')).to.equal(null);
      expect($(el, 'select')).to.equal(null);
      expect($(el, 'input[type="search"]')).to.equal(null);
    });
  });

  describe('navigation', () => {
    it('fires a cancelable ops-navigate when a row is clicked', async () => {
      const el = await table();
      await loaded(el);
      const event = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
      rows(el)[3]!.querySelector('td')!.click();
      const fired = await event;
      expect(fired.detail).to.deep.equal({ kind: 'endpoint', id: 'ep_4', label: 'POST /webhooks' });
      expect(fired.cancelable && fired.bubbles && fired.composed).to.equal(true);
    });

    it('fires ops-navigate from the keyboard', async () => {
      const el = await table();
      await loaded(el);
      const events: NavigateDetail[] = [];
      el.addEventListener('ops-navigate', (e) => events.push(e.detail));
      $$<HTMLButtonElement>(el, '.row-link')[6]!.focus();
      await sendKeys({ press: 'Enter' });
      expect(events).to.deep.equal([{ kind: 'endpoint', id: 'ep_7', label: 'GET /usage' }]);
    });
  });

  describe('loading and failures', () => {
    it('shows a skeleton while loading', async () => {
      api.use(...scenarios.slow(undefined, 60_000));
      const el = await table();
      const skeleton = await waitFor(() => $(el, '[part="skeleton"]'), 'skeleton');
      expect(skeleton.getAttribute('role')).to.equal('status');
      expect(text(skeleton)).to.equal('Loading endpoints…');
    });

    const cases: [string, () => unknown[], RegExp][] = [
      ['a 500 with problem+json', () => scenarios.serverError(), /had a problem answering\. \(500 Internal Server Error/],
      ['a 401', () => scenarios.unauthorized(), /not signed in/],
      ['an HTML error page', () => scenarios.htmlError(), /\(status 502\)/],
      ['HTML instead of JSON', () => scenarios.htmlInsteadOfJson(), /cannot read \(not JSON\)/],
      ['a schema-violating body', () => scenarios.malformed(), /shape this console does not understand/],
      ['a network failure', () => scenarios.networkError(), /Could not reach the console API/],
    ];
    for (const [name, scenario, message] of cases) {
      it(`shows ${name} in words, and Retry recovers`, async () => {
        api.use(...(scenario() as Parameters<typeof api.use>));
        const loadError = nextEvent<CustomEvent<LoadErrorDetail>>(document, 'ops-load-error');
        const el = await table();
        const panel = await errorShown(el);
        expect(panel.getAttribute('role')).to.equal('alert');
        expect(text(panel)).to.match(/^Couldn’t load endpoints\./);
        expect(text(panel)).to.match(message);
        expect((await loadError).detail.error.message).to.match(message);

        api.use(...fixtureHandlers());
        $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
        await loaded(el);
        expect(rows(el)).to.have.length(8);
        expect($(el, '[part="error"]')).to.equal(null);
      });
    }

    it('says a 404 (api-base pointing elsewhere) in words, without a Retry that cannot help', async () => {
      api.use(...scenarios.notFound());
      const el = await table();
      const panel = await errorShown(el);
      expect(text(panel)).to.equal(
        'Couldn’t load endpoints. The console API found nothing at this address: the record no longer exists, or api-base points elsewhere. (404 Not found)',
      );
      expect($(el, '[part="retry-button"]')).to.equal(null);
    });

    it('keeps what was wrong with a malformed body for developers: in the event and the console, not the panel', async () => {
      api.use(...scenarios.malformed());
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        const loadError = nextEvent<CustomEvent<LoadErrorDetail>>(document, 'ops-load-error');
        const el = await table();
        const panel = await errorShown(el);
        expect(text(panel)).to.equal('Couldn’t load endpoints. The console API sent data in a shape this console does not understand. Retry');
        expect((await loadError).detail.error.issues).to.include('items[0].requests: expected number, got string');
        expect(warnings.join('\n')).to.contain('<ops-endpoint-table> The console API sent data in a shape this console does not understand.');
        expect(warnings.join('\n')).to.contain('items[0].requests: expected number, got string');
      } finally {
        console.warn = warn;
      }
    });

    it('times out on a hanging API with the configured timeout', async () => {
      api.use(...scenarios.hang());
      const wrapper = await fixture(html`<ops-console api-base=${API_BASE} timeout-ms="1000"><ops-endpoint-table></ops-endpoint-table></ops-console>`);
      const el = wrapper.querySelector('ops-endpoint-table')!;
      const panel = await errorShown(el);
      expect(text(panel)).to.contain('did not answer within 1 second');
    });

    it('explains a missing api-base instead of requesting anything', async () => {
      const el = await fixture<OpsEndpointTable>(html`<ops-endpoint-table></ops-endpoint-table>`);
      const panel = await errorShown(el);
      expect(text(panel)).to.contain('No console API is configured');
      expect(api.requests).to.have.length(0);
    });

    it('never paints a superseded response over a newer one', async () => {
      api.use(
        http.get(`*${API_BASE}/endpoints`, async ({ request }) => {
          if (new URL(request.url).searchParams.get('status') === 'Healthy') await delay(400);
        }),
      );
      const el = await table('status=Healthy');
      await waitFor(() => api.requests.length === 1, 'first request sent');
      el.status = 'Failing';
      await waitFor(() => rows(el).length === 1, 'newer response');
      await delay(600); // the older, slower response has arrived by now
      expect(rowTexts(el).map((r) => r[0])).to.deep.equal(['POST /webhooks']);
    });
  });

  describe('configuration', () => {
    it('formats figures in the configured locale', async () => {
      const el = await table('locale=de-DE');
      await loaded(el);
      // The German words arrive with their own chunk; the numbers are German from the start.
      await waitFor(() => rowTexts(el)[0]?.[4] === 'Intakt', 'German status');
      expect(rowTexts(el)[0]).to.deep.equal(['POST /messages v3', '482.113', '212', '0,4 %', 'Intakt']);
    });

    it('takes the locale from the wrapper unless the element sets its own', async () => {
      const wrapper = await fixture(html`<ops-console api-base=${API_BASE} locale="de-DE">
        <ops-endpoint-table id="inherits"></ops-endpoint-table>
        <ops-endpoint-table id="own" locale="en-US"></ops-endpoint-table>
      </ops-console>`);
      const [inherits, own] = [wrapper.querySelector('#inherits')!, wrapper.querySelector('#own')!];
      await loaded(inherits);
      await loaded(own);
      expect(rowTexts(inherits)[0]![1]).to.equal('482.113');
      expect(rowTexts(own)[0]![1]).to.equal('482,113');
    });

    it('takes api-base and token from an <ops-console> wrapper', async () => {
      let authorization: string | null = null;
      api.use(
        http.get(`*${API_BASE}/endpoints`, ({ request }) => {
          authorization = request.headers.get('Authorization');
        }),
      );
      const wrapper = await fixture<HTMLElement & { getToken?: () => Promise<string> }>(
        html`<ops-console api-base=${API_BASE} .getToken=${() => Promise.resolve('tok_wrapper')}><div><ops-endpoint-table></ops-endpoint-table></div></ops-console>`,
      );
      const el = wrapper.querySelector('ops-endpoint-table')!;
      await loaded(el);
      expect(authorization).to.equal('Bearer tok_wrapper');
    });

    it("prefers the element's own api-base over the wrapper's", async () => {
      const wrapper = await fixture(
        html`<ops-console api-base="http://127.0.0.1:9/refused/v1"><ops-endpoint-table api-base=${API_BASE}></ops-endpoint-table></ops-console>`,
      );
      const el = wrapper.querySelector('ops-endpoint-table')!;
      await loaded(el);
      expect(rows(el)).to.have.length(8);
    });

    it('reloads when api-base changes', async () => {
      const el = await fixture<OpsEndpointTable>(html`<ops-endpoint-table api-base="http://127.0.0.1:9/refused/v1"></ops-endpoint-table>`);
      await errorShown(el);
      el.apiBase = API_BASE;
      await loaded(el);
      expect(rows(el)).to.have.length(8);
    });
  });

  it('never downloads chart code', async () => {
    const el = await table();
    await loaded(el);
    const scripts = performance.getEntriesByType('resource').map((e) => e.name);
    expect(scripts.some((name) => name.includes('/src/'))).to.equal(true); // the log does see our modules
    expect(scripts.filter((name) => /echarts|zrender/.test(name))).to.deep.equal([]);
  });

  describe('accessibility', () => {
    it('passes axe in light theme', async () => {
      const el = await table('theme=light');
      await loaded(el);
      await expect(el).to.be.accessible();
    });

    it('passes axe in dark theme', async () => {
      const el = await table('theme=dark');
      await loaded(el);
      expect(getComputedStyle(el).colorScheme).to.equal('dark');
      expect(getComputedStyle(el).backgroundColor).to.equal('rgb(21, 23, 28)');
      await expect(el).to.be.accessible();
    });

    it('passes axe in the error state', async () => {
      api.use(...scenarios.serverError());
      const el = await table();
      await errorShown(el);
      await expect(el).to.be.accessible();
    });
  });
});

/** Handlers that answer like the defaults again, in front of a scenario still installed. */
function fixtureHandlers() {
  return [http.get(`*${API_BASE}/endpoints`, () => HttpResponse.json({ items: fixtures.endpoints, nextCursor: null }))];
}
