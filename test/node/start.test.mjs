// The main job, as `npm start` runs it (on a throwaway DuckDB file and port, with a small
// backfill): the server fills itself over its own APIs, the demo page shows every element
// with the server's figures, and the live traffic changes them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, open, until } from './browser.mjs';
import { ELEMENT_TAGS } from './tags.mjs';

const dir = mkdtempSync(join(tmpdir(), 'ops-console-start-'));
const port = 18787;
const origin = `http://localhost:${port}`;
let child;
let browser;

before(async () => {
  child = spawn(process.execPath, ['server/demo/main.ts'], {
    env: { ...process.env, OPS_CONSOLE_DB: join(dir, 'demo.duckdb'), OPS_CONSOLE_PORT: String(port), OPS_CONSOLE_BACKFILL_PER_DAY: '40' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  for await (const chunk of child.stdout) {
    printed += chunk;
    if (printed.includes('Ctrl+C stops')) break;
  }
  assert.match(printed, /Console API\s+http:\/\/localhost:18787\/console\/v1/);
  assert.match(printed, /Bearer demo-token/);
  assert.match(printed, /Bearer demo-ingest-key/);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  child?.kill('SIGTERM');
  if (child) await once(child, 'exit');
  rmSync(dir, { recursive: true, force: true });
});

const overview = async () => (await fetch(`${origin}/console/v1/overview`, { headers: { authorization: 'Bearer demo-token' } })).json();

test('npm start serves the demo page with every element on the server’s figures', async () => {
  const before = (await overview()).figures.requestsThisMonth.value;
  const { page, errors } = await open(browser, `${origin}/`);
  await until(
    page,
    (tags) =>
      tags.every((tag) => {
        const el = document.querySelector(tag);
        const root = el?.shadowRoot;
        if (!root || root.querySelector('[part="error"]')) return false;
        // The request log's rows are virtualized: off screen it renders none, so ask it what it holds.
        if (tag === 'ops-request-log') return el.entries().length > 0;
        return root.querySelector('[part="figure"], [part="row"], [part="item"], [part="metric"], .facts, form');
      }),
    ELEMENT_TAGS,
  );
  const shown = await page.evaluate(() => document.querySelector('ops-overview').shadowRoot.querySelector('[part="figure"] .figure-value').textContent.trim());
  const afterwards = (await overview()).figures.requestsThisMonth.value;
  // Live traffic keeps arriving: the page shows the server's figure from some moment in between.
  const value = Number(shown.replace(/,/g, ''));
  assert.ok(before <= value && value <= afterwards, `${shown} between ${before} and ${afterwards}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the live traffic changes the figures', async () => {
  const first = (await overview()).figures.requestsToday.value;
  const start = Date.now();
  let now = first;
  while (now === first && Date.now() - start < 30_000) {
    await new Promise((r) => setTimeout(r, 500));
    now = (await overview()).figures.requestsToday.value;
  }
  assert.ok(now > first, 'requests today grew while the generator ran');
});

test('live requests are measured for real: by the collector in the sample API, and by the OpenTelemetry SDK in the reports API', async () => {
  const unique = String(Date.now());
  const sample = await fetch(`http://127.0.0.1:${port + 1}/v3/contacts-${unique}`, { headers: { authorization: 'Bearer key_acme_1' } });
  await sample.body?.cancel();
  const reports = await fetch(`http://127.0.0.1:${port + 2}/v3/reports/r_${unique}`, { headers: { authorization: 'Bearer key_globex_1' } });
  assert.equal(reports.status, 404, 'the reports API answers (report ids from 450 are unknown)');
  await reports.body?.cancel();
  const found = {};
  const start = Date.now();
  while ((!found.sample || !found.reports) && Date.now() - start < 45_000) {
    await new Promise((r) => setTimeout(r, 500));
    const { items } = await (await fetch(`${origin}/console/v1/requests?limit=200`, { headers: { authorization: 'Bearer demo-token' } })).json();
    found.sample ??= items.find((i) => i.path === `/v3/contacts-${unique}`);
    found.reports ??= items.find((i) => i.path === `/v3/reports/r_${unique}`);
  }
  assert.deepEqual(
    [found.sample?.method, found.sample?.status, found.sample?.actor?.name],
    ['GET', 404, 'Acme Ltd'],
    'the collector recorded the sample API’s 404 with its caller',
  );
  assert.deepEqual([found.reports?.method, found.reports?.status], ['GET', 404], 'the trace of the reports API’s 404 arrived through /v1/traces');
  const detail = await (await fetch(`${origin}/console/v1/requests?limit=200`, { headers: { authorization: 'Bearer demo-token' } })).json();
  assert.ok(
    detail.items.some((i) => /^\/v[23]\/(messages|contacts|webhooks|auth\/token|usage)$/.test(i.path) && i.durationMs > 0),
    'the generator’s calls to the seed’s routes are in the log',
  );
});
