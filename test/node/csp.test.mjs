// A host page with a strict Content Security Policy and Trusted Types renders every
// element, charts included, from the script-tag bundle, with the API on another origin, and
// the browser reports no policy violation.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, open, serve, until } from './browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

test('strict CSP with Trusted Types: every element render, 0 violations', async () => {
  const api = await serve(mkdtempSync(join(tmpdir(), 'api-')));
  const policy = `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ${api.origin}; require-trusted-types-for 'script'`;
  const body = `<!doctype html><html><head><link rel="icon" href="data:,">
    <script type="module" src="/ops-console.js"></script><script type="module" src="/csp-probe.js"></script></head><body>
    <ops-console api-base="${api.origin}/api/v1" time-zone="UTC">
      <ops-overview></ops-overview><ops-endpoint-table></ops-endpoint-table><ops-request-log></ops-request-log>
      <ops-traffic></ops-traffic><ops-customer customer-id="cus_acme"></ops-customer><ops-webhook webhook-id="wh_invoice_paid"></ops-webhook>
      <ops-error error-id="err_500_webhooks"></ops-error><ops-error-form></ops-error-form><ops-activity-feed></ops-activity-feed>
      <ops-request-detail request-id="rq_59645962"></ops-request-detail><ops-error-list></ops-error-list><ops-customer-list></ops-customer-list><ops-webhook-list></ops-webhook-list><ops-endpoint-detail endpoint-id="ep_4"></ops-endpoint-detail>
    </ops-console></body></html>`;
  // The probe must be a file too: inline scripts are what the policy forbids.
  const probe =
    "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));";
  const site = await serve(resolve('dist'), { '/': body }, { 'Content-Security-Policy': policy }, { '/csp-probe.js': probe });
  try {
    const { page, errors } = await open(browser, `${site.origin}/`);
    // The request log only renders rows inside the viewport, so each element is scrolled to in turn.
    const rendered = (selectors) =>
      Object.entries(selectors).every(([tag, sel]) => {
        const el = document.querySelector(tag);
        el?.scrollIntoView();
        return el?.shadowRoot?.querySelector(sel);
      });
    await until(page, rendered, {
      'ops-overview': '[part="figure"]',
      'ops-endpoint-table': 'tbody tr',
      'ops-request-log': '[part="row"]',
      'ops-traffic': '[part="metric"]',
      'ops-customer': '.facts',
      'ops-webhook': '.facts',
      'ops-error': '.facts',
      'ops-error-form': 'form',
      'ops-activity-feed': '[part="item"]',
      'ops-request-detail': '[part="headers"]',
      'ops-endpoint-detail': '[part="status-codes"]',
      'ops-error-list': 'tbody tr',
      'ops-customer-list': 'tbody tr',
      'ops-webhook-list': 'tbody tr',
    });
    // Charts drew too: traffic's two, the webhook's and the error's.
    await until(page, () =>
      ['ops-traffic', 'ops-webhook', 'ops-error'].every((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('ops-chart')].every((c) => c.chart)),
    );
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.deepEqual(errors, []);
  } finally {
    await site.close();
    await api.close();
  }
});
