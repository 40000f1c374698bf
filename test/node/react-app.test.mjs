// A React 19 app built with Vite against the packed tarball, as an adopting team would: the
// @ops-console/elements/react wrappers render on the client and on the server (renderToString,
// then hydrateRoot), load data, set getToken before any request, and hand the drill-down event
// to the app's state; the app's own types check, and the invalid uses stay errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { build, createLogger } from 'vite';
import { launch, serve, until } from './browser.mjs';
import { createHostApp, openHostPage } from './host-app.mjs';

let dir;
let browser;
let site;
let pages;
let mockSite;
const buildWarnings = [];

before(async () => {
  dir = createHostApp('react-app', ['react', 'react-dom', '@types/react', '@types/react-dom', 'msw']);
  const quiet = { root: dir, logLevel: 'error', configFile: false };
  const pagesToBuild = { main: join(dir, 'index.html'), charts: join(dir, 'charts.html') };
  // Vite's warnings, as the team building the app would read them.
  const customLogger = { ...createLogger('warn'), warn: (message) => buildWarnings.push(message), warnOnce: (message) => buildWarnings.push(message) };
  // With the filter docs/embedding/frameworks.md gives for the 'use client' notices (Next.js needs the directive; Vite drops it).
  const onwarn = (warning, warn) => (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"') ? undefined : warn(warning));
  await build({ ...quiet, logLevel: 'warn', customLogger, build: { outDir: 'www', rolldownOptions: { input: pagesToBuild, onwarn } } });
  await build({ ...quiet, build: { ssr: 'server.tsx', outDir: 'ssr' } });
  const { render } = await import(pathToFileURL(join(dir, 'ssr', 'server.js')).href);
  const shell = readFileSync(join(dir, 'www', 'index.html'), 'utf8');
  pages = { '/client': shell, '/server': shell.replace('<!--app-->', render()) };
  site = await serve(join(dir, 'www'), pages);
  // The mock recipe: the worker file in public/, then a build in the mode whose .env turns the mock on.
  execFileSync('npx', ['msw', 'init', 'public', '--save'], { cwd: dir, stdio: 'pipe' });
  await build({ ...quiet, mode: 'mock', build: { outDir: 'www-mock' } });
  mockSite = await serve(join(dir, 'www-mock'), { '/': readFileSync(join(dir, 'www-mock', 'index.html'), 'utf8') });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await mockSite?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the app type-checks against the packed types, and each listed invalid use is still an error', () => {
  const tsc = resolve('node_modules/typescript/bin/tsc');
  // Fails on a type error in the valid code, and on an @ts-expect-error line that no longer errs.
  execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe' });
});

test('each React component has an on… prop for every event its element fires, as the manifest lists them', async () => {
  const react = await import(resolve('dist/src/react/index.js'));
  const manifest = JSON.parse(readFileSync('dist/custom-elements.json', 'utf8'));
  const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName && d.tagName !== 'ops-chart');
  for (const el of elements) {
    const component = react[el.name];
    assert.ok(component, `${el.name} has a React component`);
    assert.equal(component.tagName, el.tagName);
    assert.deepEqual([...component.eventTypes].sort(), (el.events ?? []).map((e) => e.name).sort(), `${el.tagName} events`);
  }
});

test('the React modules are client components, so a server component (Next.js App Router) can render them', () => {
  const folder = join(dir, 'node_modules/@ops-console/elements/dist/src/react');
  const modules = readdirSync(folder).filter((file) => file.endsWith('.js'));
  assert.ok(modules.length >= 11);
  for (const file of modules) assert.match(readFileSync(join(folder, file), 'utf8'), /^'use client';/, file);
});

test('server rendering writes the elements waiting for hydration, and leaves their properties to the client', () => {
  const html = pages['/server'];
  assert.match(html, /<h1>Host app<\/h1>/);
  assert.match(html, /<ops-console defer-hydration="">\s*<ops-endpoint-table defer-hydration=""><\/ops-endpoint-table>\s*<\/ops-console>/);
  assert.doesNotMatch(html, /react-app-token/, 'the token is never in the markup');
});

