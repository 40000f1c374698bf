/**
 * Every element against the real console server (its own DuckDB, on its own loopback port,
 * started by the test runner): each shows what the server computed, read here from the same
 * routes, and the error form's POST goes through CORS with its Idempotency-Key to the server.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../src/all.ts';
import * as schema from '@ops-console/contract/schemas';
import { mountInConsole } from './console-host.ts';
import { $, $$, allowVirtualizerResizeNotice, nextEvent, text, waitFor } from './dom.ts';

const { url, token } = await executeServerCommand<{ url: string; token: string }, undefined>('console-server');
const base = `${url}/console/v1`;

/** What the server answers on `path`, read with the elements' own schema for it. */
async function api<T>(path: string, shape: { parse(value: unknown): T }): Promise<T> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return shape.parse(await response.json());
}

const mountReal = (tag: string, attrs: Record<string, string> = {}) => mountInConsole(base, token, tag, attrs);

const integer = (n: number) => new Intl.NumberFormat('en-US').format(n);

describe('the elements on the real console server', () => {
  allowVirtualizerResizeNotice();

  it('ops-overview shows the server’s figures', async () => {
    const expected = await api('/overview', schema.overview);
    const el = await mountReal('ops-overview');
    await waitFor(() => $(el, '[part="figure"] .figure-value'), 'figures');
    const values = $$(el, '[part="figure"] .figure-value').map((v) => text(v));
    expect(values[0]).to.equal(integer(expected.figures.requestsThisMonth.value));
    expect(values[1]).to.equal(integer(expected.figures.requestsToday.value));
  });

  it('ops-endpoint-table lists the server’s endpoints in its order', async () => {
    const expected = await api('/endpoints', schema.endpointPage);
    const el = await mountReal('ops-endpoint-table');
    await waitFor(() => $$(el, 'tbody tr').length === expected.items.length, 'rows');
    expect($$(el, 'tbody tr').map((tr) => tr.dataset['id'])).to.deep.equal(expected.items.map((e) => e.id));
  });

  it('ops-request-log lists the newest requests', async () => {
    const expected = await api('/requests?limit=50', schema.requestPage);
    const el = await mountReal('ops-request-log');
    await waitFor(() => $$(el, '[part="row"]').length > 0, 'rows');
    const shown = $$(el, '[part="row"]').map((r) => r.dataset['id']);
    expect(shown).to.deep.equal(expected.items.slice(0, shown.length).map((r) => r.id));
  });

  it('ops-traffic shows the four metrics', async () => {
    const expected = await api('/traffic', schema.traffic);
    const el = await mountReal('ops-traffic');
    await waitFor(() => $$(el, '[part="metric"]').length === 4, 'metrics');
    expect(text($(el, '[data-metric="requests"]'))).to.contain(integer(expected.metrics.requests.value));
  });

  it('ops-customer shows the customer with figures from its traffic', async () => {
    const expected = await api('/customers/cus_acme', schema.customer);
    const el = await mountReal('ops-customer', { 'customer-id': 'cus_acme' });
    await waitFor(() => $(el, '.facts'), 'facts');
    expect(text($(el, 'h2 > span'))).to.equal('Acme Ltd');
    expect(text($(el, '.facts'))).to.contain(integer(expected.requests));
  });

  it('ops-webhook shows Webhooks / invoice.paid with its delivery figures', async () => {
    const el = await mountReal('ops-webhook', { 'webhook-id': 'wh_invoice_paid' });
    await waitFor(() => $(el, '.facts'), 'facts');
    expect(text($(el, '[part="breadcrumb"]'))).to.equal('Webhooks / invoice.paid');
    expect(text($(el, '.facts'))).to.contain('75');
  });

  it('ops-error-form offers the server’s endpoints and creates a record there; ops-error shows it', async () => {
    const options = await api('/errors/options', schema.errorOptions);
    const form = await mountReal('ops-error-form');
    await waitFor(() => $(form, 'form'), 'form');
    expect(
      $$<HTMLOptionElement>(form, '#endpoint option')
        .slice(1)
        .map((o) => o.value),
    ).to.deep.equal(options.endpoints);
    const values = { code: '500', endpoint: 'POST /messages', count: '2', firstSeen: '2026-09-01', status: 'Open', notes: 'Seen in the browser test.' };
    for (const [name, value] of Object.entries(values)) {
      const field = $<HTMLInputElement | HTMLSelectElement>(form, `[name="${name}"]`)!;
      field.value = value;
      field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input'));
    }
    const created = nextEvent<CustomEvent<{ record: { id: string; count: number } }>>(form, 'ops-error-created');
    $<HTMLButtonElement>(form, 'button[type="submit"]')!.click();
    const { record } = (await created).detail;
    expect(record.count).to.equal(2, 'counted by the server from its events');
    expect((await api(`/errors/${record.id}`, schema.errorRecord)).notes).to.equal('Seen in the browser test.');

    const page = await mountReal('ops-error', { 'error-id': record.id });
    await waitFor(() => $(page, '.facts'), 'facts');
    expect(text($(page, 'h2'))).to.contain('500 Server error');
  });

  it('ops-request-detail shows a request as the server recorded it', async () => {
    const [newest] = (await api('/requests?limit=1', schema.requestPage)).items;
    const expected = await api(`/requests/${newest!.id}`, schema.requestDetail);
    const el = await mountReal('ops-request-detail', { 'request-id': newest!.id });
    await waitFor(() => $(el, '.facts'), 'facts');
    expect(text($(el, 'h2'))).to.equal(`${expected.method} ${expected.path}`);
    expect(text($(el, '.title .badge'))).to.equal(String(expected.status));
    const headers = $$(el, '[part="headers"] tbody tr').map((row) => [...row.children].map((cell) => text(cell)));
    expect(headers).to.deep.equal((expected.headers ?? []).map((h) => [h.name, h.value]));
  });

  it('ops-error-list lists the server’s records and saves a status change there', async () => {
    const expected = await api('/errors?limit=20', schema.errorPage);
    const el = await mountReal('ops-error-list');
    await waitFor(() => $$(el, 'tbody tr').length === expected.items.length, 'rows');
    expect($$(el, 'tbody tr').map((row) => row.dataset['id'])).to.deep.equal(expected.items.map((r) => r.id));
    const record = expected.items[0]!;
    const next = record.status === 'Fixed' ? 'Ignored' : 'Fixed';
    const select = $<HTMLSelectElement>(el, `tr[data-id="${record.id}"] select`)!;
    const updated = nextEvent<CustomEvent<{ record: { status: string } }>>(el, 'ops-error-updated');
    select.value = next;
    select.dispatchEvent(new Event('change'));
    expect((await updated).detail.record.status).to.equal(next);
    expect((await api(`/errors/${record.id}`, schema.errorRecord)).status).to.equal(next, 'saved on the server, through CORS with If-Match');
  });

  it('ops-customer-list lists the server’s customers with their figures', async () => {
    const expected = await api('/customers', schema.customerPage);
    expect(expected.items.length).to.be.greaterThan(0);
    const el = await mountReal('ops-customer-list');
    await waitFor(() => $$(el, 'tbody tr').length === expected.items.length, 'rows');
    expect($$(el, 'tbody tr').map((row) => [row.dataset['id'], text(row.querySelector('td.num'))])).to.deep.equal(
      expected.items.map((c) => [c.id, integer(c.requests)]),
    );
  });

  it('ops-endpoint-detail shows the server’s figures, days and status codes for its busiest endpoint', async () => {
    const [busiest] = (await api('/endpoints?limit=1', schema.endpointPage)).items;
    const expected = await api(`/endpoints/${busiest!.id}`, schema.endpointDetail);
    const el = await mountReal('ops-endpoint-detail', { 'endpoint-id': busiest!.id });
    await waitFor(() => $(el, '.facts') && $$(el, '[part="status-codes"] tbody tr').length === expected.statusCodes.length, 'loaded');
    expect(text($(el, '.fact dd'))).to.equal(integer(expected.requests));
    expect($$(el, '[part="status-codes"] tbody tr').map((row) => text(row.querySelector('td')))).to.deep.equal(
      expected.statusCodes.map((s) => integer(s.requests)),
    );
    const chart = $<HTMLElement & { data: { series: { values: number[] }[] } }>(el, 'ops-chart')!;
    expect(chart.data.series[0]!.values).to.deep.equal(expected.daily.requests);
    const log = $(el, 'ops-request-log')!;
    await waitFor(() => $$(log, '[part="row"]').length > 0, 'its requests');
    for (const row of $$(log, '[part="row"]')) expect(text(row.querySelector('.row-link'))).to.equal(`${expected.method} ${expected.path}`);
  });

  it('ops-webhook-list lists the server’s webhooks with their delivery figures', async () => {
    const expected = await api('/webhooks', schema.webhookPage);
    expect(expected.items.length).to.be.greaterThan(0);
    const el = await mountReal('ops-webhook-list');
    await waitFor(() => $$(el, 'tbody tr').length === expected.items.length, 'rows');
    expect($$(el, 'tbody tr').map((row) => [row.dataset['id'], text(row.querySelector('td.num'))])).to.deep.equal(
      expected.items.map((w) => [w.id, `${w.deliveredPct.toFixed(1)}%`]),
    );
  });

  it('ops-activity-feed lists the server’s activity', async () => {
    const expected = await api('/activity?limit=10', schema.activityPage);
    const el = await mountReal('ops-activity-feed', { limit: '10' });
    await waitFor(() => $$(el, '[part="item"]').length === expected.items.length, 'items');
    expect($$(el, '[part="item"]').map((li) => li.dataset['id'])).to.deep.equal(expected.items.map((a) => a.id));
  });
});
