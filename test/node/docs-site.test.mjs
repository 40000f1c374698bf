// The documentation site builds (`npm run docs:build`: VitePress fails on a link to a missing
// page), and every link inside it leads somewhere: each internal page exists and each #anchor is
// an id on that page. The generated reference pages say what the manifest, the OpenAPI document,
// the config schema and the bench JSON say, and the element reference's live examples draw on the
// mock API in the built site, served as static files alone.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { createServer } from 'node:http';
import { extname } from 'node:path';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { launch, open, until } from './browser.mjs';

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
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  const files = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    try {
      const file = join(DIST, posix.normalize(path).replace(/^(\.\.\/)+/, ''));
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => files.listen(0, '127.0.0.1', resolve));
  const browser = await launch();
  after(async () => {
    await browser.close();
    files.closeAllConnections();
    await new Promise((resolve) => files.close(resolve));
  });
  const { page, errors } = await open(browser, `http://127.0.0.1:${files.address().port}/reference/elements.html`);
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
