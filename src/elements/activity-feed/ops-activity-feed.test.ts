import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { fixtures } from '../../../mocks/index.ts';
import { $, $$, nextEvent, text, waitFor } from '../../../test/dom.ts';
import type { NavigateDetail } from '../../shared/events.ts';
import { attrs, mount } from '../../../test/harness.ts';
import { API_BASE, scenarios, useMockApi } from '../../../test/mock-api.ts';
import type { ActivityItem } from '../../api/schemas.ts';
import { watchTimers } from '../../../test/harness.ts';
import '../console/define.ts';
import './define.ts';
import type { OpsActivityFeed } from './ops-activity-feed.ts';

const items = (el: Element) => $$(el, '[part="item"]');
const ids = (el: Element) => items(el).map((li) => li.dataset['id']);
const loaded = (el: Element) => waitFor(() => items(el).length > 0, 'items rendered');
const activityRequests = (api: { requests: URL[] }) => api.requests.filter((u) => u.pathname.endsWith('/activity'));

async function feed(attributes = '', clock = () => fixtures.FIXTURE_NOW) {
  return mount<OpsActivityFeed>('ops-activity-feed', attrs(attributes), { properties: { clock } });
}

const newItem = (id: string, kind = 'error-spike'): ActivityItem => ({
  id,
  kind,
  actor: { id: 'u_new', name: 'Noor Ali' },
  text: `flagged something new (${id})`,
  at: '2026-09-14T09:44:00Z',
});

