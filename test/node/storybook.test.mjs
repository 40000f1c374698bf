// Every story renders: Storybook is built, then each story opens in headless Chromium and
// must produce no page error, no console error, and no failed request other than the mock API
// answers a failure story asks for (its scenario, or its own story handler).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, serve } from './browser.mjs';
import { BASELINES, checkLooks, compare } from './visual.mjs';

const out = mkdtempSync(join(tmpdir(), 'storybook-'));
let site;
let browser;

before(async () => {
  execFileSync(resolve('node_modules/.bin/storybook'), ['build', '-o', out, '--quiet', '--disable-telemetry'], { stdio: 'pipe' });
  site = await serve(out);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
  rmSync(out, { recursive: true, force: true });
});

/** Mock API answers a story asks for: scenarios and story-specific handlers on /api/…. */
const expectedFailure = (url) => new URL(url).pathname.startsWith('/api/');

test('every story renders without errors', async () => {
  const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
  const stories = Object.values(index.entries).filter((e) => e.type === 'story');
  assert.ok(stories.length >= 60, `found ${stories.length} stories`);
  const docs = Object.values(index.entries)
    .filter((e) => e.type === 'docs')
    .map((e) => e.title);
  for (const guide of ['Introduction', 'Guides/Embedding', 'Guides/Configuration and auth', 'Guides/Theming', 'Guides/Events', 'Guides/API contract'])
    assert.ok(docs.includes(guide), guide);

  const problems = [];
  const page = await browser.newPage();
  let current = '';
  page.on('pageerror', (e) => !e.message.startsWith('ResizeObserver loop') && problems.push(`${current}: page error ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const url = m.location()?.url ?? '';
    if (m.text().startsWith('Failed to load resource') && (expectedFailure(url) || url.endsWith('/favicon.ico'))) return;
    problems.push(`${current}: console error ${m.text()}`);
  });
  page.on('requestfailed', (r) => {
    if (!expectedFailure(r.url())) problems.push(`${current}: request failed ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !expectedFailure(r.url()) && !r.url().endsWith('/favicon.ico')) problems.push(`${current}: ${r.status()} ${r.url()}`);
  });
  for (const story of stories) {
    current = story.id;
    await page.goto(`${site.origin}/iframe.html?id=${story.id}&viewMode=story`, { waitUntil: 'load' });
    // Rendered means the story root holds an element that has rendered its shadow root.
    await page
      .waitForFunction(
        () => [...document.querySelectorAll('#storybook-root *')].some((el) => el.tagName.startsWith('OPS-') && el.shadowRoot?.childElementCount),
        { timeout: 15_000, polling: 100 },
      )
      .catch(() => problems.push(`${current}: nothing rendered`));
  }
  assert.deepEqual(problems, []);

  // Stories that show a state beyond "loaded" reach it: what a designer opening them sees.
  const REACHED = {
    'elements-ops-overview--partial-failure': ['Figures are being recomputed.', 'POST /webhooks', 'raised the rate limit'],
    'elements-ops-customer--note-fails': ['Notes are read-only during maintenance.', 'Called about the renewal'],
    'elements-ops-customer--note-validation': ['Write a note first.'],
    'elements-ops-customer--note-added': ['Called about the renewal', 'Note added'],
    'elements-ops-customer--german': ['Notizen', 'Verlauf'],
    'elements-ops-error--change-refused': ['Someone else changed this record.'],
    'elements-ops-error--saving': ['Saving…'],
    'elements-ops-error-form--saved': ['Saved 500 Server error.'],
    'elements-ops-error-form--server-refuses-a-field': ['This endpoint was retired last week.'],
    'elements-ops-error-form--network-failure': ['The error was not saved.', '2026-09-10'],
    'elements-ops-error-form--discard-confirmation': ['Discard what you entered?'],
    'elements-ops-webhook--no-activity': ['No data for this period yet.'],
    'elements-ops-traffic--empty': ['No breakdown for this period yet.'],
    'elements-ops-traffic--japanese': ['内訳'],
    'elements-ops-overview--afternoon': ['Good afternoon, Ana'],
    'elements-ops-overview--evening': ['Good evening, Ana'],
    'elements-ops-request-log--invalid-status-hint': ['A code such as 500, or a class such as 5xx.'],
    // Lists after "Load more": busy, failed with the rows kept, and the last page.
    'elements-ops-endpoint-table--load-more-busy': ['POST /auth/token', 'Loading…'],
    'elements-ops-endpoint-table--load-more-failed': ['POST /auth/token', 'The console API is restarting.', 'Retry'],
    'elements-ops-endpoint-table--last-page': ['POST /messages', '7,400'],
    'elements-ops-activity-feed--load-more-failed': ['published the docs for version 3', 'The console API is restarting.'],
    'elements-ops-request-log--next-page-fails': ['The console API is restarting.'],
    'elements-ops-request-log--live-new-entries': ['2 new', 'Updated 09:45'],
    'elements-ops-overview--mostly-negative': ['18.4%', '126.4%'],
    'elements-ops-activity-feed--filtered-empty': ['No activity of this kind yet.'],
    'elements-ops-request-log--filtered-empty': ['No requests match these filters.'],
    // The API timing out, or a proxy's HTML page where JSON was expected.
    'elements-ops-overview--timed-out': ['The console API did not answer within 1 second.'],
    'elements-ops-webhook--bad-gateway': ['status 502'],
    // <ops-console> configures what is inside it: its locale reaches the table, an element's own api-base wins.
    'elements-ops-console--german-locale': ['482.113'],
    'elements-ops-console--element-overrides-wrapper': ['482,113', 'Couldn’t load endpoints.'],
  };
  const missing = [];
  for (const [id, texts] of Object.entries(REACHED)) {
    assert.ok(
      stories.some((s) => s.id === id),
      `story ${id} exists`,
    );
    await page.goto(`${site.origin}/iframe.html?id=${id}&viewMode=story`, { waitUntil: 'load' });
    const seen = await page
      .waitForFunction(
        (wanted) => {
          // Text and form values through every open shadow root.
          const read = (root) => {
            let all = root.textContent ?? '';
            for (const el of root.querySelectorAll('*')) {
              if (el.shadowRoot) all += ' ' + read(el.shadowRoot);
              if (typeof el.value === 'string') all += ' ' + el.value;
            }
            return all;
          };
          const all = read(document.body);
          return wanted.every((t) => all.includes(t)) && all;
        },
        { timeout: 20_000, polling: 200 },
        texts,
      )
      .catch(() => null);
    if (!seen) missing.push(`${id}: ${texts.join(' / ')}`);
  }
  // The million-entry story's play scrolls several pages deep into the log.
  await page.goto(`${site.origin}/iframe.html?id=elements-ops-request-log--million-entries&viewMode=story`, { waitUntil: 'load' });
  const deepest = await page
    .waitForFunction(
      () => {
        const log = document.querySelector('ops-request-log');
        const positions = [...(log?.shadowRoot?.querySelectorAll('[part="row"]') ?? [])].map((row) => Number(row.getAttribute('aria-posinset')));
        return Math.max(0, ...positions) >= 300 && Math.max(...positions);
      },
      { timeout: 30_000, polling: 250 },
    )
    .then((handle) => handle.jsonValue())
    .catch(() => 0);
  if (!deepest) missing.push('elements-ops-request-log--million-entries: not scrolled past entry 300');
  assert.deepEqual(missing, []);
});

