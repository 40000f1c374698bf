// The documentation site builds (`npm run docs:build`: VitePress fails on a link to a missing
// page), and every link inside it leads somewhere: each internal page exists and each #anchor is
// an id on that page. The generated reference pages say what the manifest, the OpenAPI document,
// the config schema and the bench JSON say, and the element reference's live examples draw on the
// mock API in the built site, served as static files alone.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, open, serve, until } from './browser.mjs';

const DIST = 'docs/.vitepress/dist';
const pages = new Map();

before(() => {
  execFileSync('npm', ['run', 'docs:build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html')) pages.set('/' + posix.relative(DIST, path.split('\\').join('/')), readFileSync(path, 'utf8'));
    }
  };
  walk(DIST);
});

/** The page a site path names (`/server/alerts`, `/embedding/`), with clean URLs as VitePress builds them. */
function pageOf(path) {
  for (const candidate of [path, `${path}.html`, `${path.replace(/\/$/, '')}/index.html`, `${path}index.html`]) if (pages.has(candidate)) return candidate;
  return undefined;
}

test('every internal link of the built site leads to a page, and every anchor to an id on it', () => {
  const broken = [];
  for (const [page, html] of pages) {
    // The search index and the 404 page have no links of their own to check.
    for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
      if (/^(https?:|mailto:)/.test(href)) continue;
      const [pathPart, anchor] = href.split('#');
      const target = pathPart ? pageOf(posix.resolve(posix.dirname(page), pathPart)) : page;
      if (!target) {
        if (!existsSync(join(DIST, pathPart))) broken.push(`${page}: ${href} (no page)`);
        continue;
      }
      if (anchor && !pages.get(target).includes(`id="${decodeURIComponent(anchor)}"`)) broken.push(`${page}: ${href} (no #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the reference pages are generated from the manifest, the OpenAPI document, the config schema and the bench JSON', () => {
  const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
  const tags = manifest.modules.flatMap((m) => m.declarations.filter((d) => d.customElement && d.tagName).map((d) => d.tagName));
  const elements = pages.get(pageOf('/reference/elements'));
  for (const tag of tags) assert.ok(elements.includes(`id="${tag}"`), `${tag} has its section`);
  const slo = manifest.modules.flatMap((m) => m.declarations).find((d) => d.tagName === 'ops-slo');
  assert.ok(elements.includes(slo.attributes.find((a) => a.name === 'slo-id').description), 'an attribute’s JSDoc is shown');

  const openapi = JSON.parse(readFileSync('openapi.json', 'utf8'));
  const operations = pages.get(pageOf('/reference/operations'));
  const count = Object.values(openapi.paths).reduce((sum, ops) => sum + Object.keys(ops).length, 0);
  assert.equal([...operations.matchAll(/<h2 id=/g)].length, count, 'one section per operation');

  const config = pages.get(pageOf('/reference/config'));
  for (const field of ['alerts.smtp.host', 'shutdownTimeoutMs', 'OPS_CONSOLE_ALERTS_EVERY_SECONDS']) assert.ok(config.includes(field), field);

  const bench = pages.get(pageOf('/reference/bench'));
  const run = JSON.parse(readFileSync('docs/bench/server-alerts-clickhouse-10m-2026-11-27.json', 'utf8'));
  const row = run.rows.find((r) => r.figure.startsWith('alert evaluation'));
  assert.ok(bench.includes(row.value), 'the alert bench’s figure is rendered from its JSON');
});

test('the README is short, its links lead to pages of the site, and its code is the samples’ code', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.ok(readme.split('\n').length <= 150, 'the README fits on a few screens');
  for (const [, target] of readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^https?:/.test(target)) continue;
    assert.ok(existsSync(target), `${target} exists`);
    if (target.startsWith('docs/') && target.endsWith('.md'))
      assert.ok(pageOf(`/${target.slice('docs/'.length, -'.md'.length)}`), `${target} is a page of the site`);
  }
  const samples = readdirSync('docs/samples')
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) =>
      readFileSync(join('docs/samples', f), 'utf8')
        .split('\n')
        .map((line) => line.trim()),
    );
  for (const [, block] of readme.matchAll(/```ts\n([\s\S]*?)```/g))
    for (const line of block.split('\n').map((l) => l.trim()))
      if (line && !line.startsWith('//')) assert.ok(samples.includes(line), `a sample runs this line: ${line}`);
});

test('the element reference draws its live examples on the mock API, from static files alone', async () => {
  // A static host: files only, no API. The examples' answers come from MSW's service worker.
  const files = await serve(DIST, {}, {}, {}, { mockApi: false });
  const browser = await launch();
  after(async () => {
    await browser.close();
    await files.close();
  });
  const { page, errors } = await open(browser, `${files.origin}/reference/elements.html`);
  const shown = (tag) => document.querySelector(`.live-example ${tag}`)?.shadowRoot?.textContent.replace(/\s+/g, ' ') ?? '';
  await until(page, (tag) => /API available/.test(document.querySelector(`.live-example ${tag}`)?.shadowRoot?.textContent ?? ''), 'ops-slo');
  await until(page, (tag) => /POST \/webhooks/.test(document.querySelector(`.live-example ${tag}`)?.shadowRoot?.textContent ?? ''), 'ops-endpoint-table');
  assert.match(await page.evaluate(shown, 'ops-customer'), /Acme Ltd/);
  const examples = await page.evaluate(() => [...document.querySelectorAll('.live-example')].map((e) => e.dataset.tag));
  const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
  const tags = new Set(manifest.modules.flatMap((m) => m.declarations.filter((d) => d.customElement && d.tagName).map((d) => d.tagName)));
  // ops-console would take over the page's address, and ops-chart reads no API.
  assert.deepEqual(examples.sort(), [...tags].filter((tag) => tag !== 'ops-console' && tag !== 'ops-chart').sort());
  assert.deepEqual(errors, []);
});

test('each whole HTML example of the embedding pages runs: its elements draw from the API with no error', async () => {
  const snippets = readdirSync('docs/embedding')
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => [...readFileSync(join('docs/embedding', f), 'utf8').matchAll(/```html\n([\s\S]*?)```/g)].map(([, html]) => ({ page: f, html })))
    // A fragment (an elided `…`) is an excerpt, not a page.
    .filter(({ html }) => !html.includes('…'));
  assert.ok(snippets.length >= 4, 'the embedding pages show whole examples');
  // Each example as a page of its own, on the built script-tag bundle and the mock API; the token
  // and session URLs the examples fetch answer as a portal's backend would.
  const pagesToServe = Object.fromEntries(
    snippets.map(({ html }, i) => {
      const local = html
        .replaceAll('https://console.example.com/elements/ops-console.js', '/dist/ops-console.js')
        .replaceAll(/(https:\/\/console\.example\.com)?\/console\/v1/g, '/api/v1');
      const script = local.includes('/dist/ops-console.js') ? '' : '<script type="module" src="/dist/ops-console.js"></script>';
      return [`/example-${i}.html`, `<!doctype html><html lang="en"><body>${script}${local}</body></html>`];
    }),
  );
  pagesToServe['/favicon.ico'] = ' ';
  pagesToServe['/session/token'] = 'a-portal-session-token';
  pagesToServe['/my/customer-session'] = JSON.stringify({ token: 'a-customer-session-token' });
  const server = await serve('.', pagesToServe, {}, {});
  const browser = await launch();
  try {
    for (const [i, { page: from }] of snippets.entries()) {
      const { page, errors } = await open(browser, `${server.origin}/example-${i}.html`);
      const tags = await page.evaluate(() => [...document.querySelectorAll('*')].filter((e) => e.localName.startsWith('ops-')).map((e) => e.localName));
      assert.ok(tags.length > 0, `${from} example ${i} has elements`);
      // Every element, the whole console's views inside their shadow roots too, upgraded and past
      // loading (something drawn, no skeleton), and none in its error state.
      const everyElement = () => {
        const found = [];
        const walk = (root) => {
          for (const e of root.querySelectorAll('*')) {
            if (e.localName.startsWith('ops-')) found.push(e);
            if (e.shadowRoot) walk(e.shadowRoot);
          }
        };
        walk(document);
        return found;
      };
      await page.evaluate(`window.everyElement = ${everyElement}`);
      await until(page, () =>
        window
          .everyElement()
          .filter((e) => e.localName !== 'ops-console')
          .every((e) => e.shadowRoot && !e.shadowRoot.querySelector('[aria-busy="true"], .skeleton') && e.shadowRoot.textContent.trim().length > 0),
      );
      const drawn = await page.evaluate(() => window.everyElement().map((e) => e.localName));
      assert.ok(
        drawn.some((tag) => tag !== 'ops-console'),
        `${from} example ${i} draws a panel: ${drawn}`,
      );
      const failed = await page.evaluate(() =>
        window
          .everyElement()
          .filter((e) => e.shadowRoot?.querySelector('[part="error"]'))
          .map((e) => e.localName),
      );
      assert.deepEqual([failed, errors], [[], []], `${from} example ${i}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test('every module the documentation imports is an export of its package', () => {
  const exportsOf = {
    '@ops-console/elements': JSON.parse(readFileSync('package.json', 'utf8')).exports,
    '@ops-console/server': JSON.parse(readFileSync('server/package.json', 'utf8')).exports,
    '@ops-console/contract': JSON.parse(readFileSync('contract/package.json', 'utf8')).exports,
  };
  const files = [
    'README.md',
    ...readdirSync('docs', { recursive: true })
      .filter((f) => f.endsWith('.md') && !f.startsWith('reference'))
      .map((f) => join('docs', f)),
  ];
  const named = new Set();
  for (const file of files)
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/['"`](@ops-console\/(?:elements|server|contract)(?:\/[\w./-]+)?)['"`]/g))
      named.add(specifier);
  assert.ok(named.size > 10);
  const missing = [...named].filter((specifier) => {
    const [scope, name, ...rest] = specifier.split('/');
    const subpath = rest.length ? `./${rest.join('/')}` : '.';
    const exports = exportsOf[`${scope}/${name}`];
    if (Object.hasOwn(exports, subpath)) return false;
    // A pattern with one `*` (`./react/*.js`) exports the files its target names, as built.
    return !Object.entries(exports).some(([key, target]) => {
      const [before, after] = key.split('*');
      if (after === undefined || !subpath.startsWith(before) || !subpath.endsWith(after)) return false;
      const file = (typeof target === 'string' ? target : target.default).replace('*', subpath.slice(before.length, subpath.length - after.length));
      return existsSync(join(name === 'elements' ? '.' : name, file));
    });
  });
  assert.deepEqual(missing, []);
});