for (const mode of ['client', 'server']) {
  test(`${mode}-rendered: data loads with the token on every request, and a drill-down reaches the app's state`, async () => {
    const { page, errors, apiRequests: api } = await openHostPage(browser, `${site.origin}/${mode}`);
    await until(page, () => document.querySelector('ops-endpoint-table')?.shadowRoot?.querySelectorAll('tbody .row-link').length > 0);
    const first = await page.evaluate(() => document.querySelector('ops-endpoint-table').shadowRoot.querySelector('tbody .row-link').textContent.trim());
    assert.equal(first, 'POST /messages');
    assert.equal(await page.evaluate(() => document.querySelector('ops-endpoint-table').hasAttribute('defer-hydration')), false);

    await page.evaluate(() => document.querySelector('ops-endpoint-table').shadowRoot.querySelector('tbody .row-link').click());
    await until(page, () => document.getElementById('opened').textContent !== 'Nothing opened');
    assert.match(await page.$eval('#opened', (el) => el.textContent), /^Opened endpoint \S+: POST \/messages$/);
    assert.equal(new URL(page.url()).pathname, `/${mode}`, 'the app routed itself: the event was cancelled');

    assert.ok(api.length > 0, 'the table asked the API');
    assert.deepEqual(
      api.filter((r) => r.authorization !== 'Bearer react-app-token').map((r) => r.url),
      [],
      'no request went out before getToken was set',
    );
    assert.equal(api.filter((r) => new URL(r.url).pathname === '/api/v1/endpoints').length, 1, 'the list was asked for once');
    assert.deepEqual(await page.evaluate(() => globalThis.loadErrors), [], 'no panel failed on the way');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("with the mock recipe (msw init, mode mock, createMockApi at the app's own base) the app runs on the mocks alone", async () => {
  const { page, errors } = await openHostPage(browser, 'about:blank');
  const answered = [];
  page.on('response', (r) => r.url().includes('/console/v1/') && answered.push({ url: r.url(), byWorker: r.fromServiceWorker(), status: r.status() }));
  await page.goto(`${mockSite.origin}/`, { waitUntil: 'load' });
  await until(page, () => document.querySelector('ops-endpoint-table')?.shadowRoot?.querySelectorAll('tbody .row-link').length > 0);
  const first = await page.evaluate(() => document.querySelector('ops-endpoint-table').shadowRoot.querySelector('tbody .row-link').textContent.trim());
  assert.equal(first, 'POST /messages');
  assert.ok(answered.length > 0);
  assert.deepEqual(
    answered.filter((r) => !r.byWorker || r.status !== 200),
    [],
    'every /console/v1 answer came from the mock worker (the server has no such route)',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("the app's build has no chunk over Vite's 500 kB warning, and its line, bar, sparkline and donut charts draw", async () => {
  assert.deepEqual(buildWarnings, [], 'Vite warned about nothing');
  const sizes = readdirSync(join(dir, 'www', 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => statSync(join(dir, 'www', 'assets', file)).size);
  assert.ok(
    sizes.every((size) => size <= 500_000),
    `largest chunk ${Math.max(...sizes)} bytes`,
  );

  const { page, errors } = await openHostPage(browser, `${site.origin}/charts.html`);
  const drawn = () =>
    [document.querySelector('ops-overview'), document.querySelector('ops-traffic')]
      .flatMap((panel) => [...(panel?.shadowRoot?.querySelectorAll('ops-chart') ?? [])])
      .map((chart) => ({ type: chart.data?.type ?? 'none', drawn: Boolean(chart.chart?.getOption?.()?.series?.length) }));
  await until(page, `(${drawn})().length >= 4 && (${drawn})().every((chart) => chart.drawn)`);
  const types = new Set((await page.evaluate(drawn)).map((chart) => chart.type));
  for (const type of ['sparkline', 'pie', 'line', 'bar']) assert.ok(types.has(type), `a ${type} chart drew`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a production build carries neither msw nor the mocks', () => {
  const assets = readdirSync(join(dir, 'www', 'assets'))
    .map((file) => readFileSync(join(dir, 'www', 'assets', file), 'utf8'))
    .join('\n');
  assert.doesNotMatch(assets, /mockServiceWorker|setupWorker/);
  assert.doesNotMatch(assets, /cus_acme/, 'no fixture data');
});