test('each element has its own docs page with the public API only, working controls, and its events in Actions', async () => {
  const page = await browser.newPage();
  await page.goto(`${site.origin}/iframe.html?id=elements-ops-endpoint-table--docs&viewMode=docs`, { waitUntil: 'load' });
  await page.waitForSelector('.docblock-argstable tbody tr', { timeout: 30_000 });
  const rows = await page.$$eval('.docblock-argstable tbody tr', (trs) =>
    trs.map((tr) => ({ name: tr.querySelector('td')?.textContent?.trim() ?? '', radios: tr.querySelectorAll('input[type="radio"]').length })),
  );
  const names = rows.map((row) => row.name);
  for (const internal of ['client', 'formatOptions', 'resolvedApiBase', 'consoleConfig', 'list', 'navigate', '#config', 'api-base', 'hide-filter']) {
    assert.ok(!names.some((name) => name === internal || (name.startsWith(`${internal}`) && name.length === internal.length)), `no row for ${internal}`);
  }
  for (const field of ['apiBase', 'status', 'sort', 'limit', 'hideFilter', 'hideMore', 'locale', 'timeZone', 'theme']) {
    assert.ok(
      names.some((name) => name.startsWith(field)),
      `a row for ${field}`,
    );
  }
  assert.ok(rows.find((row) => row.name.startsWith('theme')).radios >= 3, 'theme is a radio group');
  for (const tag of ['ops-customer', 'ops-webhook', 'ops-error', 'ops-error-form', 'ops-console']) {
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    assert.ok(
      Object.values(index.entries).some((e) => e.type === 'docs' && e.title === `Elements/${tag}`),
      `docs page for ${tag}`,
    );
  }

  // The tokens page shows each colour token's light and dark default as swatches.
  await page.goto(`${site.origin}/iframe.html?id=guides-theming--docs&viewMode=docs`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.textContent.includes('Colours, light and dark'), { timeout: 30_000 });
  const swatches = await page.$$eval('table tr', (trs) =>
    trs.filter((tr) => /--ops-color-surface$/.test(tr.querySelector('td code')?.textContent ?? '')).map((tr) => tr.textContent),
  );
  assert.ok(swatches.includes('--ops-color-surface#ffffff#15171c'), `swatch row of --ops-color-surface: ${swatches.join(' / ')}`);

  // Guides read descriptions from the manifest: code shows as code, not backticks, and names stay whole.
  await page.setViewport({ width: 560, height: 800 });
  for (const id of ['guides-events--docs', 'guides-theming--docs']) {
    await page.goto(`${site.origin}/iframe.html?id=${id}&viewMode=docs`, { waitUntil: 'load' });
    await page.waitForFunction(() => [...document.querySelectorAll('table tbody td code')].some((code) => /^(--)?ops-/.test(code.textContent)), {
      timeout: 30_000,
    });
    const { backticks, broken } = await page.$$eval('table tbody td', (cells) => ({
      backticks: cells.filter((td) => td.textContent.includes('`')).map((td) => td.textContent),
      broken: cells
        .flatMap((td) => [...td.querySelectorAll('code')])
        .filter((code) => /^--?ops-|^ops-/.test(code.textContent) && code.getClientRects().length > 1)
        .map((code) => code.textContent),
    }));
    assert.deepEqual(backticks, [], `${id}: backticks shown`);
    assert.deepEqual(broken, [], `${id}: names broken across lines`);
  }
  await page.setViewport({ width: 800, height: 600 });

  // A row's drill-down in a story reaches the Actions panel.
  await page.goto(`${site.origin}/iframe.html?id=elements-ops-endpoint-table--loaded&viewMode=story`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('ops-endpoint-table')?.shadowRoot?.querySelector('.row-link'), { timeout: 30_000 });
  const action = await page.evaluate(
    () =>
      new Promise((resolve) => {
        window.__STORYBOOK_ADDONS_CHANNEL__.on('storybook/actions/action-event', (event) => resolve(event.data.name));
        document.querySelector('ops-endpoint-table').shadowRoot.querySelector('.row-link').click();
        setTimeout(() => resolve('none'), 5_000);
      }),
  );
  assert.equal(action, 'onOpsNavigate'); // the Actions panel names it by its arg, for ops-navigate
  await page.close();
});

