// A Vue 3 app built with Vite and @vitejs/plugin-vue against the packed tarball: the elements as
// tags (isCustomElement), getToken bound as a property, the drill-down in the app's state; and
// vue-tsc with strictTemplates over @ops-console/elements/vue, where valid templates check and
// each listed invalid one (unknown attribute or property, wrong event type, unknown enum value)
// stays an error.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'vite';
import { launch, serve, until } from './browser.mjs';
import { createHostApp, openHostPage } from './host-app.mjs';

let dir;
let browser;
let site;

before(async () => {
  dir = createHostApp('vue-app', ['vue', '@vitejs/plugin-vue', 'vue-tsc']);
  await build({ root: dir, logLevel: 'error', build: { outDir: 'www' } });
  site = await serve(join(dir, 'www'), { '/app': readFileSync(join(dir, 'www', 'index.html'), 'utf8') });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('vue-tsc checks the templates against @ops-console/elements/vue, and each listed invalid use is still an error', () => {
  try {
    execFileSync(process.execPath, [resolve(dir, 'node_modules/vue-tsc/bin/vue-tsc.js'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    assert.fail(`vue-tsc found problems:\n${error.stdout}${error.stderr}`);
  }
});

test("data loads with the token on every request, and a drill-down reaches the app's state", async () => {
  const { page, errors, apiRequests } = await openHostPage(browser, `${site.origin}/app`);
  await until(page, () => document.querySelector('ops-endpoint-table')?.shadowRoot?.querySelectorAll('tbody .row-link').length > 0);
  const link = () => document.querySelector('ops-endpoint-table').shadowRoot.querySelector('tbody .row-link');
  assert.equal(await page.evaluate((fn) => eval(fn)().textContent.trim(), `(${link})`), 'POST /messages');
  assert.equal(
    await page.evaluate(() => document.querySelectorAll('ops-endpoint-table tr, ops-endpoint-table tbody').length),
    0,
    'Vue rendered no children into the element',
  );

  await page.evaluate((fn) => eval(fn)().click(), `(${link})`);
  await until(page, () => document.getElementById('opened').textContent !== 'Nothing opened');
  assert.match(await page.$eval('#opened', (el) => el.textContent), /^Opened endpoint \S+: POST \/messages$/);
  assert.equal(new URL(page.url()).pathname, '/app', 'the app routed itself: the event was cancelled');

  assert.equal(apiRequests.filter((r) => new URL(r.url).pathname === '/api/v1/endpoints').length, 1, 'the list was asked for once');
  assert.deepEqual(
    apiRequests.filter((r) => r.authorization !== 'Bearer vue-app-token').map((r) => r.url),
    [],
    'every request carried the token',
  );
  assert.deepEqual(await page.evaluate(() => globalThis.loadErrors), []);
  assert.deepEqual(errors, []);
  await page.close();
});