describe('ops-activity-feed', () => {
  const api = useMockApi();

  it('shows initials, name, text and a relative age with the full timestamp', async () => {
    const el = await feed();
    await loaded(el);
    const first = items(el)[0]!;
    expect(text(first.querySelector('[part="avatar"]'))).to.equal('LP');
    expect(text(first.querySelector('.text'))).to.equal('Lee Park raised the rate limit for Acme Ltd');
    const time = first.querySelector('time')!;
    // The compact age is for the eye; a screen reader hears it in words (Intl.RelativeTimeFormat).
    expect(time.querySelector('.age')!.getAttribute('aria-hidden')).to.equal('true');
    expect(text(time.querySelector('.visually-hidden'))).to.equal('3 minutes ago');
    expect(time.querySelector('.age')!.textContent).to.equal('3m');
    expect(time.getAttribute('datetime')).to.equal('2026-09-14T09:42:00Z');
    expect(time.getAttribute('title')).to.equal('14 Sep 2026 at 09:42');
    expect(
      items(el)
        .slice(0, 5)
        .map((li) => li.querySelector('.age')!.textContent),
    ).to.deep.equal(['3m', '12m', '26m', '48m', '1h']);
    expect(items(el)[5]!.querySelector('.age')!.textContent).to.equal('2h');
    expect(
      items(el)
        .slice(0, 5)
        .map((li) => text(li.querySelector('.text'))),
    ).to.deep.equal([
      'Lee Park raised the rate limit for Acme Ltd',
      'Globex Corp created a new API key',
      'Omar Haddad flagged an error spike on POST /webhooks',
      'Mia Chen published the docs for version 3',
      'Ana Silva turned off the deprecated endpoint GET /v2/usage',
    ]);
  });

  it('updates ages while open, without fetching again', async () => {
    let now = fixtures.FIXTURE_NOW;
    const el = await feed('limit=5', () => now);
    el.ageRefreshMs = 50;
    await loaded(el);
    const before = activityRequests(api).length;
    now = new Date(now.getTime() + 3 * 3600_000);
    await waitFor(() => items(el)[0]!.querySelector('.age')!.textContent === '3h', 'age ticked');
    now = new Date(now.getTime() + 2 * 86_400_000);
    await waitFor(() => items(el)[0]!.querySelector('.age')!.textContent === '2d', 'age in days');
    expect(activityRequests(api)).to.have.length(before);
  });

  it('filters by kind through the API, with an All filter', async () => {
    const el = await feed();
    await loaded(el);
    const buttons = $$<HTMLButtonElement>(el, '[part="filters"] button');
    expect(buttons.map(text)).to.deep.equal(['All', 'Rate limit raised', 'Key created', 'Error spike', 'Docs published', 'Endpoint deprecated']);
    expect(buttons[0]!.getAttribute('aria-pressed')).to.equal('true');
    buttons[2]!.click();
    await waitFor(() => items(el).every((li) => li.dataset['kind'] === 'key-created') && items(el).length > 0, 'filtered');
    expect(activityRequests(api).at(-1)!.searchParams.get('kind')).to.equal('key-created');
    expect(el.getAttribute('kind')).to.equal('key-created');
    expect(buttons[2]!.getAttribute('aria-pressed')).to.equal('true');
    buttons[0]!.click();
    await waitFor(() => new Set(items(el).map((li) => li.dataset['kind'])).size === 5, 'all kinds again');
    expect(activityRequests(api).at(-1)!.searchParams.has('kind')).to.equal(false);
  });

  it('loads limit items, then more through the cursor', async () => {
    const el = await feed('limit=5');
    await loaded(el);
    expect(items(el)).to.have.length(5);
    $<HTMLButtonElement>(el, '[part="load-more"]')!.click();
    await waitFor(() => items(el).length === 10, 'second page');
    expect(activityRequests(api).at(-1)!.searchParams.get('cursor')).to.equal('5');
    expect(new Set(ids(el)).size).to.equal(10);
  });

  it('adds new items on top when live, without duplicates and keeping the filter', async () => {
    const el = await feed('kind=error-spike&limit=3&refresh-interval=2');
    await loaded(el);
    const initial = ids(el);
    let arrivals: ActivityItem[] = [];
    api.use(
      http.get(`*${API_BASE}/activity`, ({ request }) => {
        const kind = new URL(request.url).searchParams.get('kind');
        const base = fixtures.activitySeed
          .filter((a) => a.kind === kind)
          .map(({ minutesAgo, ...a }) => ({ ...a, at: new Date(fixtures.FIXTURE_NOW.getTime() - minutesAgo * 60_000).toISOString() }));
        return HttpResponse.json({ items: [...arrivals, ...base].slice(0, 3), nextCursor: null });
      }),
    );
    arrivals = [newItem('act_new_1')];
    await waitFor(() => ids(el)[0] === 'act_new_1', 'first arrival on top');
    arrivals = [newItem('act_new_2'), newItem('act_new_1')];
    await waitFor(() => ids(el)[0] === 'act_new_2', 'second arrival on top');
    await waitFor(() => activityRequests(api).length >= 4, 'more polls');
    expect(ids(el)).to.deep.equal(['act_new_2', 'act_new_1', ...initial]);
    expect(
      activityRequests(api)
        .slice(1)
        .every((u) => u.searchParams.get('kind') === 'error-spike'),
    ).to.equal(true);
    expect(el.kind).to.equal('error-spike');
  });

  it('keeps what the reader is looking at in place when new items arrive', async () => {
    const el = await feed('limit=30&refresh-interval=2');
    el.style.setProperty('--ops-feed-max-height', '200px');
    await loaded(el);
    const list = $(el, '[part="list"]')!;
    const watched = items(el)[12]!;
    watched.scrollIntoView({ block: 'start' });
    list.scrollTop = watched.offsetTop - list.offsetTop;
    const before = watched.getBoundingClientRect().top;
    api.use(http.get(`*${API_BASE}/activity`, () => HttpResponse.json({ items: [newItem('act_new_a'), newItem('act_new_b')], nextCursor: null })));
    await waitFor(() => ids(el)[0] === 'act_new_a', 'arrivals rendered');
    expect(Math.abs(watched.getBoundingClientRect().top - before)).to.be.lessThan(1);
  });

  it('leaves no timer behind when removed', async () => {
    const timers = watchTimers();
    try {
      const el = await feed('refresh-interval=5');
      await loaded(el);
      expect(timers.pending(), 'the live poll and the age ticker').to.include.members(['timeout 5000 ms', 'interval 30000 ms']);
      el.remove();
      expect(timers.pending()).to.deep.equal([]);
    } finally {
      timers.restore();
    }
  });

  it('makes an item’s text a drill-down to what it is about, and leaves the others text', async () => {
    const el = await feed('', () => fixtures.FIXTURE_NOW);
    await loaded(el);
    const withSubject = fixtures.activitySeed.filter((a) => 'subject' in a);
    for (const seed of fixtures.activitySeed) {
      const link = $(el, `[data-id="${seed.id}"] .subject`);
      expect(Boolean(link), seed.id).to.equal('subject' in seed);
      expect(text($(el, `[data-id="${seed.id}"] .text`))).to.equal(`${seed.actor.name} ${seed.text}`);
    }
    const first = withSubject[0]!;
    const opened = nextEvent<CustomEvent<NavigateDetail>>(document, 'ops-navigate');
    $<HTMLButtonElement>(el, `[data-id="${first.id}"] .subject`)!.click();
    expect((await opened).detail).to.deep.equal({ ...first.subject, label: first.text });
  });

  it('keeps the feed when an item leads to a kind named like an Object member (constructor, __proto__, toString)', async () => {
    const odd = ['constructor', '__proto__', 'toString'].map((kind, i) => ({ ...newItem(`act_odd_${i}`), subject: { kind, id: 'x' } }));
    api.use(http.get(`*${API_BASE}/activity`, () => HttpResponse.json({ items: [...odd, newItem('act_plain')], nextCursor: null })));
    const el = await mount<OpsActivityFeed>('ops-activity-feed', {}, { wrapper: {}, properties: { clock: () => fixtures.FIXTURE_NOW } });
    Object.assign(el.parentElement!, { routes: { customer: '/ops/customers/{id}' } });
    await loaded(el);
    expect(ids(el)).to.deep.equal(['act_odd_0', 'act_odd_1', 'act_odd_2', 'act_plain']);
    expect($$(el, 'a.subject').length, 'no kind without a route becomes a link').to.equal(0);
    expect($$(el, 'button.subject').length).to.equal(3);
  });

  it('says so when there is no activity', async () => {
    api.use(...scenarios.empty());
    const el = await feed();
    const empty = await waitFor(() => $(el, '[part="empty"]'), 'empty');
    expect(text(empty)).to.equal('No activity yet.');
  });

  // Every failure kind, with Retry, is covered for every element by test/hardening.test.ts.

  it('renders markup in names and texts as text', async () => {
    api.use(
      http.get(`*${API_BASE}/activity`, () =>
        HttpResponse.json({
          items: [{ ...newItem('x'), actor: { id: 'u', name: '<img src=x onerror=alert(1)>' }, text: '<script>alert(1)</script>' }],
          nextCursor: null,
        }),
      ),
    );
    const el = await feed();
    await loaded(el);
    expect(text(items(el)[0]!.querySelector('.text'))).to.equal('<img src=x onerror=alert(1)> <script>alert(1)</script>');
    expect(items(el)[0]!.querySelector('img, script')).to.equal(null);
  });

  it('passes axe in light and dark', async () => {
    const light = await feed('theme=light');
    await loaded(light);
    await expect(light).to.be.accessible();
    const dark = await feed('theme=dark');
    await loaded(dark);
    await expect(dark).to.be.accessible();
  });
});
