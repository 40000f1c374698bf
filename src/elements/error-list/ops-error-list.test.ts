import { expect } from '@open-wc/testing';
import { delay, http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { ErrorRecord } from '../../api/schemas.ts';
import type { ErrorRecordDetail, NavigateDetail, SortDetail } from '../../shared/events.ts';
import './define.ts';
import type { OpsErrorList } from './ops-error-list.ts';

async function errorList(extra = '') {
  return mount<OpsErrorList>('ops-error-list', { 'time-zone': 'UTC', ...attrs(extra) });
}
const rows = (el: Element) => $$(el, 'tbody tr');
const titles = (el: Element) => rows(el).map((row) => text(row.querySelector('th')));
const loaded = (el: Element) => waitFor(() => rows(el).length > 0 && !$(el, 'table[aria-busy="true"]'), 'rows');
const statusSelect = (el: Element, id: string) => $<HTMLSelectElement>(el, `tr[data-id="${id}"] select`)!;
const titleOf = (r: Pick<ErrorRecord, 'code' | 'title'>) => `${r.code} ${r.title}`;

function choose(select: HTMLSelectElement, value: string) {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('ops-error-list', () => {
  const api = useMockApi();

  it('lists every record, newest recorded first, with endpoint, count, first seen and status', async () => {
    const el = await errorList();
    await loaded(el);
    expect(titles(el)).to.deep.equal(fixtures.errorRecords.map(titleOf));
    const first = rows(el)[0]!;
    expect([...first.querySelectorAll('td')].slice(0, 3).map((cell) => text(cell))).to.deep.equal(['POST /webhooks', '212', '02 Aug 2026']);
    expect(rows(el).map((row) => row.querySelector('select')!.value)).to.deep.equal(fixtures.errorRecords.map((r) => r.status));
    expect(statusSelect(el, 'err_500_webhooks').getAttribute('aria-label')).to.equal('Status of 500 Server error');
  });

  it('filters by status through the API, and says when none has it', async () => {
    const el = await errorList();
    await loaded(el);
    const filter = $<HTMLSelectElement>(el, '[part="toolbar"] select')!;
    choose(filter, 'Fixed');
    await waitFor(() => titles(el).length === fixtures.errorRecords.filter((r) => r.status === 'Fixed').length, 'filtered');
    expect(titles(el)).to.deep.equal(fixtures.errorRecords.filter((r) => r.status === 'Fixed').map(titleOf));
    expect(el.getAttribute('status')).to.equal('Fixed');
    api.use(http.get(`*${API_BASE}/errors`, () => HttpResponse.json({ items: [], nextCursor: null })));
    choose(filter, 'Ignored');
    expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty'))).to.equal('No Ignored error records.');
  });

  it("lists only one endpoint's records with endpoint, and says when it has none", async () => {
    const el = await errorList('endpoint=POST /webhooks');
    await loaded(el);
    const own = fixtures.errorRecords.filter((r) => r.endpoint === 'POST /webhooks');
    expect(own.length).to.be.within(1, fixtures.errorRecords.length - 1);
    expect(titles(el)).to.deep.equal(own.map(titleOf));
    expect(api.requests.at(-1)!.searchParams.get('endpoint')).to.equal('POST /webhooks');
    el.endpoint = 'DELETE /contacts';
    expect(text(await waitFor(() => $(el, '[part="empty"]'), 'empty'))).to.equal('No error records for DELETE /contacts.');
  });

  it('sorts by count and by first seen through the API, most first then flipped, and says so', async () => {
    const sorts: (string | null)[] = [];
    api.use(http.get(`*${API_BASE}/errors`, ({ request }) => void sorts.push(new URL(request.url).searchParams.get('sort'))));
    const el = await errorList();
    await loaded(el);
    const header = (name: string) => $$<HTMLButtonElement>(el, 'thead button.sort').find((b) => text(b).startsWith(name))!;
    const sorted = nextEvent<CustomEvent<SortDetail>>(el, 'ops-sort');
    header('Count').click();
    expect((await sorted).detail).to.deep.equal({ sort: '-count' });
    const byCount = [...fixtures.errorRecords].sort((a, b) => b.count - a.count).map(titleOf);
    await waitFor(() => titles(el).join() === byCount.join(), 'most first');
    expect(el.getAttribute('sort')).to.equal('-count');
    expect(header('Count').closest('th')!.getAttribute('aria-sort')).to.equal('descending');
    header('Count').click();
    await waitFor(() => titles(el).join() === [...byCount].reverse().join(), 'fewest first');
    header('First seen').click();
    const newestFirst = [...fixtures.errorRecords].sort((a, b) => b.firstSeen.localeCompare(a.firstSeen)).map(titleOf);
    await waitFor(() => titles(el).join() === newestFirst.join(), 'newest first');
    expect(sorts).to.deep.equal([null, '-count', 'count', '-firstSeen']);
  });

  it('changes a status in place: sent alone with If-Match, shown at once, announced with the saved record', async () => {
    const sent: { body: unknown; ifMatch: string | null }[] = [];
    api.use(
      http.patch(
        `*${API_BASE}/errors/:id`,
        async ({ request }) => void sent.push({ body: await request.clone().json(), ifMatch: request.headers.get('If-Match') }),
      ),
    );
    const el = await errorList();
    await loaded(el);
    const updated = nextEvent<CustomEvent<ErrorRecordDetail>>(el, 'ops-error-updated');
    choose(statusSelect(el, 'err_500_webhooks'), 'Fixed');
    expect(statusSelect(el, 'err_500_webhooks').value, 'shown at once').to.equal('Fixed');
    const { record } = (await updated).detail;
    expect([record.id, record.status, record.version]).to.deep.equal(['err_500_webhooks', 'Fixed', 2]);
    expect(sent).to.deep.equal([{ body: { status: 'Fixed' }, ifMatch: '"1"' }]);
    expect(api.db.errors.find((r) => r.id === 'err_500_webhooks')!.status).to.equal('Fixed');
    await waitFor(() => !statusSelect(el, 'err_500_webhooks').disabled, 'saved');
    expect(statusSelect(el, 'err_500_webhooks').value).to.equal('Fixed');
    // The next change builds on the saved version.
    choose(statusSelect(el, 'err_500_webhooks'), 'Ignored');
    await waitFor(() => sent.length === 2, 'second change sent');
    expect(sent[1]!.ifMatch).to.equal('"2"');
  });

  it('reverts a refused change and says why, leaving the record as it was', async () => {
    api.use(
      http.patch(`*${API_BASE}/errors/:id`, () =>
        HttpResponse.json(
          { title: 'Forbidden', detail: 'Only owners can change records.' },
          { status: 403, headers: { 'Content-Type': 'application/problem+json' } },
        ),
      ),
    );
    const el = await errorList();
    await loaded(el);
    choose(statusSelect(el, 'err_429_messages'), 'Ignored');
    const problem = await waitFor(() => $(el, 'tr[data-id="err_429_messages"] .row-problem'), 'problem shown');
    expect(text(problem)).to.match(/^Not saved: /);
    expect(text(problem)).to.contain('Only owners can change records.');
    expect(statusSelect(el, 'err_429_messages').value).to.equal('Open');
    expect(api.db.errors.find((r) => r.id === 'err_429_messages')!.status).to.equal('Open');
  });

  it('shows a record changed elsewhere as it is now, and saves the next choice on its new version', async () => {
    const el = await errorList();
    await loaded(el);
    const elsewhere = api.db.errors.find((r) => r.id === 'err_500_webhooks')!;
    elsewhere.version = 2; // Lee ignored it meanwhile
    elsewhere.status = 'Ignored';
    choose(statusSelect(el, 'err_500_webhooks'), 'Fixed');
    const problem = await waitFor(() => $(el, 'tr[data-id="err_500_webhooks"] .row-problem'), 'conflict shown');
    expect(text(problem)).to.equal('Not saved: someone changed this record meanwhile. It is now Ignored; choose again to change it.');
    expect(statusSelect(el, 'err_500_webhooks').value).to.equal('Ignored');
    expect(elsewhere.status).to.equal('Ignored');
    choose(statusSelect(el, 'err_500_webhooks'), 'Fixed');
    await waitFor(() => elsewhere.status === 'Fixed', 'saved on the new version');
    expect($(el, 'tr[data-id="err_500_webhooks"] .row-problem')).to.equal(null);
  });

  it('a record changed out of the filtered status leaves the list, and Load more then skips none', async () => {
    const open = fixtures.errorRecords.filter((r) => r.status === 'Open');
    expect(open.length).to.equal(2);
    const el = await errorList('status=Open&limit=1');
    await loaded(el);
    expect(titles(el)).to.deep.equal([titleOf(open[0]!)]);
    choose(statusSelect(el, open[0]!.id), 'Fixed');
    // The other open record is what the filtered list holds now, not a page away that no longer exists.
    await waitFor(() => titles(el).join() === titleOf(open[1]!), 'the list shows the records still open');
    expect($(el, '[part="load-more"]')).to.equal(null);
  });

  it('keeps the focus on a status control while its change saves', async () => {
    api.use(
      http.patch(`*${API_BASE}/errors/:id`, async () => {
        await delay(300);
      }),
    );
    const el = await errorList();
    await loaded(el);
    const select = statusSelect(el, 'err_429_messages');
    select.focus();
    choose(select, 'Fixed');
    await el.updateComplete;
    expect(select.getAttribute('aria-busy')).to.equal('true');
    expect(el.shadowRoot!.activeElement, 'focus kept while saving').to.equal(select);
    await waitFor(() => select.getAttribute('aria-busy') === 'false', 'saved');
    expect(el.shadowRoot!.activeElement, 'focus kept after saving').to.equal(select);
    choose(select, 'Ignored'); // a choice made while a change saves would be ignored; this one, after, is sent
    await waitFor(() => api.db.errors.find((r) => r.id === 'err_429_messages')!.status === 'Ignored', 'second change saved');
  });

  it('shows records as the server has them once the list loads again, even without versions', async () => {
    const serverStatus = new Map(fixtures.errorRecords.map((r) => [r.id, r.status]));
    api.use(
      http.get(`*${API_BASE}/errors`, ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        const items = fixtures.errorRecords
          .map(({ version: _, ...r }) => ({ ...r, status: serverStatus.get(r.id)! }))
          .filter((r) => !status || r.status === status);
        return HttpResponse.json({ items, nextCursor: null });
      }),
      http.patch(`*${API_BASE}/errors/:id`, async ({ request, params }) => {
        const { status } = (await request.json()) as { status: string };
        serverStatus.set(String(params['id']), status);
        const { version: _, ...record } = fixtures.errorRecords.find((r) => r.id === params['id'])!;
        return HttpResponse.json({ ...record, status });
      }),
    );
    const el = await errorList();
    await loaded(el);
    choose(statusSelect(el, 'err_500_webhooks'), 'Fixed');
    await waitFor(() => serverStatus.get('err_500_webhooks') === 'Fixed', 'saved');
    serverStatus.set('err_500_webhooks', 'Ignored'); // Lee ignored it afterwards
    const filter = $<HTMLSelectElement>(el, '[part="toolbar"] select')!;
    choose(filter, 'Ignored');
    const ignored = fixtures.errorRecords.filter((r) => r.status === 'Ignored').length + 1;
    await waitFor(() => titles(el).length === ignored && titles(el).includes('500 Server error'), 'filtered list loaded');
    expect(statusSelect(el, 'err_500_webhooks').value).to.equal('Ignored');
    choose(filter, '');
    await waitFor(() => titles(el).length === fixtures.errorRecords.length, 'whole list loaded');
    expect(statusSelect(el, 'err_500_webhooks').value, 'not the status saved here earlier').to.equal('Ignored');
  });

  it('loads the list again when a change was refused as stale and the record could not be read', async () => {
    api.use(
      http.patch(`*${API_BASE}/errors/:id`, () =>
        HttpResponse.json({ title: 'Precondition failed' }, { status: 412, headers: { 'Content-Type': 'application/problem+json' } }),
      ),
      http.get(`*${API_BASE}/errors/:id`, () =>
        HttpResponse.json({ title: 'Unavailable' }, { status: 503, headers: { 'Content-Type': 'application/problem+json' } }),
      ),
    );
    const el = await errorList();
    await loaded(el);
    const listLoads = () => api.requests.filter((u) => u.pathname.endsWith('/errors')).length;
    expect(listLoads()).to.equal(1);
    choose(statusSelect(el, 'err_500_webhooks'), 'Fixed');
    await waitFor(() => listLoads() === 2, 'the list loaded again');
    await loaded(el);
    expect(statusSelect(el, 'err_500_webhooks').value).to.equal('Open');
  });

  it('ignores an unknown sort with a warning instead of asking the API for it', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => void warnings.push(message);
    try {
      const el = await errorList('sort=title');
      await loaded(el);
      expect(api.requests.at(-1)!.searchParams.has('sort')).to.equal(false);
      expect(titles(el)).to.deep.equal(fixtures.errorRecords.map(titleOf));
      expect(warnings.some((w) => w.includes('ignored sort="title" on ops-error-list'))).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });

  it('leads to each record, its endpoint and the new-error form, cancelably', async () => {
    const el = await errorList('new-error-href=/ops/errors/new');
    await loaded(el);
    const newError = $<HTMLAnchorElement>(el, '[part="new-error"]')!;
    expect([text(newError), newError.getAttribute('href')]).to.deep.equal(['New error', '/ops/errors/new']);
    document.addEventListener('ops-navigate', (e) => e.preventDefault(), { once: true });
    const first = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    newError.click();
    expect((await first).detail).to.deep.equal({ kind: 'new-error', id: '', label: 'New error', href: '/ops/errors/new' });
    const second = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, 'tr[data-id="err_500_webhooks"] .row-link')!.click();
    expect((await second).detail).to.deep.equal({ kind: 'error', id: 'err_500_webhooks', label: '500 Server error' });
    const third = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, 'tr[data-id="err_500_webhooks"] td .link')!.click();
    expect((await third).detail).to.deep.equal({ kind: 'endpoint', id: 'ep_4', label: 'POST /webhooks' });
  });

  it('pages with "Load more"', async () => {
    const el = await errorList('limit=2');
    await loaded(el);
    expect(titles(el)).to.have.length(2);
    $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
    await waitFor(() => titles(el).length === 4, 'second page');
    expect(titles(el)).to.deep.equal(fixtures.errorRecords.slice(0, 4).map(titleOf));
  });

  it('shows a load failure with Retry that recovers', async () => {
    api.use(...scenarios.serverError());
    const el = await errorList();
    const panel = await waitFor(() => $(el, '[part="error"]'), 'error');
    expect(text(panel)).to.match(/^Couldn’t load error records\./);
    api.resetHandlers();
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await loaded(el);
  });

  it('passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await errorList(`theme=${theme}`);
      await loaded(el);
      await expect(el).to.be.accessible();
    }
  });
});
