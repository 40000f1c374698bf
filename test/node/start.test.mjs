// The main job, as `npm start` runs it (on a throwaway DuckDB file and port, with a small
// backfill): the server fills itself over its own APIs, the demo page shows all nine elements
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

test('npm start serves the demo page with all nine elements on the server’s figures', async () => {
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
