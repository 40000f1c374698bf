// The package as users get it: importable without a DOM, packed with the right files,
// installable into a fresh project and rendering there, and one script tag from another
// origin defining every element with chart code fetched only when a chart renders.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import { launch, open, serve, until } from './browser.mjs';
import { ELEMENT_TAGS as NINE } from './tags.mjs';

const rowsRendered = (tag) => (document.querySelector(tag)?.shadowRoot?.querySelectorAll('tbody tr').length ?? 0) > 0;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('imports without a DOM (server-side rendering safe)', async () => {
  assert.equal(typeof globalThis.window, 'undefined');
  const all = await import(resolve('dist/src/all.js'));
  const api = await import(resolve('dist/src/api/index.js'));
  assert.equal(typeof all.OpsOverview, 'function');
  assert.equal(typeof api.createConsoleClient, 'function');
  assert.equal(typeof globalThis.window, 'undefined', 'importing touched no window');
  assert.equal(typeof globalThis.document, 'undefined', 'importing touched no document');
});

test('npm pack ships the bundle, modules, types, manifest and mocks, and no tests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pack-'));
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' }));
  const files = info.files.map((f) => f.path);
  for (const required of [
    'dist/ops-console.js',
    'dist/custom-elements.json',
    'dist/openapi.json',
    'dist/src/index.d.ts',
    'dist/src/api/index.js',
    'dist/mocks/index.js',
    ...NINE.map((t) => `dist/src/elements/${t.replace('ops-', '')}/define.js`),
  ]) {
    assert.ok(files.includes(required), `${required} is packed`);
  }
  assert.ok(
    files.some((f) => /^dist\/chunks\/echarts-chunk-.*\.js$/.test(f)),
    'the lazy chart chunk is packed',
  );
  assert.equal(files.filter((f) => /\.test\./.test(f) || f.startsWith('src/')).length, 0, 'no tests or TypeScript sources');
  // IDEs and Storybook follow package.json's `customElements` to the manifest: it must be in the tarball.
  const { customElements } = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.ok(files.includes(posix.normalize(customElements)), `customElements (${customElements}) resolves inside the package`);
  console.log(`packed ${files.length} files, ${info.size} bytes (unpacked ${info.unpackedSize})`);
  rmSync(dir, { recursive: true, force: true });
});

test('installs into a fresh project and renders an element from it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'consumer-'));
  try {
    const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, info.filename)], { cwd: dir, stdio: 'pipe' });
    // A user's own code: the client on its own in Node, and an element bundled for a page.
    const check =
      'import { createConsoleClient, ENDPOINT_STATUSES } from "@ops-console/elements/api"; console.log(typeof createConsoleClient, ENDPOINT_STATUSES.join());';
    assert.equal(execFileSync(process.execPath, ['--input-type=module', '-e', check], { cwd: dir, encoding: 'utf8' }).trim(), 'function Healthy,Failing,Slow');
    writeFileSync(join(dir, 'app.js'), "import '@ops-console/elements/ops-endpoint-table.js';\n");
    await build({
      entryPoints: [join(dir, 'app.js')],
      bundle: true,
      format: 'esm',
      outfile: join(dir, 'www', 'app.js'),
      absWorkingDir: dir,
      logLevel: 'silent',
    });
    const site = await serve(join(dir, 'www'), {
      '/': '<!doctype html><link rel="icon" href="data:,"><script type="module" src="/app.js"></script><ops-endpoint-table api-base="/api/v1"></ops-endpoint-table>',
    });
    try {
      const { page, errors } = await open(browser, `${site.origin}/`);
      await until(page, rowsRendered, 'ops-endpoint-table');
      const first = await page.evaluate(() => document.querySelector('ops-endpoint-table').shadowRoot.querySelector('tbody th').textContent.trim());
      assert.equal(first, 'POST /messages');
      assert.deepEqual(errors, []);
    } finally {
      await site.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one script tag from another origin defines all nine elements; chart code loads only for a chart', async () => {
  const cdn = await serve(resolve('dist'));
  const pages = {
    '/table': `<!doctype html><link rel="icon" href="data:,"><script type="module" src="${'CDN'}/ops-console.js"></script><ops-endpoint-table api-base="CDN/api/v1"></ops-endpoint-table>`,
    '/overview': `<!doctype html><link rel="icon" href="data:,"><script type="module" src="CDN/ops-console.js"></script><ops-overview api-base="CDN/api/v1"></ops-overview>`,
  };
  for (const key of Object.keys(pages)) pages[key] = pages[key].replaceAll('CDN', cdn.origin);
  const host = await serve(mkdtempSync(join(tmpdir(), 'host-')), pages);
  try {
    assert.notEqual(new URL(host.origin).port, new URL(cdn.origin).port);
    const table = await open(browser, `${host.origin}/table`);
    await until(table.page, rowsRendered, 'ops-endpoint-table');
    const defined = await table.page.evaluate((tags) => tags.filter((t) => customElements.get(t)), NINE);
    assert.deepEqual(defined, NINE);
    assert.deepEqual(
      table.requests.filter((u) => u.includes('echarts')),
      [],
      'a table-only page fetches no chart code',
    );
    assert.deepEqual(table.errors, []);

    const overview = await open(browser, `${host.origin}/overview`);
    await until(overview.page, () => document.querySelector('ops-overview')?.shadowRoot?.querySelector('.shares-panel ops-chart')?.chart);
    const chartChunks = overview.requests.filter((u) => u.includes('echarts-chunk'));
    assert.equal(chartChunks.length, 1);
    assert.ok(chartChunks[0].startsWith(`${cdn.origin}/chunks/`), 'fetched from beside the bundle');
    assert.deepEqual(overview.errors, []);
  } finally {
    await host.close();
    await cdn.close();
  }
});
