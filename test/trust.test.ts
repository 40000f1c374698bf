/**
 * The confirmed defects of the trust issue, one `describe` per item, each reproduced the way
 * it was found (an adversarial page or server) and checked by what a person or host sees.
 */
import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../mocks/index.ts';
import { problem } from '../mocks/problem.ts';
import '../src/all.ts';
import { createConsoleClient } from '../src/api/client.ts';
import type { ConsoleApiError } from '../src/api/errors.ts';
import * as schema from '@ops-console/contract/schemas';
import type { ActivityItem, Endpoint, RequestEntry } from '@ops-console/contract/schemas';
import { toCsv } from '../src/shared/csv.ts';
import type { LoadErrorDetail } from '../src/shared/events.ts';
import { $, $$, allowVirtualizerResizeNotice, nextEvent, text, waitFor } from './dom.ts';
import { mount, panel } from './harness.ts';
import { API_BASE, useMockApi } from './mock-api.ts';

/** Collects console.warn lines while `run` runs. */
async function warnings<T>(run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    return { result: await run(), lines };
  } finally {
    console.warn = original;
  }
}

const tableRows = (el: Element) => $$(el, 'tbody tr').map((tr) => text(tr.querySelector('.row-link')));
const endpoint = (id: string, label: string): Endpoint => ({ id, method: 'GET', path: `/${label}`, requests: 1, p95Ms: 1, errorPct: 0, status: 'Healthy' });

/** A tenant's endpoint list of four, two per page: `GET /A/1` … `GET /A/4`. */
const tenantEndpoints = (tenant: string) => tenantPages(tenant, 'endpoints', (t, n) => endpoint(`${t}_${n}`, `${t}/${n}`));

/** A tenant's list of four, two per page, newest first: `<tenant>_1` … `<tenant>_4`. */
function tenantPages<T>(tenant: string, path: string, make: (tenant: string, n: number) => T) {
  return http.get(`*/${tenant}/v1/${path}`, ({ request }) => {
    const start = Number(new URL(request.url).searchParams.get('cursor') ?? 0);
    const all = [1, 2, 3, 4].map((n) => make(tenant, n));
    return HttpResponse.json({ items: all.slice(start, start + 2), nextCursor: start + 2 < all.length ? String(start + 2) : null });
  });
}