test('every story looks as its baseline: light and dark, in a 360 px and a 1280 px window', async () => {
  const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
  // STORIES=ops-console takes only the stories whose id contains it (to redraw a few baselines quickly).
  const only = process.env.STORIES;
  const stories = Object.values(index.entries).filter((e) => e.type === 'story' && (!only || e.id.includes(only)));
  const { problems, taken } = await checkLooks(launch, site.origin, stories, { workers: 2, partial: Boolean(only) });
  assert.ok(only || taken >= 4 * 60, `${taken} pictures`);
  const recorded = readFileSync(join(BASELINES, 'CHROMIUM.txt'), 'utf8').trim();
  const running = await browser.version();
  assert.deepEqual(
    problems,
    [],
    `Pictures that differ are in test-results/visual/ (the picture and its .diff.png). Baselines were taken with ${recorded}, this run has ${running}.`,
  );
});

test('a small visible change to a story fails its picture', async () => {
  const page = await browser.newPage();
  await page.setViewport({ width: 360, height: 800 });
  await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
  await page.goto(`${site.origin}/iframe.html?id=elements-ops-endpoint-table--loaded&viewMode=story&globals=a11y.manual:!true`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('ops-endpoint-table')?.shadowRoot?.querySelector('.row-link'), { timeout: 30_000 });
  const baseline = readFileSync(join(BASELINES, 'elements-ops-endpoint-table--loaded--light-360.png'));
  const picture = () => page.screenshot({ fullPage: true, captureBeyondViewport: false });
  const restyle = (css) =>
    page.evaluate((css) => {
      const root = document.querySelector('ops-endpoint-table').shadowRoot;
      root.querySelector('#changed')?.remove();
      root.append(Object.assign(document.createElement('style'), { id: 'changed', textContent: css }));
      return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }, css);
  await page.waitForFunction(() => document.fonts.status === 'loaded');
  let unchanged = false;
  for (let i = 0; i < 20 && !unchanged; i++) unchanged = compare(await picture(), baseline).ok || (await new Promise((r) => setTimeout(r, 150)));
  assert.ok(unchanged, 'the untouched story matches its baseline');
  for (const css of ['th { position: relative; left: 1px }', '.row-link { letter-spacing: 0.2px }', ':host { --ops-color-accent: #7c3aed }']) {
    await restyle(css);
    assert.equal(compare(await picture(), baseline).ok, false, `${css} is seen`);
  }
  await page.close();
});
