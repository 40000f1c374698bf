import { expect } from '@open-wc/testing';
import { bypass } from 'msw';
import { createConsoleClient } from '../src/api/client.ts';
import { fixtures, generateEndpoints } from './index.ts';
import { API_BASE, scenarios, useMockApi } from '../test/mock-api.ts';

describe('mock console API', () => {
  const api = useMockApi();
  const client = () => createConsoleClient({ baseUrl: API_BASE });

  it('serves an endpoint in detail: its row, 30 days adding up to its requests, status codes and customers', async () => {
    const row = fixtures.endpoints.find((e) => e.id === 'ep_4')!;
    const { daily, statusCodes, topCustomers, ...figures } = await client().getEndpoint('ep_4');
    expect(figures).to.deep.equal({ ...row, versions: 1 });
    expect(daily.days).to.have.length(30);
    expect(Math.abs(daily.requests.reduce((a, b) => a + b, 0) - row.requests)).to.be.lessThan(30, 'the days add up to the row, give or take rounding');
    expect(statusCodes.reduce((sum, s) => sum + s.requests, 0)).to.equal(row.requests);
    expect(statusCodes.find((s) => s.status === 500)!.requests).to.equal(Math.round((row.requests * row.errorPct) / 100));
    expect(new Set(topCustomers.map((c) => c.id)).size).to.equal(topCustomers.length);
    const error = await client()
      .getEndpoint('ep_nothing')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as { status?: number }).status).to.equal(404);
  });

  it('answers a time range as the contract says: its window, buckets that add up to its figures, and a 400 for a range it cannot read', async () => {
    const now = fixtures.FIXTURE_NOW.getTime();
    const day = await client().getOverview({}, { range: '24h' });
    expect(day.window).to.include({ range: '24h', bucket: 'hour' });
    expect(day.overTime!.starts).to.have.length(24);
    expect(Date.parse(day.overTime!.starts[23]!)).to.equal(now - (now % 3_600_000), 'the last bucket is this hour');
    expect(day.figures.requests!.value).to.equal(day.overTime!.requests.reduce((a, b) => a + b, 0));
    const week = await client().getTraffic({ range: '7d' });
    expect(week.overTime!.starts).to.have.length(7);
    expect(week.metrics.requests.value).to.equal(week.overTime!.requests.reduce((a, b) => a + b, 0));
    const hour = await client().listEndpoints({ range: '1h', limit: 500 });
    const month = await client().listEndpoints({ limit: 500 });
    expect(hour.items.find((e) => e.id === 'ep_1')!.requests).to.be.lessThan(month.items.find((e) => e.id === 'ep_1')!.requests / 100);
    const detail = await client().getEndpoint('ep_4', {}, { from: '2026-09-01T00:00:00Z', to: '2026-09-03T00:00:00Z' });
    expect(detail.window).to.include({ bucket: 'hour', from: '2026-09-01T00:00:00Z' });
    expect(detail.overTime!.starts).to.have.length(48);
    const error = await client()
      .getOverview({}, { range: '2w' as '24h' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as { status?: number }).status).to.equal(400);
  });

  it('lists only the requests between from and to', async () => {
    const from = '2026-09-14T08:00:00Z';
    const to = '2026-09-14T08:10:00Z';
    const page = await client().listRequests({ from, to, limit: 500 });
    expect(page.items.length).to.equal(20, 'one entry every 30 seconds');
    expect(page.nextCursor).to.equal(null);
    for (const entry of page.items) expect(Date.parse(entry.time) >= Date.parse(from) && Date.parse(entry.time) < Date.parse(to)).to.equal(true);
  });

  it('filters the log by endpoint row and by customer, as the request detail tells them', async () => {
    const byEndpoint = await client().listRequests({ endpointId: 'ep_4', limit: 20 });
    expect(byEndpoint.items.length).to.equal(20);
    for (const entry of byEndpoint.items) expect((await client().getRequest(entry.id)).endpointId).to.equal('ep_4');
    const byCustomer = await client().listRequests({ customerId: 'cus_globex', limit: 20 });
    expect(byCustomer.items.length).to.equal(20);
    for (const entry of byCustomer.items) expect((await client().getRequest(entry.id)).customer!.id).to.equal('cus_globex');
  });

  it('serves overview figures faithful to the seed', async () => {
    const { figures, requestsByEndpoint } = await client().getOverview();
    expect(figures.requestsThisMonth.series.months[0]).to.equal('2025-10');
    expect(figures.requestsThisMonth.series.months.at(-1)).to.equal('2026-09');
    expect(requestsByEndpoint.map((s) => s.group)).to.deep.equal(['/messages', '/contacts', '/webhooks', '/auth', 'Other']);
    expect(requestsByEndpoint.reduce((sum, s) => sum + s.sharePct, 0)).to.be.closeTo(100, 1e-9);
  });

  it('lists every route, with GET /usage and POST /messages twice, and all three statuses', async () => {
    const { items } = await client().listEndpoints();
    const labels = items.map((e) => `${e.method} ${e.path}`);
    expect(new Set(labels)).to.deep.equal(new Set(['POST /messages', 'GET /contacts', 'DELETE /contacts', 'POST /webhooks', 'POST /auth/token', 'GET /usage']));
    expect(labels.filter((l) => l === 'GET /usage')).to.have.length(2);
    expect(new Set(items.map((e) => e.status))).to.deep.equal(new Set(['Healthy', 'Failing', 'Slow']));
  });

  it('logs requests newest first with the seed codes and never DELETE /contacts', async () => {
    const { items } = await client().listRequests({ limit: 500 });
    expect(items[0]).to.include({ method: 'POST', path: '/webhooks', status: 500, durationMs: 1240, time: '2026-09-14T09:41:00Z' });
    const times = items.map((i) => i.time);
    expect([...times].sort().reverse()).to.deep.equal(times);
    const codes = new Map(items.map((i) => [`${i.method} ${i.path}`, i.status]));
    expect(Object.fromEntries(codes)).to.deep.equal({
      'POST /webhooks': 500,
      'POST /messages': 201,
      'GET /contacts': 200,
      'POST /auth/token': 200,
      'GET /usage': 200,
    });
  });

  it('opens any logged request by its id, with the line the log shows, and none that was never logged', async () => {
    const { items } = await client().listRequests({ limit: 300 });
    for (const entry of [items[0]!, items[1]!, items.at(-1)!]) {
      const detail = await client().getRequest(entry.id);
      expect({
        ...detail,
        route: undefined,
        endpointId: undefined,
        apiVersion: undefined,
        keyId: undefined,
        customer: undefined,
        bytes: undefined,
        headers: undefined,
        responseHeaders: undefined,
        requestBody: undefined,
        responseBody: undefined,
        payload: undefined,
      }).to.deep.equal({
        ...entry,
        route: undefined,
        endpointId: undefined,
        apiVersion: undefined,
        keyId: undefined,
        customer: undefined,
        bytes: undefined,
        headers: undefined,
        responseHeaders: undefined,
        requestBody: undefined,
        responseBody: undefined,
        payload: undefined,
      });
      const row = fixtures.endpoints.find((e) => e.id === detail.endpointId)!;
      expect(`${row.method} ${row.path}`).to.equal(`${entry.method} ${entry.path}`);
      expect(fixtures.customers.map((c) => c.id)).to.include(detail.customer!.id);
      expect(detail.headers!.find((h) => h.name === 'authorization')!.value).to.equal('[masked]');
    }
    const newest = Number(items[0]!.id.slice(3));
    for (const id of [`rq_${newest + 1}`, `rq_${newest - 2_000}`, 'rq_x']) {
      const error = await client()
        .getRequest(id)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error, id).to.have.property('status', 404);
    }
  });

  it('filters requests by method, status class and path', async () => {
    const fivexx = await client().listRequests({ status: '5xx', limit: 20 });
    expect(fivexx.items.every((i) => i.status === 500)).to.equal(true);
    const byPath = await client().listRequests({ method: 'GET', path: 'usa', limit: 20 });
    expect(byPath.items.every((i) => i.method === 'GET' && i.path === '/usage')).to.equal(true);
  });

  it('serves a 1,000,000-entry log by cursor in the large scenario', async () => {
    api.use(...scenarios.large());
    const last = await client().listRequests({ cursor: '999998', limit: 50 });
    expect(last.items).to.have.length(2);
    expect(last.items[1]!.time).to.equal(new Date(Date.parse('2026-09-14T09:41:00Z') - 999_999 * 30_000).toISOString().replace('.000Z', 'Z'));
    expect(last.nextCursor).to.equal(null);
    const first = await client().listRequests({ limit: 2 });
    expect(first.nextCursor).to.equal('2');
  });

  it('gives the 10,000-endpoint scenario routes an API could have, each once, with statuses their figures earn', () => {
    const all = generateEndpoints(10_000);
    const labels = all.map((e) => `${e.method} ${e.path}`);
    expect(new Set(labels).size, 'no route twice').to.equal(10_000);
    // A path names a version, a resource and what is done to it, never a row number.
    expect(all.filter((e) => !/^\/v[1-4]\/[a-z-]+(\/:id)?(\/[a-z-]+)?$/.test(e.path)).map((e) => e.path)).to.deep.equal([]);
    const earned = (e: (typeof all)[number]) => (e.errorPct >= 5 ? 'Failing' : e.p95Ms >= 700 ? 'Slow' : 'Healthy');
    expect(all.filter((e) => e.status !== earned(e)).map((e) => `${e.path} ${e.status} at ${e.errorPct}% and ${e.p95Ms} ms`)).to.deep.equal([]);
    // The same rule as the fixtures the designer sees first.
    expect(fixtures.endpoints.filter((e) => e.status !== earned(e))).to.deep.equal([]);
  });

  it('holds customers with and without notes, the invoice.paid webhook, and all error codes and statuses', async () => {
    const acme = await client().getCustomer('cus_acme');
    expect(acme).to.include({ plan: 'Free', errorPct: 2.1, status: 'Expired' });
    expect((await client().getCustomer('cus_globex')).notes).to.have.length(0);
    expect(await client().getWebhook('wh_invoice_paid')).to.include({ name: 'invoice.paid', status: 'Healthy', deliveredPct: 99.2 });
    const errors = (await client().listErrors()).items;
    expect(errors.map((e) => `${e.code} ${e.title}`).sort()).to.deep.equal([
      '400 Bad request',
      '401 Unauthorized',
      '404 Not found',
      '429 Too many requests',
      '500 Server error',
    ]);
    expect(new Set(errors.map((e) => e.status))).to.deep.equal(new Set(['Open', 'Fixed', 'Ignored']));
  });

  it('serves the five activity kinds newest first, relative to the clock', async () => {
    const { items } = await client().listActivity({ limit: 5 });
    expect(items.map((i) => i.kind)).to.deep.equal(['rate-limit-raised', 'key-created', 'error-spike', 'docs-published', 'endpoint-deprecated']);
    expect(items[0]).to.include({ text: 'raised the rate limit for Acme Ltd', at: '2026-09-14T09:42:00Z' });
  });

  it('tells a believable history: a feed filtered by kind never shows one event twice', async () => {
    for (const kind of ['rate-limit-raised', 'key-created', 'error-spike', 'docs-published', 'endpoint-deprecated']) {
      const { items } = await client().listActivity({ kind, limit: 50 });
      const events = items.map((item) => `${item.actor.name} ${item.text}`);
      expect(items.length, kind).to.be.greaterThan(3);
      expect(new Set(events).size, `${kind}: ${events.join(' | ')}`).to.equal(events.length);
    }
  });

  it('agrees with itself: related endpoints count as the endpoint list does, a customer’s within its own requests', async () => {
    const endpoints = new Map((await client().listEndpoints({ limit: 500 })).items.map((e) => [e.id, e.requests]));
    const related = [...(await client().getWebhook('wh_invoice_paid')).relatedEndpoints, ...(await client().getError('err_500_webhooks')).relatedEndpoints];
    for (const r of related) expect(r.requests, r.label).to.equal(endpoints.get(r.id!));
    for (const id of ['cus_acme', 'cus_globex']) {
      const customer = await client().getCustomer(id);
      const ownTotal = customer.relatedEndpoints.reduce((sum, r) => sum + r.requests, 0);
      expect(ownTotal, id).to.be.at.most(customer.requests);
      for (const r of customer.relatedEndpoints) expect(r.requests, r.label).to.be.at.most(endpoints.get(r.id!)!);
    }
  });

  it('agrees with itself on deprecations: the rows they cover, and callers that add up to their requests', async () => {
    const { deprecations } = await client().getVersions();
    const endpoints = (await client().listEndpoints({ limit: 500 })).items;
    expect(endpoints.filter((e) => e.deprecation).map((e) => [e.id, e.deprecation!.id])).to.deep.equal([
      ['ep_3', 'dep_contacts_delete'],
      ['ep_7', 'dep_usage_v2'],
    ]);
    for (const d of deprecations!) {
      expect(
        d.customers.reduce((sum, c) => sum + c.requests, 0),
        d.id,
      ).to.equal(d.requests);
      expect(d.daysToSunset, d.id).to.equal(Math.ceil((Date.parse(d.sunsetAt) - fixtures.FIXTURE_NOW.getTime()) / 86_400_000));
      const covered = endpoints.filter((e) => e.deprecation?.id === d.id);
      expect(d.requests, d.id).to.be.at.most(covered.reduce((sum, e) => sum + e.requests, 0));
    }
    // Over the last hour, only callers whose last call was in it.
    const hour = (await client().getVersions({}, { range: '1h' })).deprecations!;
    expect(hour[0]!.customers.map((c) => c.id)).to.deep.equal(['cus_acme']);
  });

  it('agrees with itself on keys: the log’s keys and their customers, a key page adding up, and use after revocation', async () => {
    const keys = (await client().listKeys({ limit: 500 })).items;
    expect(keys.map((k) => k.status).sort()).to.include.members(['Active', 'Idle', 'Revoked', 'Unregistered']);
    // A key's latest requests are the log's requests with that key, and the log says so.
    const key = await client().getKey('key_live_initech_2');
    expect(key.status).to.equal('Revoked');
    expect(key.overTime.requests.reduce((a, b) => a + b, 0)).to.equal(key.requests);
    expect(key.endpoints.reduce((sum, e) => sum + e.requests, 0)).to.equal(key.requests);
    expect(Math.round(key.endpoints.reduce((sum, e) => sum + e.sharePct, 0) * 10) / 10).to.equal(100);
    for (const r of key.latestRequests) {
      const detail = await client().getRequest(r.id);
      expect([detail.keyId, detail.customer!.id]).to.deep.equal(['key_live_initech_2', 'cus_initech']);
      expect(r.afterRevocation).to.equal(Date.parse(r.time) >= Date.parse(key.revokedAt!));
    }
    expect(key.afterRevocation!.requests).to.be.above(0);
    const logged = (await client().listRequests({ keyId: 'key_live_initech_2', limit: 500 })).items;
    expect(logged.slice(0, key.latestRequests.length).map((r) => r.id)).to.deep.equal(key.latestRequests.map((r) => r.id));
    expect(keys.find((k) => k.id === 'key_live_initech_2')!.lastUsedAt).to.equal(logged[0]!.time);
  });

  it('adds a note with its history item, and answers a repeated key with the same note', async () => {
    const note = await client().addNote('cus_globex', { text: 'Wants SSO.' }, { idempotencyKey: 'k-note' });
    const again = await client().addNote('cus_globex', { text: 'Wants SSO.' }, { idempotencyKey: 'k-note' });
    expect(again.id).to.equal(note.id);
    const customer = await client().getCustomer('cus_globex');
    expect(customer.notes.map((n) => n.text)).to.deep.equal(['Wants SSO.']);
    expect(customer.history[0]!.kind).to.equal('Note added');
    expect(api.db.writes.map((w) => w.idempotencyKey)).to.deep.equal(['k-note', 'k-note']);
  });

  it('rejects an invalid error record with field errors', async () => {
    try {
      await client().createError({ code: 418 as 400, endpoint: '', count: -1, firstSeen: 'soon', status: 'Open' });
      expect.fail('expected a 422');
    } catch (error) {
      const fields = (error as { fieldErrors: { field: string }[] }).fieldErrors.map((f) => f.field);
      expect(fields).to.include.members(['code', 'endpoint', 'count', 'firstSeen']);
    }
  });

  it('answers over real HTTP with CORS, as the dev server does', async () => {
    const response = await fetch(bypass(new Request(`${location.origin}/api/v1/endpoints?limit=1`)));
    expect(response.headers.get('access-control-allow-origin')).to.equal('*');
    expect(((await response.json()) as { items: unknown[] }).items).to.have.length(1);
    const scenario = await fetch(bypass(new Request(`${location.origin}/api/scenario/server-error/v1/overview`)));
    expect(scenario.status).to.equal(500);
    expect(scenario.headers.get('content-type')).to.equal('application/problem+json');
    const preflight = await fetch(bypass(new Request(`${location.origin}/api/v1/errors`, { method: 'OPTIONS' })));
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-headers')).to.contain('Idempotency-Key');
  });
});

describe('generated request log', () => {
  it('keeps entry identity as a live clock moves on', async () => {
    const { requestAt } = await import('./generate.ts');
    const earlier = new Date('2026-09-14T09:41:00Z');
    const later = new Date(earlier.getTime() + 60_000);
    expect(requestAt(2, later)).to.deep.equal(requestAt(0, earlier));
    expect(requestAt(0, later).id).not.to.equal(requestAt(0, earlier).id);
  });
});
