// The package as users get it: importable without a DOM, packed with the right files,
// installable into a fresh project and rendering there, and one script tag from another
// origin loading each element when it first appears (or every one at once, eagerly), with chart
// code fetched only when a chart renders.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    'dist/ops-console.all.js',
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
    // The elements, and the contract they import (packed beside them: it is not on the registry).
    const tarballs = execFileSync(process.execPath, [resolve('scripts/pack.mjs'), '--out', dir, '--only', 'contract,elements'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], { cwd: dir, stdio: 'pipe' });
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
      const first = await page.evaluate(() => document.querySelector('ops-endpoint-table').shadowRoot.querySelector('tbody .row-link').textContent.trim());
      assert.equal(first, 'POST /messages');
      assert.deepEqual(errors, []);
    } finally {
      await site.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const scriptPage = (script, body) => `<!doctype html><link rel="icon" href="data:,"><script type="module" src="CDN/${script}"></script>${body}`;
const definedOf = (page, tags) => page.evaluate((list) => list.filter((t) => customElements.get(t)), tags);

test('one script tag from another origin loads each element the first time it appears; chart code only for a chart', async () => {
  const cdn = await serve(resolve('dist'));
  const pages = {
    '/table': scriptPage('ops-console.js', '<ops-endpoint-table api-base="CDN/api/v1"></ops-endpoint-table>'),
    '/overview': scriptPage('ops-console.js', '<ops-console api-base="CDN/api/v1"><div><ops-overview></ops-overview></div></ops-console>'),
    '/later': scriptPage('ops-console.js', '<main></main>'),
    // The script's own URL differs from the one the chunks import (a version query, a CDN's redirect from a version range).
    '/query': scriptPage('ops-console.js?v=2', '<ops-endpoint-table api-base="CDN/api/v1"></ops-endpoint-table>'),
  };
  for (const key of Object.keys(pages)) pages[key] = pages[key].replaceAll('CDN', cdn.origin);
  const host = await serve(mkdtempSync(join(tmpdir(), 'host-')), pages);
  try {
    assert.notEqual(new URL(host.origin).port, new URL(cdn.origin).port);
    const table = await open(browser, `${host.origin}/table`);
    await until(table.page, rowsRendered, 'ops-endpoint-table');
    assert.deepEqual(
      await definedOf(table.page, [...NINE, 'ops-console']),
      ['ops-endpoint-table', 'ops-console'],
      'only the table (and the wrapper, in the core)',
    );
    assert.deepEqual(
      table.requests
        .filter((u) => u.startsWith(cdn.origin) && !u.includes('/api/'))
        .map((u) => u.slice(cdn.origin.length).replace(/-[A-Z0-9]{8}\.js$/, '.js'))
        .sort(),
      ['/chunks/core.js', '/chunks/ops-endpoint-table.js', '/chunks/validation.js', '/ops-console.js'],
      'a table-only page fetches the core (behind its one-line stub), the table and the validation, one file each, and no chart code',
    );
    assert.deepEqual(table.errors, []);

    const query = await open(browser, `${host.origin}/query`);
    await until(query.page, rowsRendered, 'ops-endpoint-table');
    assert.deepEqual(await query.page.evaluate(() => window.litHtmlVersions.length), 1, 'the core (and Lit in it) runs once');
    assert.deepEqual(query.errors, []);

    // Nested in the wrapper, below another element: the overview, and the elements it shows, load and read the wrapper's api-base.
    const overview = await open(browser, `${host.origin}/overview`);
    await until(overview.page, () => document.querySelector('ops-overview')?.shadowRoot?.querySelector('.shares-panel ops-chart')?.chart);
    assert.deepEqual(await definedOf(overview.page, NINE), ['ops-overview', 'ops-endpoint-table', 'ops-activity-feed']);
    const chartChunks = overview.requests.filter((u) => u.includes('echarts-chunk'));
    assert.equal(chartChunks.length, 1);
    assert.ok(chartChunks[0].startsWith(`${cdn.origin}/chunks/`), 'fetched from beside the bundle');
    assert.deepEqual(overview.errors, []);

    // Added after the page loaded: in the document, and in a host's own open shadow root it hands to observe().
    const later = await open(browser, `${host.origin}/later`);
    await until(later.page, () => customElements.get('ops-console'));
    await later.page.evaluate((base) => {
      document.querySelector('main').innerHTML =
        `<section><ops-customer customer-id="cus_acme" api-base="${base}/api/v1"></ops-customer><ops-unknown-thing></ops-unknown-thing></section>`;
    }, cdn.origin);
    await until(later.page, () => document.querySelector('ops-customer')?.shadowRoot?.querySelector('.facts'));
    await later.page.evaluate(async (base) => {
      const { observe } = await import(`${base}/ops-console.js`);
      const root = document.querySelector('main').attachShadow({ mode: 'open' });
      observe(root);
      root.innerHTML = `<ops-activity-feed api-base="${base}/api/v1"></ops-activity-feed>`;
    }, cdn.origin);
    await until(later.page, () => document.querySelector('main').shadowRoot.querySelector('ops-activity-feed')?.shadowRoot?.querySelector('[part="item"]'));
    // The customer page shows the customer's keys, traffic and latest requests: the key list, the traffic panel and the request log come with it.
    assert.deepEqual(await definedOf(later.page, NINE), ['ops-request-log', 'ops-traffic', 'ops-customer', 'ops-key-list', 'ops-activity-feed']);
    assert.deepEqual(later.errors, [], 'an unknown ops- tag is left alone');
  } finally {
    await host.close();
    await cdn.close();
  }
});

test('the published modules import each other as .js files (a .ts specifier would not resolve in a host’s bundler)', () => {
  const modules = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? modules(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
    );
  const offending = modules('dist/src').filter((file) => /(?:from\s*|import\s*\(\s*)['"]\.{1,2}\/[^'"]*\.ts['"]/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(offending, []);
});

test('the script-tag files name each other only by content hash, so a cached old file never pairs with a new one', () => {
  const chunks = readdirSync('dist/chunks').filter((f) => f.endsWith('.js'));
  const references = chunks.flatMap((file) =>
    // Not a string "from" (the time range's attribute, a decorated field's name): only the keyword.
    [...readFileSync(join('dist/chunks', file), 'utf8').matchAll(/(?<!["'\w$.])(?:from|import\(?)\s*"([^"]+)"/g)].map((m) => `${file} → ${m[1]}`),
  );
  assert.ok(references.length > chunks.length, 'the element files import the core');
  assert.deepEqual(
    references.filter((ref) => !/ → \.\/[a-z-]+-[A-Z0-9]{8}\.js$/.test(ref)),
    [],
    'every import is a hashed file beside it',
  );
  assert.match(readFileSync('dist/ops-console.js', 'utf8'), /^export \* from "\.\/chunks\/core-[A-Z0-9]{8}\.js";\n$/);
});

test('the eager script tag defines every element at once', async () => {
  const cdn = await serve(resolve('dist'));
  const host = await serve(mkdtempSync(join(tmpdir(), 'host-')), {
    '/': scriptPage('ops-console.all.js', '<ops-endpoint-table api-base="CDN/api/v1"></ops-endpoint-table>').replaceAll('CDN', cdn.origin),
  });
  try {
    const { page, requests, errors } = await open(browser, `${host.origin}/`);
    await until(page, rowsRendered, 'ops-endpoint-table');
    assert.deepEqual(await definedOf(page, NINE), NINE);
    assert.deepEqual(
      requests.filter((u) => u.startsWith(cdn.origin) && !u.includes('/api/')),
      [`${cdn.origin}/ops-console.all.js`],
      'one request for the elements',
    );
    assert.deepEqual(errors, []);
  } finally {
    await host.close();
    await cdn.close();
  }
});
