import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { API_BASE, scenarios, useMockApi } from '../../test/mock-api.ts';
import { createConsoleClient, joinUrl } from './client.ts';
import { ConsoleApiError } from './errors.ts';
import { ROUTES } from '@ops-console/contract/routes';

async function failure(promise: Promise<unknown>): Promise<ConsoleApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(ConsoleApiError);
    return error as ConsoleApiError;
  }
  throw new Error('expected the call to fail');
}

describe('console API client', () => {
  const api = useMockApi();
  const client = () => createConsoleClient({ baseUrl: API_BASE });

  it('calls each console route of the contract’s table, and no other, with one of its methods', async () => {
    const called = new Set<string>();
    const c = createConsoleClient({
      baseUrl: 'https://api.test/v1',
      fetch: (input, init) => {
        const path = new URL(input instanceof Request ? input.url : input).pathname.replace(/^\/v1/, '').replace(/\/rec_1(?=\/|$)/, '/{id}');
        called.add(`${init?.method ?? 'GET'} ${path}`);
        return Promise.resolve(new Response('{}', { status: 404 }));
      },
    });
    const id = 'rec_1';
    await Promise.allSettled([
      c.getOverview(),
      c.listEndpoints(),
      c.getEndpoint(id),
      c.listRequests(),
      c.getRequest(id),
      c.getRequestSummary(),
      c.getTraffic(),
      c.listCustomers(),
      c.getCustomer(id),
      c.addNote(id, { text: 'Called.' }),
      c.listWebhooks(),
      c.getWebhook(id),
      c.listErrors(),
      c.getError(id),
      c.getErrorOptions(),
      c.createError({ code: 500, endpoint: 'POST /messages', count: 1, firstSeen: '2026-09-14', status: 'Open' }),
      c.patchError(id, { status: 'Fixed' }),
      c.listActivity(),
      c.getVersions(),
      c.listKeys(),
      c.getKey(id),
      c.listAlertChannels(),
      c.createAlertChannel({ kind: 'slack', name: 'Ops', url: 'https://hooks.slack.com/x' }),
      c.updateAlertChannel(id, { name: 'Pager' }),
      c.deleteAlertChannel(id),
      c.testAlertChannel(id),
      c.listAlertRules(),
      c.createAlertRule({ name: 'Errors', metric: 'errorRate', threshold: 5, window: '5m' }),
      c.updateAlertRule(id, { threshold: 3 }),
      c.deleteAlertRule(id),
      c.listAlerts(),
      c.listSlos(),
      c.getSlo(id),
      c.createSlo({ name: 'Available', objective: 'availability', targetPct: 99.5, period: '28d' }),
      c.updateSlo(id, { targetPct: 99.9 }),
      c.deleteSlo(id),
    ]);
    const table = Object.values(ROUTES)
      .filter((route) => route.group === 'console')
      .map((route) => `${route.method} ${route.path}`);
    expect([...called].sort()).to.deep.equal(table.sort());
  });

  describe('valid responses', () => {
    it('reads every GET route of the contract', async () => {
      const c = client();
      const overview = await c.getOverview();
      expect(overview.owner.name).to.equal('Ana Silva');
      expect(overview.figures.requestsThisMonth.series.months).to.have.length(12);
      expect((await c.listEndpoints()).items.map((e) => `${e.method} ${e.path}`)).to.include.members([
        'POST /messages',
        'DELETE /contacts',
        'POST /auth/token',
      ]);
      expect((await c.listRequests({ limit: 1 })).items[0]).to.include({ method: 'POST', path: '/webhooks', status: 500, time: '2026-09-14T09:41:00Z' });
      expect((await c.getRequestSummary()).groups[0]).to.include({ method: 'POST', path: '/messages', status: 201, thisWeek: 1204 });
      expect((await c.getTraffic()).metrics.requests).to.include({ value: 1284301, unit: 'count' });
      expect((await c.getCustomer('cus_globex')).notes).to.deep.equal([]);
      expect((await c.getWebhook('wh_invoice_paid')).name).to.equal('invoice.paid');
      expect((await c.listErrors()).items.map((e) => e.code).sort()).to.deep.equal([400, 401, 404, 429, 500]);
      expect((await c.getError('err_500_webhooks')).title).to.equal('Server error');
      expect((await c.getErrorOptions()).endpoints).to.deep.equal(['POST /messages', 'POST /webhooks', 'GET /contacts']);
      expect((await c.listActivity({ kind: 'docs-published', limit: 1 })).items[0]!.text).to.equal('published the docs for version 3');
      expect((await c.listAlertRules()).items[0]).to.include({ metric: 'errorRate', state: 'firing' });
      expect((await c.listAlerts({ state: 'resolved' })).items.map((a) => a.state)).to.deep.equal(['resolved']);
      expect((await c.listAlertChannels()).items[0]).to.include({ kind: 'webhook', signed: true });
      expect((await c.getSlo('slo_availability')).budgetOverTime.days).to.have.length(28);
      expect((await c.getVersions()).versions.map((v) => v.version)).to.deep.equal(['v3', 'v2', null, 'v4']);
    });

    it('sends query parameters and skips empty ones', async () => {
      await client().listEndpoints({ status: 'Slow', sort: '-p95Ms', limit: 5, q: '' });
      const url = api.requests.at(-1)!;
      expect(url.pathname).to.equal('/api/v1/endpoints');
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({ status: 'Slow', sort: '-p95Ms', limit: '5' });
    });

    it('ignores unknown fields and keeps unknown enum values', async () => {
      api.use(
        http.get(`*${API_BASE}/endpoints`, () =>
          HttpResponse.json({
            items: [{ id: 'ep_x', method: 'GET', path: '/x', requests: 1, p95Ms: 2, errorPct: 0, status: 'Degraded', region: 'eu' }],
            nextCursor: null,
            total: 1,
          }),
        ),
      );
      const page = await client().listEndpoints();
      expect(page.items[0]!.status).to.equal('Degraded');
      expect(page.items[0]).not.to.have.property('region');
      expect(page).not.to.have.property('total');
    });

    it('encodes ids as one path segment', async () => {
      await failure(client().getCustomer('../endpoints?x=1'));
      expect(api.requests.at(-1)!.pathname).to.equal('/api/v1/customers/..%2Fendpoints%3Fx%3D1');
    });

    it('joins base URLs with or without a trailing slash', () => {
      expect(joinUrl('/api/v1/', '/endpoints', { limit: 5, cursor: null })).to.equal('/api/v1/endpoints?limit=5');
      expect(joinUrl('https://portal.example.com/console/v1', '/overview')).to.equal('https://portal.example.com/console/v1/overview');
    });
  });

  describe('failures', () => {
    it('lists what was wrong with a schema-violating body', async () => {
      api.use(...scenarios.malformed());
      const error = await failure(client().listEndpoints());
      expect(error.kind).to.equal('invalid-response');
      expect(error.message).to.equal('The console API sent data in a shape this console does not understand.');
      expect(error.issues).to.include('items[0].id: expected string, got number');
      expect(error.issues).to.include('items[0].requests: expected number, got string');
      expect(error.issues).to.include('items[0].status: expected string, got null');
      expect(error.issues).to.include('nextCursor: expected string, got number');
      expect(error.issues.some((issue) => issue.startsWith('items[0].path: missing'))).to.equal(true);
    });

    it('reports HTML instead of JSON as an invalid response', async () => {
      api.use(...scenarios.htmlInsteadOfJson());
      const error = await failure(client().getOverview());
      expect(error.kind).to.equal('invalid-response');
      expect(error.issues[0]).to.match(/^expected JSON, got "<!DOCTYPE html>/);
    });

    it('reads problem+json title and detail of an HTTP error', async () => {
      api.use(...scenarios.serverError());
      const error = await failure(client().getOverview());
      expect(error).to.include({ kind: 'http', status: 500, title: 'Internal Server Error', detail: 'The console backend failed while answering.' });
      expect(error.message).to.equal('The console API had a problem answering. (500 Internal Server Error: The console backend failed while answering.)');
      expect(error.retryable).to.equal(true);
    });

    it('explains a 401 in words', async () => {
      api.use(...scenarios.unauthorized());
      const error = await failure(client().getOverview());
      expect(error.status).to.equal(401);
      expect(error.message).to.contain('You are not signed in to the console API');
    });

    it('still explains an HTTP error whose body is an HTML page', async () => {
      api.use(...scenarios.htmlError());
      const error = await failure(client().getOverview());
      expect(error).to.include({ kind: 'http', status: 502, title: undefined });
      expect(error.message).to.equal('The console API had a problem answering. (status 502)');
    });

    it('carries the field errors of a 422', async () => {
      const error = await failure(client().addNote('cus_acme', { text: '   ' }));
      expect(error.status).to.equal(422);
      expect(error.fieldErrors).to.deep.equal([{ field: 'text', message: 'Write a note first.' }]);
      expect(error.retryable).to.equal(false);
    });

    it('reports a network failure', async () => {
      api.use(...scenarios.networkError());
      const error = await failure(client().getOverview());
      expect(error.kind).to.equal('network');
      expect(error.message).to.contain('Could not reach the console API');
    });

    it('reports a refused connection as a network failure', async () => {
      const error = await failure(createConsoleClient({ baseUrl: 'http://127.0.0.1:9/refused/v1' }).getOverview());
      expect(error.kind).to.equal('network');
    });

    it('times out when no answer arrives', async () => {
      api.use(...scenarios.hang());
      const error = await failure(createConsoleClient({ baseUrl: API_BASE, timeoutMs: 1000 }).getOverview());
      expect(error.kind).to.equal('timeout');
      expect(error.message).to.equal('The console API did not answer within 1 second.');
    });

    it('reports a cancelled call as aborted, not as a failure of the API', async () => {
      api.use(...scenarios.hang());
      const controller = new AbortController();
      const pending = client().getOverview({ signal: controller.signal });
      controller.abort();
      const error = await failure(pending);
      expect(error.kind).to.equal('aborted');
      expect(error.retryable).to.equal(false);
    });
  });

  describe('auth and writes', () => {
    it('sends the token from getToken as a bearer header', async () => {
      let authorization: string | null = null;
      api.use(
        http.get(`*${API_BASE}/overview`, ({ request }) => {
          authorization = request.headers.get('Authorization');
        }),
      );
      await createConsoleClient({ baseUrl: API_BASE, getToken: () => Promise.resolve('tok_123') }).getOverview();
      expect(authorization).to.equal('Bearer tok_123');
    });

    it('asks getToken again when the API refuses its token (an embed session expired), and retries once', async () => {
      const sent: (string | null)[] = [];
      api.use(
        http.get(`*${API_BASE}/overview`, ({ request }) => {
          sent.push(request.headers.get('Authorization'));
          if (request.headers.get('Authorization') !== 'Bearer fresh')
            return HttpResponse.json({ title: 'Unauthorized', status: 401, detail: 'The embed session has expired.' }, { status: 401 });
          return undefined;
        }),
      );
      const asked: unknown[] = [];
      const getToken = (_url: string, context?: { refused: boolean }) => {
        asked.push(context);
        return context?.refused ? 'fresh' : 'expired';
      };
      const overview = await createConsoleClient({ baseUrl: API_BASE, getToken }).getOverview();
      expect(overview.figures.requestsThisMonth.value).to.be.a('number');
      expect(sent).to.deep.equal(['Bearer expired', 'Bearer fresh']);
      expect(asked).to.deep.equal([undefined, { refused: true }]);

      // A token refused again is the host's to fix: one retry, then the 401 in words.
      sent.length = 0;
      const error = await failure(createConsoleClient({ baseUrl: API_BASE, getToken: () => 'expired' }).getOverview());
      expect(error.status).to.equal(401);
      expect(sent).to.deep.equal(['Bearer expired', 'Bearer expired']);
    });

    it('sends no Authorization header without getToken', async () => {
      let authorization: string | null = 'unset';
      api.use(
        http.get(`*${API_BASE}/overview`, ({ request }) => {
          authorization = request.headers.get('Authorization');
        }),
      );
      await client().getOverview();
      expect(authorization).to.equal(null);
    });

    it('uses an injected fetch with the configured credentials', async () => {
      const calls: RequestInit[] = [];
      const recordingFetch: typeof fetch = (input, init) => {
        calls.push(init ?? {});
        return fetch(input, init);
      };
      await createConsoleClient({ baseUrl: API_BASE, fetch: recordingFetch, credentials: 'include' }).getOverview();
      expect(calls).to.have.length(1);
      expect(calls[0]!.credentials).to.equal('include');
      expect(calls[0]!.signal).to.be.instanceOf(AbortSignal);
    });

    it('sends an Idempotency-Key on POST and reuses a given one', async () => {
      const record = { code: 500, endpoint: 'POST /webhooks', count: 3, firstSeen: '2026-09-10', status: 'Open' } as const;
      const first = await client().createError(record, { idempotencyKey: 'key-1' });
      const again = await client().createError(record, { idempotencyKey: 'key-1' });
      await client().createError(record);
      const keys = api.db.writes.map((w) => w.idempotencyKey);
      expect(keys[0]).to.equal('key-1');
      expect(keys[1]).to.equal('key-1');
      expect(keys[2]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(again.id).to.equal(first.id);
      expect(api.db.errors.filter((e) => e.endpoint === 'POST /webhooks' && e.count === 3)).to.have.length(2);
    });

    it('sends no Idempotency-Key on PATCH and returns the updated record', async () => {
      const updated = await client().patchError('err_500_webhooks', { status: 'Fixed' });
      expect(updated.status).to.equal('Fixed');
      expect(api.db.writes.at(-1)).to.include({ method: 'PATCH', idempotencyKey: null });
    });
  });
});
