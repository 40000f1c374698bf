/**
 * The elements on a console server scaled out on real ClickHouse and PostgreSQL processes (started
 * by the test runner's plugin), while its ClickHouse is stopped and after it is back: the server
 * answers 503 with Retry-After, each element says it could not load and offers Retry, and Retry
 * shows what the server computes once ClickHouse answers again.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../src/all.ts';
import type { ConsoleApiError } from '../src/api/errors.ts';
import * as schema from '@ops-console/contract/schemas';
import type { LoadErrorDetail } from '../src/shared/events.ts';
import { mountInConsole } from './console-host.ts';
import { $, $$, nextEvent, text, waitFor } from './dom.ts';

const { url, token } = await executeServerCommand<{ url: string; token: string }, undefined>('scaled-out-server');
const base = `${url}/console/v1`;
const telemetry = (running: boolean) => executeServerCommand('scaled-out-telemetry', { running });

/** What the server answers on `path` once it serves again (its first answers after ClickHouse's restart may still be 503). */
async function api<T>(path: string, shape: { parse(value: unknown): T }): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status === 200) return shape.parse(await response.json());
    expect(response.status, `${path} answered`).to.equal(503);
    if (attempt === 50) throw new Error(`${path} still answers 503`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const mountScaledOut = (tag: string, attrs: Record<string, string> = {}) => mountInConsole(base, token, tag, attrs);

describe('the elements while the scaled-out server’s ClickHouse is away', () => {
  afterEach(() => telemetry(true));

  interface Panel {
    tag: string;
    noun: string;
    /** Its rows' selector in its shadow root. */
    rows: string;
    /** The route it reads, and that route's schema. */
    path: string;
    page: { parse(value: unknown): { items: { id: string }[] } };
    /** Whether it shows every item of the page at once. */
    whole: boolean;
  }
  // The table shows every endpoint; the log the newest of its first page (the rest as it scrolls).
  const panels: Panel[] = [
    { tag: 'ops-endpoint-table', noun: 'endpoints', rows: 'tbody tr', path: '/endpoints', page: schema.endpointPage, whole: true },
    { tag: 'ops-request-log', noun: 'requests', rows: '[part="row"]', path: '/requests?limit=50', page: schema.requestPage, whole: false },
  ];
  for (const { tag, noun, rows, path, page, whole } of panels) {
    it(`${tag} says it couldn’t load with Retry, and Retry shows the server’s ${noun} once ClickHouse is back`, async () => {
      await telemetry(false);
      const failed = nextEvent<CustomEvent<LoadErrorDetail>>(document, 'ops-load-error');
      const el = await mountScaledOut(tag);
      const error: ConsoleApiError = (await failed).detail.error;
      expect(error.status).to.equal(503);
      expect(error.retryAfterMs).to.equal(5_000);
      await waitFor(() => $(el, '[part="error"]'), 'error shown');
      expect(text($(el, '.error-title'))).to.equal(`Couldn’t load ${noun}.`);
      expect(text($(el, '.error-message'))).to.contain('The console’s database cannot be reached right now.');
      expect(text($(el, '[part="retry-button"]'))).to.equal('Retry');
      expect($$(el, rows)).to.have.length(0);

      await telemetry(true);
      const expected = await api(path, page);
      $(el, '[part="retry-button"]')!.click();
      await waitFor(() => $$(el, rows).length > 0, `${noun} after Retry`);
      expect($(el, '[part="error"]')).to.equal(null);
      if (whole) await waitFor(() => $$(el, rows).length === expected.items.length, `all ${expected.items.length} ${noun}`);
      const ids = $$(el, rows).map((row) => row.dataset['id']);
      expect(ids).to.deep.equal(expected.items.slice(0, ids.length).map((item) => item.id));
    });
  }
});
