import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import { $, $$, allowVirtualizerResizeNotice, nextEvent, nextFrames, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { RequestEntry } from '../../api/schemas.ts';
import { createConsoleClient } from '../../api/client.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsRequestLog } from './ops-request-log.ts';

const rows = (el: Element) => $$(el, '[part="row"]');
const rowText = (row: Element) => ['.row-link', '.status', '.duration', '.actor', '.time'].map((s) => text(row.querySelector(s)));
const loaded = (el: Element) => waitFor(() => rows(el).length > 0, 'rows rendered');
const requestsTo = (api: { requests: URL[] }, path: string) => api.requests.filter((u) => u.pathname.endsWith(path));

async function log(attributes = '') {
  return mount<OpsRequestLog>('ops-request-log', attrs(attributes));
}

function change(el: Element, selector: string, value: string) {
  const input = $<HTMLInputElement | HTMLSelectElement>(el, selector)!;
  input.value = value;
  input.dispatchEvent(new Event('change'));
}

const entry = (id: string, time: string, extra: Partial<RequestEntry> = {}): RequestEntry => ({
  id,
  method: 'POST',
  path: '/messages',
  status: 201,
  durationMs: 99,
  actor: { id: 'u_new', name: 'Noor Ali' },
  time,
  ...extra,
});

describe('ops-request-log', () => {
  const api = useMockApi();
  allowVirtualizerResizeNotice();

  describe('timeline', () => {
    it('asks for the next page only once the reader scrolls, when the first page fills its frame (an embedded limit="20")', async () => {
      const el = await log('limit=20');
      await loaded(el);
      await nextFrames();
      expect(requestsTo(api, '/requests')).to.have.length(1, 'one page until the reader scrolls');
      const frame = $(el, '.timeline')!;
      frame.scrollTop = frame.scrollHeight;
      frame.dispatchEvent(new Event('scroll'));
      await waitFor(() => requestsTo(api, '/requests').length === 2, 'the next page once scrolled');
    });

    it('filters by customer from its Customer field, in the timeline and the summary', async () => {
      const el = await log();
      await loaded(el);
      const field = $<HTMLInputElement>(el, '.customer-filter input')!;
      expect(text($(el, '.customer-filter span'))).to.equal('Customer');
      field.value = 'cus_globex';
      field.dispatchEvent(new Event('change'));
      await waitFor(() => requestsTo(api, '/requests').some((u) => u.searchParams.get('customerId') === 'cus_globex'), 'asked for the customer');
      expect(el.getAttribute('customer-id')).to.equal('cus_globex');
      // The unfiltered rows stay on screen until the filtered answer replaces them: wait for that answer, not for any rows.
      const client = createConsoleClient({ baseUrl: API_BASE });
      const theirs = new Set((await client.listRequests({ customerId: 'cus_globex', limit: 500 })).items.map((entry) => entry.id));
      await waitFor(() => rows(el).length > 0 && el.entries().every((entry) => theirs.has(entry.id)), 'the customer’s rows');
      for (const entry of el.entries().slice(0, 5)) expect((await client.getRequest(entry.id)).customer!.id).to.equal('cus_globex');
      el.view = 'summary';
      await waitFor(() => requestsTo(api, '/requests/summary').some((u) => u.searchParams.get('customerId') === 'cus_globex'), 'summary of the customer');
    });

    it('filters by API key from its Key field, in the timeline and the summary', async () => {
      const el = await log();
      await loaded(el);
      const field = $<HTMLInputElement>(el, '.key-filter input')!;
      expect(text($(el, '.key-filter span'))).to.equal('Key');
      field.value = 'key_live_acme_1';
      field.dispatchEvent(new Event('change'));
      await waitFor(() => requestsTo(api, '/requests').some((u) => u.searchParams.get('keyId') === 'key_live_acme_1'), 'asked for the key');
      expect(el.getAttribute('key-id')).to.equal('key_live_acme_1');
      const client = createConsoleClient({ baseUrl: API_BASE });
      const theirs = new Set((await client.listRequests({ keyId: 'key_live_acme_1', limit: 500 })).items.map((entry) => entry.id));
      await waitFor(() => rows(el).length > 0 && el.entries().every((entry) => theirs.has(entry.id)), 'the key’s rows');
      for (const entry of el.entries().slice(0, 5)) expect((await client.getRequest(entry.id)).keyId).to.equal('key_live_acme_1');
      el.view = 'summary';
      await waitFor(() => requestsTo(api, '/requests/summary').some((u) => u.searchParams.get('keyId') === 'key_live_acme_1'), 'summary of the key');
    });

    it('shows only the requests of a time range: between from and to, or since a named range began', async () => {
      const el = await log('from=2026-09-14T08:00:00Z&to=2026-09-14T08:10:00Z');
      await loaded(el);
      const times = rows(el).map((row) => Date.parse(row.querySelector('time')!.getAttribute('datetime')!));
      expect(times.length).to.equal(20, 'one request every 30 seconds');
      for (const time of times) expect(time >= Date.parse('2026-09-14T08:00:00Z') && time < Date.parse('2026-09-14T08:10:00Z')).to.equal(true);
      const ranged = await log('range=1h&view=summary');
      await waitFor(() => requestsTo(api, '/requests/summary').length > 0, 'summary asked');
      expect(requestsTo(api, '/requests/summary').at(-1)!.searchParams.get('range')).to.equal('1h');
      ranged.view = 'timeline';
      await waitFor(() => requestsTo(api, '/requests').some((u) => u.searchParams.get('range') === '1h'), 'timeline asked for the range');
    });

    it('names its columns above the rows, each over its own column', async () => {
      const el = await mount('ops-request-log', {}, { width: 1000 });
      await loaded(el);
      const heads = [...$(el, '.timeline-head')!.children];
      expect(heads.map((h) => text(h))).to.deep.equal(['Endpoint', 'Status', 'Duration', 'Actor', 'Time']);
      const cells = rowText(rows(el)[0]!).map((_, i) => rows(el)[0]!.children[i]!);
      heads.forEach((head, i) => {
        const [h, c] = [head.getBoundingClientRect(), cells[i]!.getBoundingClientRect()];
        expect([Math.round(h.left), Math.round(h.right)], `${text(head)} over its column`).to.deep.equal([Math.round(c.left), Math.round(c.right)]);
      });
      // The right-aligned duration and the actor after it read as two columns, not one phrase.
      const duration = document.createRange();
      duration.selectNodeContents(rows(el)[0]!.querySelector('.duration')!);
      const actor = document.createRange();
      actor.selectNodeContents(rows(el)[0]!.querySelector('.actor')!);
      expect(actor.getBoundingClientRect().left - duration.getBoundingClientRect().right).to.be.at.least(12);
    });

    it('keeps its toolbar to six rows, in reading order, in a narrow container', async () => {
      const el = await mount('ops-request-log', {}, { width: 320 });
      await loaded(el);
      const controls = [...$(el, '[part="toolbar"]')!.children].filter((c) => !c.classList.contains('visually-hidden'));
      const rowsOfControls = new Map<number, string[]>();
      for (const control of controls) {
        const top = Math.round(control.getBoundingClientRect().top);
        const row = [...rowsOfControls.keys()].find((t) => Math.abs(t - top) < 12) ?? top;
        rowsOfControls.set(row, [...(rowsOfControls.get(row) ?? []), text(control).slice(0, 12) || control.localName]);
      }
      expect(rowsOfControls.size, 'rows').to.be.at.most(6);
      // Read left to right, top to bottom, the controls come in the order the keyboard reaches them.
      expect([...rowsOfControls.values()].flat()).to.deep.equal([
        'View Timelin',
        'Method All G',
        'Status',
        'Search',
        'Path',
        'Customer',
        'Key',
        'Live',
        'Export CSV',
      ]);
    });

    it('lines the status badges up on one edge in a narrow container', async () => {
      const el = await mount('ops-request-log', {}, { width: 320 });
      await loaded(el);
      const edges = new Set(rows(el).map((row) => Math.round(row.querySelector('.badge')!.getBoundingClientRect().right)));
      expect(edges.size, 'distinct right edges').to.equal(1);
      expect(getComputedStyle($(el, '.timeline-head')!).display, 'column names of cards').to.equal('none');
    });

    it('lists the latest requests newest first in the seed formats', async () => {
      const el = await log();
      await loaded(el);
      expect(rowText(rows(el)[0]!)).to.deep.equal(['POST /webhooks', '500', '1,240 ms', 'Lee Park', '14 Sep 2026 at 09:41']);
      const times = rows(el).map((r) => r.querySelector('time')!.getAttribute('datetime')!);
      expect([...times].sort().reverse()).to.deep.equal(times);
      expect(requestsTo(api, '/requests')[0]!.searchParams.get('limit')).to.equal('100');
    });

    it('colours status badges by class', async () => {
      const el = await log();
      await loaded(el);
      const tones = new Map(rows(el).map((r) => [text(r.querySelector('.badge')), r.querySelector<HTMLElement>('.badge')!.dataset['tone']]));
      expect(Object.fromEntries(tones)).to.deep.equal({ '500': 'danger', '200': 'success', '201': 'success' });
    });

    it('shows times in the configured time zone', async () => {
      const el = await log('time-zone=Asia/Tokyo');
      await loaded(el);
      expect(text(rows(el)[0]!.querySelector('.time'))).to.equal('14 Sep 2026 at 18:41');
    });

    it('fires ops-navigate for a request', async () => {
      const el = await log();
      await loaded(el);
      const fired = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
      rows(el)[0]!.querySelector('button')!.click();
      expect((await fired).detail).to.deep.equal({ kind: 'request', id: rows(el)[0]!.dataset['id'], label: text(rows(el)[0]!.querySelector('.row-link')) });
    });
  });

  describe('filters', () => {
    it('sends method, status and path to the API', async () => {
      const el = await log();
      await loaded(el);
      change(el, 'select', 'POST');
      await waitFor(() => requestsTo(api, '/requests').at(-1)!.searchParams.get('method') === 'POST', 'method sent');
      change(el, '.status-input', '5xx');
      change(el, '.path-filter input', '/web');
      await waitFor(() => requestsTo(api, '/requests').at(-1)!.searchParams.get('path') === '/web', 'path sent');
      expect(Object.fromEntries(requestsTo(api, '/requests').at(-1)!.searchParams)).to.deep.equal({
        method: 'POST',
        status: '5xx',
        path: '/web',
        limit: '100',
      });
      await waitFor(() => rows(el).length > 0 && rows(el).every((r) => text(r.querySelector('.row-link')) === 'POST /webhooks'), 'filtered rows');
      expect([el.getAttribute('method'), el.getAttribute('status'), el.getAttribute('path')]).to.deep.equal(['POST', '5xx', '/web']);
    });

    it('searches with q: the words go to the API, the rows are those it finds, and the search is kept on the element', async () => {
      const el = await log();
      await loaded(el);
      expect(text($(el, '.search span'))).to.equal('Search');
      change(el, '.search input', 'WEBHOOKS');
      await waitFor(() => requestsTo(api, '/requests').at(-1)!.searchParams.get('q') === 'WEBHOOKS', 'q sent');
      await waitFor(() => rows(el).length > 0 && rows(el).every((r) => /webhooks/i.test(text(r.querySelector('.row-link')))), 'found rows');
      expect(el.getAttribute('q')).to.equal('WEBHOOKS');
      change(el, '.search input', 'no-such-word-anywhere');
      await waitFor(() => text($(el, '[part="empty"]')) === 'No requests match these filters.', 'nothing found');
    });

    it('shows a filtered list from its first entry, wherever the reader was in the last one', async () => {
      const el = await log();
      await loaded(el);
      const timeline = $(el, '.timeline')!;
      timeline.scrollTop = 1_200;
      await waitFor(() => rows(el).some((r) => Number(r.getAttribute('aria-posinset')) > 30), 'scrolled down');
      change(el, 'select', 'GET');
      await waitFor(() => rows(el).length > 0 && rows(el).every((r) => text(r.querySelector('.row-link')).startsWith('GET ')), 'filtered rows');
      await waitFor(() => timeline.scrollTop === 0 && rows(el)[0]!.getAttribute('aria-posinset') === '1', 'at the first entry');
      const top = rows(el)[0]!.getBoundingClientRect().top;
      expect(top - timeline.getBoundingClientRect().top).to.be.below(2);
    });

    it('refuses a status that is neither a code nor a class', async () => {
      const el = await log();
      await loaded(el);
      const before = requestsTo(api, '/requests').length;
      change(el, '.status-input', 'five hundred');
      await el.updateComplete;
      expect($(el, '.status-input')!.getAttribute('aria-invalid')).to.equal('true');
      expect(text($(el, '#status-hint'))).to.equal('A code such as 500, or a class such as 5xx.');
      expect(requestsTo(api, '/requests')).to.have.length(before);
    });

    it('says so when nothing matches', async () => {
      const el = await log('method=DELETE');
      const empty = await waitFor(() => $(el, '[part="empty"]'), 'empty');
      expect(text(empty)).to.equal('No requests match these filters.');
    });

    it('keeps view and filters across a page reload with persist-key', async () => {
      sessionStorage.clear();
      const first = await log('persist-key=t1');
      await loaded(first);
      change(first, 'select', 'GET');
      first.view = 'summary';
      await first.updateComplete;
      first.remove();
      const again = await log('persist-key=t1');
      expect([again.view, again.method]).to.deep.equal(['summary', 'GET']);
      await waitFor(() => $$(again, '[part="summary-row"]').length > 0, 'summary restored');
      expect($$(again, '[part="summary-row"] th').map(text)).to.deep.equal(['GET /contacts', 'GET /usage']);
    });
  });

  describe('scoped to one endpoint or one customer', () => {
    it('lists only the requests of the endpoint-id row, in the timeline and the summary', async () => {
      const el = await log('endpoint-id=ep_4');
      await loaded(el);
      expect(requestsTo(api, '/requests').at(-1)!.searchParams.get('endpointId')).to.equal('ep_4');
      for (const row of rows(el)) expect(text(row.querySelector('.row-link'))).to.equal('POST /webhooks');
      el.view = 'summary';
      await waitFor(() => $$(el, '[part="summary-row"]').length > 0, 'summary');
      expect(requestsTo(api, '/requests/summary').at(-1)!.searchParams.get('endpointId')).to.equal('ep_4');
      expect($$(el, '[part="summary-row"] th').map(text)).to.deep.equal(['POST /webhooks']);
    });

    it("lists only one customer's requests with customer-id, and follows a change of it", async () => {
      const el = await log('customer-id=cus_acme');
      await loaded(el);
      expect(requestsTo(api, '/requests').at(-1)!.searchParams.get('customerId')).to.equal('cus_acme');
      const acme = rows(el).map((row) => row.dataset['id']);
      el.customerId = 'cus_globex';
      await waitFor(() => requestsTo(api, '/requests').at(-1)!.searchParams.get('customerId') === 'cus_globex', 'asked again');
      await waitFor(() => rows(el).length > 0 && rows(el)[0]!.dataset['id'] !== acme[0], 'other rows');
      expect(rows(el).map((row) => row.dataset['id'])).not.to.include.members(acme.slice(0, 3));
      expect(el.getAttribute('customer-id')).to.equal('cus_globex');
    });
  });

  describe('summary', () => {
    it('switches views with a keyboard-operable control reflected in the view attribute', async () => {
      const el = await log();
      await loaded(el);
      const radios = $$<HTMLInputElement>(el, 'input[name="view"]');
      expect(radios.map((r) => text(r.parentElement))).to.deep.equal(['Timeline', 'Summary']);
      radios[0]!.focus();
      await sendKeys({ press: 'ArrowRight' });
      await waitFor(() => el.getAttribute('view') === 'summary', 'view attribute');
      await waitFor(() => $$(el, '[part="summary-row"]').length === 5, 'summary rows');
      expect(requestsTo(api, '/requests/summary')).to.have.length(1);
    });

    it('groups by method, path and status with a "this week" count, sortable', async () => {
      const el = await log('view=summary');
      await waitFor(() => $$(el, '[part="summary-row"]').length === 5, 'summary rows');
      const table = () => $$(el, '[part="summary-row"]').map((r) => [...r.children].map(text));
      expect($$(el, 'thead th').map((th) => text(th).replace(/[▲▼↕]/g, ''))).to.deep.equal(['Endpoint', 'Status', 'Duration', 'This week']);
      expect(table()[0]).to.deep.equal(['POST /messages', '201', '180 ms', '1,204']);
      expect(table().map((r) => r[3])).to.deep.equal(['1,204', '860', '412', '298', '37']);
      expect($(el, 'th[aria-sort="descending"]')!.textContent).to.contain('This week');
      $$<HTMLButtonElement>(el, 'thead button')[2]!.click();
      await el.updateComplete;
      expect(table().map((r) => r[2])).to.deep.equal(['1,240 ms', '210 ms', '180 ms', '72 ms', '64 ms']);
      $$<HTMLButtonElement>(el, 'thead button')[2]!.click();
      await el.updateComplete;
      expect($(el, 'th[aria-sort="ascending"]')!.textContent).to.contain('Duration');
      expect(table()[0]![2]).to.equal('64 ms');
    });
  });

  describe('scale', () => {
    it('loads the next page by cursor as the reader scrolls', async () => {
      const el = await log('limit=50');
      await loaded(el);
      const timeline = $(el, '.timeline')!;
      timeline.scrollTop = timeline.scrollHeight;
      await waitFor(() => requestsTo(api, '/requests').some((u) => u.searchParams.get('cursor') === '50'), 'second page');
      await waitFor(() => el.entries().length >= 100, 'second page shown');
      expect(new Set(el.entries().map((e) => e.id)).size).to.equal(el.entries().length); // pages never overlap
    });

    for (const width of ['', '400px']) {
      it(`shows a first page of 100 as it is, then keeps the reader on the same entry as virtual scrolling takes over${width ? ` (${width} wide: taller rows)` : ''}`, async () => {
        api.use(...scenarios.large());
        const el = await log('limit=100');
        el.style.width = width;
        await loaded(el);
        expect(rows(el)).to.have.length(100);
        expect(rows(el).map((r) => r.getAttribute('aria-posinset'))).to.deep.equal(el.entries().map((_, i) => String(i + 1)));
        const timeline = $(el, '.timeline')!;
        // Near the end of the first page: the next one is asked for, and the list passes 100 entries.
        timeline.scrollTop = timeline.scrollHeight - timeline.clientHeight - 400;
        const offsetOf = (id: string) =>
          rows(el)
            .find((r) => r.dataset['id'] === id)!
            .getBoundingClientRect().top - timeline.getBoundingClientRect().top;
        const watchedId = rows(el).find((r) => r.getBoundingClientRect().top >= timeline.getBoundingClientRect().top)!.dataset['id']!;
        const before = offsetOf(watchedId);
        await waitFor(() => el.entries().length === 200 && rows(el).length < 100, 'second page, virtual rows');
        await waitFor(async () => {
          const seen = offsetOf(watchedId);
          await new Promise(requestAnimationFrame);
          return seen === offsetOf(watchedId);
        }, 'settled');
        expect(Math.abs(offsetOf(watchedId) - before), `${watchedId} stays where the reader saw it`).to.be.lessThan(1);
        expect(
          rows(el)
            .find((r) => r.dataset['id'] === watchedId)!
            .getAttribute('aria-posinset'),
        ).to.equal(String(el.entries().findIndex((e) => e.id === watchedId) + 1));
      });
    }

    it('after a long list, shows a filtered one from its top and still pages it as the reader scrolls', async () => {
      const el = await log('limit=100');
      await loaded(el);
      const timeline = $(el, '.timeline')!;
      await waitFor(() => {
        timeline.scrollTop = timeline.scrollHeight;
        return el.entries().length >= 200 && rows(el).length < 100;
      }, 'two pages, virtual rows');
      change(el, 'select', 'GET');
      await waitFor(() => rows(el).length === 100 && rows(el).every((r) => text(r.querySelector('.row-link')).startsWith('GET ')), 'the filtered first page');
      expect(timeline.scrollTop).to.equal(0);
      timeline.scrollTop = timeline.scrollHeight;
      await waitFor(
        () => requestsTo(api, '/requests').some((u) => u.searchParams.get('method') === 'GET' && u.searchParams.has('cursor')),
        "the filtered list's second page",
      );
      await waitFor(() => el.entries().length > 100 && el.entries().every((e) => e.method === 'GET'), 'shown');
    });

    it('keeps fewer than 200 rows in the DOM over the 1,000,000-entry log', async () => {
      api.use(...scenarios.large());
      const el = await log('limit=500');
      await loaded(el);
      const timeline = $(el, '.timeline')!;
      await waitFor(() => {
        timeline.scrollTop = timeline.scrollHeight; // the reader keeps scrolling to the end
        return el.entries().length >= 2500;
      }, 'five pages');
      expect(el.entries().length).to.equal(2500);
      expect(rows(el).length).to.be.greaterThan(5).and.lessThan(200);
      expect(new Set(el.entries().map((e) => e.id)).size).to.equal(2500);
    });
  });

  describe('live tail', () => {
    function serveArrivals(arrivals: () => RequestEntry[]) {
      api.use(
        http.get(`*${API_BASE}/requests`, ({ request }) => {
          const since = new URL(request.url).searchParams.get('since');
          if (!since) return undefined; // the first page comes from the default handler
          return HttpResponse.json({ items: arrivals().filter((e) => e.time > since), nextCursor: null });
        }),
      );
    }

    it('puts new entries on top, with the filters, and never twice', async () => {
      let arrivals: RequestEntry[] = [];
      serveArrivals(() => arrivals);
      const el = await log('live=&refresh-interval=2&method=POST');
      await loaded(el);
      arrivals = [entry('rq_live_1', '2026-09-14T09:42:00Z')];
      await waitFor(() => rows(el)[0]!.dataset['id'] === 'rq_live_1', 'first arrival');
      arrivals = [entry('rq_live_2', '2026-09-14T09:43:00Z'), ...arrivals];
      await waitFor(() => rows(el)[0]!.dataset['id'] === 'rq_live_2', 'second arrival');
      await waitFor(() => requestsTo(api, '/requests').some((u) => u.searchParams.get('since') === '2026-09-14T09:43:00Z'), 'poll since the newest');
      const polls = requestsTo(api, '/requests').filter((u) => u.searchParams.has('since'));
      expect(polls.every((u) => u.searchParams.get('method') === 'POST')).to.equal(true);
      const ids = el.entries().map((e) => e.id);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids.slice(0, 2)).to.deep.equal(['rq_live_2', 'rq_live_1']);
    });

    it('says when it last looked for new entries by its clock, which a host can pin', async () => {
      serveArrivals(() => []);
      const el = await log('live=&refresh-interval=2');
      el.clock = () => new Date('2026-09-14T10:05:00Z');
      await loaded(el);
      await waitFor(() => text($(el, '.live-status')) === 'Updated 10:05', 'the pinned time');
    });

    it('holds arrivals behind "N new" while the reader is scrolled down, so nothing moves', async () => {
      let arrivals: RequestEntry[] = [];
      serveArrivals(() => arrivals);
      const el = await log('live=&refresh-interval=2');
      await loaded(el);
      const timeline = $(el, '.timeline')!;
      timeline.scrollTop = 600;
      // The virtualizer measures and re-places rows over a few frames (and reuses row elements),
      // so the reader's view is what is on screen once it has settled, followed by entry id.
      const view = () =>
        rows(el)
          .map((r) => `${r.dataset['id']}@${r.getBoundingClientRect().top}`)
          .join(' ');
      await waitFor(async () => {
        const seen = view();
        await new Promise(requestAnimationFrame);
        await new Promise(requestAnimationFrame);
        return seen === view() && timeline.scrollTop > 0;
      }, 'scrolled and settled');
      const topOf = (id: string) =>
        rows(el)
          .find((r) => r.dataset['id'] === id)
          ?.getBoundingClientRect().top;
      const watchedId = rows(el).find((r) => r.getBoundingClientRect().top > timeline.getBoundingClientRect().top)!.dataset['id']!;
      const before = topOf(watchedId);
      arrivals = [entry('rq_live_a', '2026-09-14T09:42:00Z'), entry('rq_live_b', '2026-09-14T09:42:30Z')].reverse();
      const button = await waitFor(() => $<HTMLButtonElement>(el, '[part="new-entries"]'), 'N new');
      expect(text(button)).to.equal('2 new');
      const head = $(el, '.timeline-head')!.getBoundingClientRect();
      expect(button.getBoundingClientRect().top, 'below the column names, not over them').to.be.at.least(head.bottom);
      expect(topOf(watchedId), `row ${watchedId} stays where the reader saw it`).to.equal(before);
      expect(el.entries()[0]!.id).not.to.equal('rq_live_b');
      button.click();
      await waitFor(() => el.entries()[0]!.id === 'rq_live_b' && timeline.scrollTop === 0, 'merged on top');
      expect($(el, '[part="new-entries"]')).to.equal(null);
    });
  });

  describe('export', () => {
    it('exports what is loaded under the current filters as CSV', async () => {
      const el = await log('method=POST&limit=50');
      await loaded(el);
      await waitFor(() => el.entries().length >= 50, 'a page loaded');
      const lines = el.toCsv().trimEnd().split('\r\n');
      expect(lines[0]).to.equal('Time,Method,Path,Status,Duration (ms),Actor');
      expect(lines[1]).to.equal('2026-09-14T09:41:00Z,POST,/webhooks,500,1240,Lee Park');
      expect(lines).to.have.length(el.entries().length + 1);
      expect(lines.slice(1).every((l) => l.split(',')[1] === 'POST')).to.equal(true);
    });

    it('keeps API strings inert in the CSV', async () => {
      api.use(
        http.get(`*${API_BASE}/requests`, () =>
          HttpResponse.json({
            items: [entry('x', '2026-09-14T09:41:00Z', { path: '/a,"b"', actor: { id: 'u', name: '=HYPERLINK("http://evil")' } })],
            nextCursor: null,
          }),
        ),
      );
      const el = await log();
      await loaded(el);
      expect(el.toCsv().split('\r\n')[1]).to.equal('2026-09-14T09:41:00Z,POST,"/a,""b""",201,99,"\'=HYPERLINK(""http://evil"")"');
    });

    it('lines its toolbar up: the view switch, Method, Status, Path and Export CSV are one height', async () => {
      const el = await log();
      await loaded(el);
      const heights = ['.switch', 'select', '.status-input', 'input[type="search"]', '.toolbar .button'].map((s) => $(el, s)!.getBoundingClientRect().height);
      expect(new Set(heights).size, heights.join(', ')).to.equal(1);
    });

    it('shows Export CSV as disabled while there is nothing to export', async () => {
      const exportButton = (el: Element) => $$<HTMLButtonElement>(el, '.toolbar .button').find((b) => text(b) === 'Export CSV')!;
      const withRows = await log();
      await loaded(withRows);
      api.use(http.get(`*${API_BASE}/requests`, () => HttpResponse.json({ items: [], nextCursor: null })));
      const empty = await log();
      await waitFor(() => $(empty, '[part="empty"]'), 'empty');
      expect([exportButton(withRows).disabled, exportButton(empty).disabled]).to.deep.equal([false, true]);
      const enabled = getComputedStyle(exportButton(withRows));
      const disabled = getComputedStyle(exportButton(empty));
      expect(disabled.cursor).to.equal('not-allowed');
      expect(Number(disabled.opacity)).to.be.lessThan(Number(enabled.opacity));
      expect(disabled.borderTopStyle).to.not.equal(enabled.borderTopStyle);
    });

    it('downloads requests.csv from the Export CSV button', async () => {
      api.use(
        http.get(`*${API_BASE}/requests`, () =>
          HttpResponse.json({ items: [entry('a', '2026-09-14T09:41:00Z'), entry('b', '2026-09-14T09:40:00Z')], nextCursor: null }),
        ),
      );
      const el = await log();
      await waitFor(() => rows(el).length === 2, 'two rows');
      const clicked = new Promise<HTMLAnchorElement>((resolve) => {
        // Catch the download link's click instead of letting the browser save a file.
        HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
          Reflect.deleteProperty(HTMLAnchorElement.prototype, 'click');
          resolve(this);
        };
      });
      $$<HTMLButtonElement>(el, '.toolbar .button')
        .find((b) => text(b) === 'Export CSV')!
        .click();
      expect(el.toCsv().split('\r\n')).to.have.length(4);
      const link = await clicked;
      expect(link.download).to.equal('requests.csv');
      expect(await (await fetch(link.href)).text()).to.equal(el.toCsv());
    });
  });

  describe('failures and accessibility', () => {
    // Every failure kind is covered for every element by test/hardening.test.ts; here, Retry keeps the filters.
    it('retries with the same filters after a failure', async () => {
      api.use(...scenarios.serverError());
      const el = await log('method=GET');
      await waitFor(() => $(el, '[part="error"]'), 'error');
      api.resetHandlers();
      $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
      await loaded(el);
      expect(requestsTo(api, '/requests').at(-1)!.searchParams.get('method')).to.equal('GET');
    });

    // The state a review's axe run on the demo page flagged (scrollable-region-focusable): live,
    // below the fold, after a poll, in the flow (100 rows) and virtual (200). Not reproduced with
    // axe 4.14 in Chromium 156; kept so the project's own axe runs reach that state.
    it('passes axe live and below the fold, after a poll, in the flow and virtually scrolled', async () => {
      for (const limit of [100, 200]) {
        const box = await fixture<HTMLDivElement>(
          html`<div><div style="height: 3000px"></div><ops-request-log api-base=${API_BASE} live refresh-interval="2" limit=${limit} time-zone="UTC"></ops-request-log></div>`,
        );
        const el = box.querySelector<OpsRequestLog>('ops-request-log')!;
        await loaded(el);
        await waitFor(() => text($(el, '.live-status')).startsWith('Updated'), 'polled');
        await expect(el).to.be.accessible();
      }
    });

    it('passes axe in light and dark, in both views', async () => {
      for (const theme of ['light', 'dark']) {
        const el = await log(`theme=${theme}`);
        await loaded(el);
        await expect(el).to.be.accessible();
        el.view = 'summary';
        await waitFor(() => $$(el, '[part="summary-row"]').length > 0, 'summary');
        await expect(el).to.be.accessible();
      }
    });
  });
});