describe('trust and correctness', () => {
  const api = useMockApi();

  describe('1. a typo in a numeric attribute', () => {
    for (const value of ['abc', '15 000', '-1', '0', '']) {
      it(`timeout-ms="${value}" loads with the default timeout, warns once and requests once`, async () => {
        const { result: el, lines } = await warnings(async () => {
          const table = await mount('ops-endpoint-table', {}, { wrapper: { 'timeout-ms': value } });
          await waitFor(() => tableRows(table).length, 'rows');
          return table;
        });
        expect(tableRows(el)[0]).to.equal('POST /messages');
        expect(api.requests.filter((u) => u.pathname.endsWith('/endpoints'))).to.have.length(1);
        expect(lines.filter((l) => l.includes('timeout-ms'))).to.have.length(1);
        expect(lines[0]).to.contain('using 15000');
      });
    }

    it('limit="abc" falls back to 50 per page with a warning naming limit', async () => {
      const { result: el, lines } = await warnings(async () => {
        const table = await mount('ops-endpoint-table', { limit: 'abc' });
        await waitFor(() => tableRows(table).length, 'rows');
        return table;
      });
      expect(tableRows(el)).to.have.length(8);
      expect(api.requests.map((u) => u.searchParams.get('limit'))).to.deep.equal(['50']);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.contain('<ops-endpoint-table> ignored limit="abc"');
    });
  });

  describe('2. switching tenants', () => {
    allowVirtualizerResizeNotice();
    it('shows only the new tenant\u2019s rows in the endpoint table, Load more pages included', async () => {
      api.use(tenantEndpoints('A'), tenantEndpoints('B'));
      const el = await mount('ops-endpoint-table', { limit: '2' }, { wrapper: { 'api-base': '/A/v1' } });
      await waitFor(() => tableRows(el).length === 2, 'first page of A');
      $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
      await waitFor(() => tableRows(el).length === 4, 'A paged');
      el.parentElement!.setAttribute('api-base', '/B/v1');
      await waitFor(() => tableRows(el)[0] === 'GET /B/1', 'B shown');
      expect(tableRows(el)).to.deep.equal(['GET /B/1', 'GET /B/2']);
    });

    it('a new token source (same base) also starts the list afresh', async () => {
      const el = await mount('ops-endpoint-table', { limit: '2' }, { wrapper: {} });
      await waitFor(() => tableRows(el).length === 2, 'first page');
      $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
      await waitFor(() => tableRows(el).length === 4, 'paged');
      (el.parentElement as HTMLElement & { getToken: () => string }).getToken = () => 'user-b';
      await waitFor(() => api.requests.length === 3, 'refetched for the new session');
      await waitFor(() => tableRows(el).length === 2, 'only the new first page');
    });

    it('drops the old tenant\u2019s later pages from the request log and its CSV', async () => {
      const entry = (tenant: string, n: number): RequestEntry => ({
        id: `${tenant}_${n}`,
        method: 'GET',
        path: `/${tenant}/${n}`,
        status: 200,
        durationMs: 1,
        actor: { id: 'u', name: tenant },
        time: `2026-09-14T09:5${9 - n}:00Z`,
      });
      api.use(tenantPages('A', 'requests', entry), tenantPages('B', 'requests', entry));
      const el = await mount<HTMLElement & { entries(): RequestEntry[]; toCsv(): string }>(
        'ops-request-log',
        { limit: '2' },
        { wrapper: { 'api-base': '/A/v1' } },
      );
      // The log fetches its next page by itself while the end of the list is in view.
      await waitFor(() => el.entries().length === 4, 'A, both pages');
      el.parentElement!.setAttribute('api-base', '/B/v1');
      await waitFor(() => el.entries()[0]?.id === 'B_1', 'B');
      await waitFor(() => el.entries().length === 4, 'B, both pages');
      expect(el.entries().map((e) => e.id)).to.deep.equal(['B_1', 'B_2', 'B_3', 'B_4']);
      expect(el.toCsv()).not.to.contain('/A/');
    });

    it('drops the old tenant\u2019s Load more pages from the activity feed', async () => {
      const item = (tenant: string, n: number): ActivityItem => ({
        id: `${tenant}_${n}`,
        kind: 'key-created',
        actor: { id: 'u', name: `User ${tenant}` },
        text: `did ${tenant} ${n}`,
        at: `2026-09-14T09:4${9 - n}:00Z`,
      });
      api.use(tenantPages('A', 'activity', item), tenantPages('B', 'activity', item));
      const el = await mount('ops-activity-feed', { limit: '2' }, { wrapper: { 'api-base': '/A/v1' } });
      const ids = () => $$(el, '[part="item"]').map((li) => li.dataset['id']);
      await waitFor(() => ids().length === 2, 'A');
      $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
      await waitFor(() => ids().length === 4, 'A paged');
      el.parentElement!.setAttribute('api-base', '/B/v1');
      await waitFor(() => ids()[0] === 'B_1', 'B');
      expect(ids()).to.deep.equal(['B_1', 'B_2']);
    });
  });

  describe('3. a note draft and the customer it was typed for', () => {
    it('never posts a draft typed for one customer to the next, and keeps it for its own', async () => {
      const el = await mount('ops-customer', { 'customer-id': 'cus_acme' });
      const textarea = () => $<HTMLTextAreaElement>(el, 'textarea')!;
      await waitFor(() => $(el, '.facts'), 'acme');
      textarea().value = 'Call Acme about the renewal';
      textarea().dispatchEvent(new Event('input'));
      el.setAttribute('customer-id', 'cus_globex');
      await waitFor(() => text($(el, 'h2 > span')) === 'Globex Corp', 'globex');
      expect(textarea().value).to.equal('');
      $<HTMLButtonElement>(el, '.note-form button[type="submit"]')!.click();
      await waitFor(() => text($(el, '#note-error')), 'validation shown');
      expect(text($(el, '#note-error'))).to.equal('Write a note first.');
      expect(api.db.writes).to.deep.equal([]);
      el.setAttribute('customer-id', 'cus_acme');
      await waitFor(() => text($(el, 'h2 > span')) === 'Acme Ltd', 'acme again');
      expect(textarea().value).to.equal('Call Acme about the renewal');
    });
  });

  describe('4. where the bearer token goes', () => {
    function recordingFetch() {
      const seen: { url: string; authorization: string | null }[] = [];
      const fetchImpl = (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push({
          url: input instanceof Request ? input.url : String(input),
          authorization: new Headers(init?.headers).get('Authorization'),
        });
        return Promise.resolve(HttpResponse.json({ items: [], nextCursor: null }));
      };
      return { seen, fetchImpl };
    }

    for (const base of ['https://other.example/v1', '//other.example/v1']) {
      it(`is not sent to an element's own api-base "${base}"`, async () => {
        const { seen, fetchImpl } = recordingFetch();
        const tokenUrls: string[] = [];
        await mount('ops-endpoint-table', { 'api-base': base }, { wrapper: {}, properties: {} }).then((el) => {
          Object.assign(el.parentElement!, { fetch: fetchImpl, getToken: (url: string) => (tokenUrls.push(url), 'secret') });
          return waitFor(() => seen.length, 'requested');
        });
        expect(seen[0]!.url).to.match(/^https?:\/\/other\.example\/v1\/endpoints/);
        expect(seen[0]!.authorization).to.equal(null);
        expect(tokenUrls).to.deep.equal([]);
      });
    }

    it('is sent to the wrapper\u2019s origin and to token-origins, and getToken gets the request URL', async () => {
      const { seen, fetchImpl } = recordingFetch();
      const tokenUrls: string[] = [];
      const el = await mount('ops-endpoint-table', { 'api-base': 'https://eu.example/v1' }, { wrapper: { 'token-origins': 'https://eu.example' } });
      Object.assign(el.parentElement!, { fetch: fetchImpl, getToken: (url: string) => (tokenUrls.push(url), 'secret') });
      await waitFor(() => seen.length, 'requested');
      expect(seen[0]!.authorization).to.equal('Bearer secret');
      expect(tokenUrls[0]).to.equal(seen[0]!.url);
    });

    for (const base of ['data:text/plain,hi', 'javascript:alert(1)']) {
      it(`shows api-base "${base}" as a configuration error, without Retry and without a request`, async () => {
        const el = await mount('ops-endpoint-table', { 'api-base': base });
        expect(await panel.error(el)).to.contain('is not an http(s) URL');
        expect(panel.retry(el)).to.equal(null);
        expect(api.requests).to.deep.equal([]);
      });
    }
  });

  describe('5. a corrected submission after a failure', () => {
    const form = { code: '500', endpoint: 'POST /webhooks', count: '3', firstSeen: '2026-09-01', status: 'Open', notes: 'first words' };
    const fill = (el: HTMLElement, values: Record<string, string>) => {
      for (const [name, value] of Object.entries(values)) {
        const field = $<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(el, `[name="${name}"]`)!;
        field.value = value;
        field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input'));
      }
    };
    const submit = (el: HTMLElement) => $<HTMLButtonElement>(el, 'button[type="submit"]')!.click();

    it('sends the corrected payload with a new Idempotency-Key, so the correction lands', async () => {
      // The server applied the first attempt but its answer was lost (a 500 reached the page);
      // like a real server it answers a repeated Idempotency-Key with what that key created.
      const firstByKey = new Map<string, schema.ErrorRecord>();
      let fail = true;
      api.use(
        http.post(`*${API_BASE}/errors`, async ({ request }) => {
          const key = request.headers.get('Idempotency-Key')!;
          const replay = firstByKey.get(key);
          if (replay) return HttpResponse.json(replay, { status: 201 });
          const body = (await request.clone().json()) as { notes: string };
          if (!fail) return undefined; // the default handler creates the record from this payload
          firstByKey.set(key, { ...fixtures.errorRecords[0]!, id: 'err_first_attempt', notes: body.notes });
          return problem(500, 'Internal Server Error');
        }),
      );
      const el = await mount('ops-error-form');
      await waitFor(() => $(el, 'form'), 'form');
      fill(el, form);
      submit(el);
      await waitFor(() => text($(el, '.form-error')), 'failure shown');
      fail = false;
      fill(el, { notes: 'corrected words' });
      const created = nextEvent<CustomEvent<{ record: schema.ErrorRecord }>>(el, 'ops-error-created');
      submit(el);
      expect((await created).detail.record.notes).to.equal('corrected words');
      expect(api.db.errors.filter((e) => e.notes === 'corrected words')).to.have.length(1);
    });

    it('repeats the key for the same payload, so a retry cannot create it twice', async () => {
      const keys: string[] = [];
      let fail = true;
      api.use(
        http.post(`*${API_BASE}/errors`, ({ request }) => {
          keys.push(request.headers.get('Idempotency-Key')!);
          return fail ? problem(503, 'Service Unavailable') : undefined;
        }),
      );
      const el = await mount('ops-error-form');
      await waitFor(() => $(el, 'form'), 'form');
      fill(el, form);
      submit(el);
      await waitFor(() => text($(el, '.form-error')), 'failure shown');
      fail = false;
      const created = nextEvent(el, 'ops-error-created');
      submit(el);
      await created;
      expect(keys).to.have.length(2);
      expect(keys[1]).to.equal(keys[0]);
    });
  });

  describe('6. live lists', () => {
    allowVirtualizerResizeNotice();
    const arrivalsHandler = (newer: () => RequestEntry[]) =>
      http.get(`*${API_BASE}/requests`, ({ request }) => {
        const url = new URL(request.url);
        if (!url.searchParams.get('since')) return undefined;
        const limit = Number(url.searchParams.get('limit'));
        const start = Number(url.searchParams.get('cursor') ?? 0);
        const items = newer().slice(start, start + limit);
        return HttpResponse.json({ items, nextCursor: start + limit < newer().length ? String(start + limit) : null });
      });
    const live = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `rq_burst_${n - i}`,
        method: 'POST',
        path: '/messages',
        status: 201,
        durationMs: 5,
        actor: { id: 'u', name: 'Burst' },
        time: new Date(Date.UTC(2026, 8, 14, 10, 0, n - i)).toISOString(),
      }));

    it('refresh-interval="0.005" is refused with a warning and does not poll', async () => {
      const { result: el, lines } = await warnings(() => mount('ops-activity-feed', { 'refresh-interval': '0.005' }));
      await waitFor(() => $(el, '[part="item"]'), 'items');
      expect(lines.join('\n')).to.contain('ignored refresh-interval="0.005"');
      expect((el as HTMLElement & { refreshInterval: number }).refreshInterval).to.equal(0);
    });

    it('follows nextCursor when a burst is larger than limit, so no entry is dropped', async () => {
      const burst = live(5);
      api.use(arrivalsHandler(() => burst));
      const el = await mount<HTMLElement & { entries(): RequestEntry[] }>('ops-request-log', { live: '', 'refresh-interval': '2', limit: '2' });
      await waitFor(() => el.entries()[0]?.id === 'rq_burst_5', 'burst arrived');
      expect(
        el
          .entries()
          .slice(0, 5)
          .map((e) => e.id),
      ).to.deep.equal(burst.map((e) => e.id));
      expect(text($(el, '.live-status'))).to.match(/^Updated \d\d:\d\d$/);
    });

    it('marks a gap with Reload when a burst is beyond catch-up', async () => {
      const burst = live(30);
      api.use(arrivalsHandler(() => burst));
      const el = await mount('ops-request-log', { live: '', 'refresh-interval': '2', limit: '2' });
      const gap = await waitFor(() => $(el, '[part="gap"]'), 'gap marker');
      expect(text(gap)).to.equal('Some entries were skipped. Reload');
    });

    it('shows a failed poll quietly and honours Retry-After on 429', async () => {
      const el = await mount('ops-activity-feed', { 'refresh-interval': '2' });
      await waitFor(() => $(el, '[part="item"]'), 'items');
      api.use(http.get(`*${API_BASE}/activity`, () => HttpResponse.json({ title: 'Slow down' }, { status: 429, headers: { 'Retry-After': '30' } })));
      await waitFor(() => text($(el, '.live-status')).startsWith('Couldn'), 'poll failure shown');
      expect(text($(el, '.live-status'))).to.equal('Couldn\u2019t refresh \u2014 retrying in 30 s');
      expect($$(el, '[part="item"]').length).to.be.greaterThan(0);
    });

    it('pauses while the tab is hidden and catches up when it shows again', async () => {
      const el = await mount('ops-activity-feed', { 'refresh-interval': '2' });
      await waitFor(() => $(el, '[part="item"]'), 'items');
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      try {
        const before = api.requests.length;
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        expect(api.requests.length, 'no poll while hidden').to.equal(before);
      } finally {
        delete (document as { visibilityState?: string }).visibilityState;
      }
      const before = api.requests.length;
      document.dispatchEvent(new Event('visibilitychange'));
      await waitFor(() => api.requests.length > before, 'caught up on return');
    });

    it('keeps at most the newest 1,000 activity items', async () => {
      let round = 0;
      const batch = (n: number) =>
        Array.from({ length: 400 }, (_, i): ActivityItem => ({
          id: `a_${n}_${i}`,
          kind: 'key-created',
          actor: { id: 'u', name: 'Bot' },
          text: 'made a key',
          at: new Date(Date.UTC(2026, 8, 14, 9, n, 59 - (i % 60))).toISOString(),
        }));
      api.use(http.get(`*${API_BASE}/activity`, () => HttpResponse.json({ items: batch(round++), nextCursor: null })));
      const el = await mount('ops-activity-feed', { 'refresh-interval': '2', limit: '400' });
      await waitFor(() => $$(el, '[part="item"]').length === 1_000, '1,000 kept', 20_000);
      expect(text($(el, '[part="capped"]'))).to.equal('Showing the newest 1,000.');
      expect($$(el, '[part="item"]')[0]!.dataset['id']).to.match(/^a_[2-9]_0$/);
    });
  });

  describe('7. concurrent edits of an error record', () => {
    const change = (el: Element, status: string) => {
      const select = $<HTMLSelectElement>(el, 'select[name="status"]')!;
      select.value = status;
      select.dispatchEvent(new Event('change'));
      return (el as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete.then(() =>
        $<HTMLButtonElement>(el, '.edit button[type="submit"]')!.click(),
      );
    };

    it('sends If-Match; a change made elsewhere shows "This record changed elsewhere" with Reload, the edit kept', async () => {
      const ifMatch: (string | null)[] = [];
      api.use(http.patch(`*${API_BASE}/errors/:id`, ({ request }) => void ifMatch.push(request.headers.get('If-Match'))));
      const el = await mount('ops-error', { 'error-id': 'err_500_webhooks' });
      await waitFor(() => $(el, '.facts'), 'loaded');
      api.db.errors[0]!.version = 2; // someone else saved in the meantime
      api.db.errors[0]!.notes = 'Changed by Lee';
      await change(el, 'Fixed');
      const message = await waitFor(() => text($(el, '.edit .form-error')), 'conflict shown');
      expect(ifMatch).to.deep.equal(['"1"']);
      expect(message).to.contain('This record changed elsewhere');
      expect($<HTMLSelectElement>(el, 'select[name="status"]')!.value).to.equal('Fixed');
      expect(api.db.errors[0]!.status).to.equal('Open');
      $<HTMLButtonElement>(el, '.edit .form-error button')!.click();
      // The notes the person did not touch show what Lee saved; their status edit is kept.
      await waitFor(() => $<HTMLTextAreaElement>(el, 'textarea[name="notes"]')!.value === 'Changed by Lee', 'reloaded');
      expect($<HTMLSelectElement>(el, 'select[name="status"]')!.value).to.equal('Fixed');
      await change(el, 'Fixed');
      await waitFor(() => api.db.errors[0]!.status === 'Fixed', 'saved on the new version');
      expect(api.db.errors[0]!.notes, "Lee's notes are not overwritten by a status change").to.equal('Changed by Lee');
      expect(ifMatch.at(-1)).to.equal('"2"');
    });

    it("treats notes typed and then typed back as untouched: after Reload they show the other person's and a status save keeps them", async () => {
      api.use(http.patch(`*${API_BASE}/errors/:id`, () => undefined));
      const el = await mount('ops-error', { 'error-id': 'err_500_webhooks' });
      await waitFor(() => $(el, '.facts'), 'loaded');
      const notes = $<HTMLTextAreaElement>(el, 'textarea[name="notes"]')!;
      const original = notes.value;
      for (const value of [`${original}x`, original]) {
        notes.value = value;
        notes.dispatchEvent(new Event('input'));
      }
      api.db.errors[0]!.version = 2;
      api.db.errors[0]!.notes = 'Changed by Lee';
      await change(el, 'Fixed');
      await waitFor(() => text($(el, '.edit .form-error')).includes('This record changed elsewhere'), 'conflict shown');
      $<HTMLButtonElement>(el, '.edit .form-error button')!.click();
      await waitFor(() => $<HTMLTextAreaElement>(el, 'textarea[name="notes"]')!.value === 'Changed by Lee', "reloaded with Lee's notes");
      await change(el, 'Fixed');
      await waitFor(() => api.db.errors[0]!.status === 'Fixed', 'saved');
      expect(api.db.errors[0]!.notes).to.equal('Changed by Lee');
    });

    it('counts a change someone else already made as saved, not as a conflict', async () => {
      const el = await mount('ops-error', { 'error-id': 'err_500_webhooks' });
      await waitFor(() => $(el, '.facts'), 'loaded');
      Object.assign(api.db.errors[0]!, { status: 'Fixed', version: 2 }); // Lee fixed it meanwhile
      const updated = nextEvent<CustomEvent<{ record: schema.ErrorRecord }>>(el, 'ops-error-updated');
      await change(el, 'Fixed');
      expect((await updated).detail.record).to.include({ status: 'Fixed', version: 2 });
      expect(text($(el, '.title .badge'))).to.equal('Fixed');
      expect(text($(el, '.edit .form-error'))).to.equal('');
    });

    it('shows the saved value when the server applied the change but the answer was lost', async () => {
      api.use(
        http.patch(`*${API_BASE}/errors/:id`, () => {
          Object.assign(api.db.errors[0]!, { status: 'Fixed', version: 2 });
          return HttpResponse.error();
        }),
      );
      const el = await mount('ops-error', { 'error-id': 'err_500_webhooks' });
      await waitFor(() => $(el, '.facts'), 'loaded');
      const updated = nextEvent<CustomEvent<{ record: schema.ErrorRecord }>>(el, 'ops-error-updated');
      await change(el, 'Fixed');
      expect((await updated).detail.record.status).to.equal('Fixed');
      expect(text($(el, '.title .badge'))).to.equal('Fixed');
      expect(text($(el, '.edit .form-error'))).to.equal('');
    });
  });

  describe('8. a token source that never settles', () => {
    it('ends in the timeout error, not an endless skeleton', async () => {
      const el = await mount('ops-endpoint-table', {}, { wrapper: { 'timeout-ms': '1000' } });
      Object.assign(el.parentElement!, { getToken: () => new Promise<string>(() => undefined) });
      expect(await panel.error(el)).to.contain('did not answer within 1 second');
      expect(panel.retry(el)).not.to.equal(null);
    });
  });

  describe('9. hrefs from attributes', () => {
    const cases: { tag: string; attrs: Record<string, string>; link: string; fallback: string }[] = [
      { tag: 'ops-overview', attrs: { 'view-all-href': 'javascript:alert(1)' }, link: '[part="view-all"]', fallback: '#endpoints' },
      { tag: 'ops-webhook', attrs: { 'webhook-id': 'wh_invoice_paid', 'webhooks-href': 'javascript:alert(1)' }, link: '.breadcrumb a', fallback: '#webhooks' },
      { tag: 'ops-error', attrs: { 'error-id': 'err_500_webhooks', 'errors-href': ' JavaScript:alert(1)' }, link: '.breadcrumb a', fallback: '#errors' },
      { tag: 'ops-error-form', attrs: { 'errors-href': 'data:text/html,<b>x</b>' }, link: '.breadcrumb a', fallback: '#errors' },
    ];
    for (const { tag, attrs, link, fallback } of cases) {
      it(`${tag} refuses ${Object.keys(attrs).at(-1)}="${Object.values(attrs).at(-1)}"`, async () => {
        const { result: anchor, lines } = await warnings(async () => {
          const el = await mount(tag, attrs);
          return waitFor(() => $<HTMLAnchorElement>(el, link), 'link');
        });
        expect(anchor.getAttribute('href')).to.equal(fallback);
        expect(lines.join('\n')).to.contain('only http(s) and relative URLs');
      });
    }
  });

  describe('navigation contract', () => {
    it('renders drill-downs as real links from the wrapper\u2019s routes; a plain click fires ops-navigate first, a modified click is the browser\u2019s', async () => {
      const el = await mount('ops-endpoint-table', {}, { wrapper: {}, properties: {} });
      Object.assign(el.parentElement!, { routes: { endpoint: '/ops/endpoints/{id}' } });
      const link = await waitFor(() => $<HTMLAnchorElement>(el, 'tbody tr a.row-link'), 'links');
      expect(link.getAttribute('href')).to.equal('/ops/endpoints/ep_1');
      const fired: unknown[] = [];
      const onNavigate = (e: Event) => {
        fired.push((e as CustomEvent).detail);
        e.preventDefault(); // the host routes itself
      };
      const stopBrowser = (e: Event) => e.preventDefault(); // keep the test page where it is
      document.addEventListener('ops-navigate', onNavigate);
      window.addEventListener('click', stopBrowser);
      try {
        const plain = new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, button: 0 });
        link.dispatchEvent(plain);
        expect(fired).to.deep.equal([{ kind: 'endpoint', id: 'ep_1', label: 'POST /messages', href: '/ops/endpoints/ep_1' }]);
        link.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, button: 0, ctrlKey: true }));
        expect(fired, 'a new-tab click is left to the browser').to.have.length(1);
      } finally {
        document.removeEventListener('ops-navigate', onNavigate);
        window.removeEventListener('click', stopBrowser);
      }
    });

    it('gives related endpoints their endpoint ids, and plain text when an older server sends none', async () => {
      api.use(
        http.get(`*${API_BASE}/customers/:id`, () =>
          HttpResponse.json({
            ...fixtures.customers[0],
            relatedEndpoints: [{ label: 'GET /legacy', requests: 3 }, ...fixtures.customers[0]!.relatedEndpoints],
          }),
        ),
      );
      const el = await mount('ops-customer', { 'customer-id': 'cus_acme' });
      await waitFor(() => $(el, '.related'), 'related');
      expect(text($(el, '.related li'))).to.equal('GET /legacy 3 requests');
      expect($(el, '.related li button, .related li a')).not.to.equal(null);
      expect($$(el, '.related li')[0]!.querySelector('button, a')).to.equal(null);
    });
  });

  describe('10. smaller holes', () => {
    allowVirtualizerResizeNotice();
    it('refuses a response larger than the size cap', async () => {
      const client = createConsoleClient({ baseUrl: API_BASE, maxResponseBytes: 100 });
      const error = await client.listEndpoints().then(
        () => undefined,
        (e: unknown) => e as ConsoleApiError,
      );
      expect(error?.kind).to.equal('invalid-response');
      expect(error?.message).to.contain('larger than');
    });

    for (const id of ['..', '.']) {
      it(`customer-id="${id}" is a configuration error, and nothing outside its path segment is requested`, async () => {
        const el = await mount('ops-customer', { 'customer-id': id });
        expect(await panel.error(el)).to.contain(`"${id}" is not a valid customer id`);
        expect(panel.retry(el)).to.equal(null);
        expect(api.requests).to.deep.equal([]);
      });
    }

    it('neutralises CSV cells a spreadsheet would run, however they start', () => {
      const csv = toCsv(['a'], [['\n=1+1'], [' =1+1'], ['\uFF1D1+1'], ['\u3000@SUM(A1)'], ['-2'], ['plain'], [-2]]);
      expect(csv.split('\r\n').slice(1, -1)).to.deep.equal(['"\'\n=1+1"', "' =1+1", "'\uFF1D1+1", "'\u3000@SUM(A1)", "'-2", 'plain', '-2']);
    });

    it('refuses impossible calendar dates', () => {
      expect(schema.note.safeParse({ id: 'n', text: 't', author: { id: 'u', name: 'U' }, createdAt: '2026-99-99' }).success).to.equal(false);
      expect(schema.note.safeParse({ id: 'n', text: 't', author: { id: 'u', name: 'U' }, createdAt: '2026-02-30' }).success).to.equal(false);
      expect(schema.newErrorRecord.safeParse({ code: 500, endpoint: 'x', count: 1, firstSeen: '2026-13-01', status: 'Open' }).success).to.equal(false);
      expect(schema.note.safeParse({ id: 'n', text: 't', author: { id: 'u', name: 'U' }, createdAt: '2028-02-29' }).success).to.equal(true);
    });

    it('warns once about an unknown time-zone and formats in the browser\u2019s', async () => {
      const { result: el, lines } = await warnings(async () => {
        const log = await mount<HTMLElement & { requestUpdate(): void; updateComplete: Promise<boolean> }>('ops-request-log', { 'time-zone': 'Mars/Olympus' });
        await waitFor(() => $(log, '[part="row"]'), 'rows');
        log.requestUpdate();
        await log.updateComplete;
        return log;
      });
      expect(lines.filter((l) => l.includes('time-zone="Mars/Olympus"'))).to.have.length(1);
      expect(text($(el, '[part="row"] .time'))).to.match(/\d{2} \w{3} \d{4} at \d{2}:\d{2}/);
    });

    it('keeps raw response values out of ops-load-error', async () => {
      const secret = 'cus-secret-4111111111111111';
      api.use(http.get(`*${API_BASE}/endpoints`, () => HttpResponse.json({ items: [{ ...fixtures.endpoints[0], requests: secret }], nextCursor: null })));
      const el = document.createElement('ops-endpoint-table');
      el.setAttribute('api-base', API_BASE);
      const fired = nextEvent<CustomEvent<LoadErrorDetail>>(el, 'ops-load-error');
      document.body.append(el);
      try {
        const { error } = (await fired).detail;
        expect(error.issues).to.deep.equal(['items[0].requests: expected number, got string']);
        expect(JSON.stringify({ error, cause: error.cause ?? null, issues: error.issues })).not.to.contain(secret);
      } finally {
        el.remove();
      }
    });
  });
});
