// A host app as an adopting team has it: a fixture copied into a temporary directory, with the
// packed tarballs of the elements and the contract, and the framework's packages, installed by npm.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The version this repository tests with, so npm takes its files from its cache. */
const pinned = (name) => `${name}@${JSON.parse(readFileSync(resolve('node_modules', name, 'package.json'), 'utf8')).version}`;

/** Copies `test/fixtures/<fixture>` to a new directory and installs the tarball and `packages` there; returns the directory. */
export function createHostApp(fixture, packages) {
  const dir = mkdtempSync(join(tmpdir(), `${fixture}-`));
  cpSync(resolve('test/fixtures', fixture), dir, { recursive: true });
  // The elements, and the contract they import (not on the registry: packed beside them).
  const tarballs = execFileSync(process.execPath, [resolve('scripts/pack.mjs'), '--out', dir, '--only', 'contract,elements'], { encoding: 'utf8' })
    .trim()
    .split('\n');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: fixture, private: true, type: 'module' }));
  // Not --prefer-offline: a package list cached earlier may predate a release that another, fetched
  // now, already asks for (tldts 7.6.0 wanting tldts-core ^7.6.0), and npm would find no match.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs, ...packages.map(pinned)], {
    cwd: dir,
    stdio: 'pipe',
  });
  return dir;
}

/** Opens `url` in a new page of `browser`, keeping each API request's Authorization header and every ops-load-error from the first moment. */
export async function openHostPage(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  const apiRequests = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('request', (r) => r.url().includes('/api/') && apiRequests.push({ url: r.url(), authorization: r.headers().authorization }));
  // A panel that started before the app set its properties would say "No console API is configured".
  await page.evaluateOnNewDocument(() => {
    globalThis.loadErrors = [];
    document.addEventListener('ops-load-error', (event) => globalThis.loadErrors.push(event.detail.error.message));
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, apiRequests };
}
