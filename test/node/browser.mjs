// Helpers for the Node tests that need a real page: Chromium through puppeteer-core, and
// small HTTP servers on loopback (static files, and the mock console API).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import puppeteer from 'puppeteer-core';
import { respondFromHandlers } from '../../mocks/node.ts';
import { handlersWithScenarios } from '../../mocks/scenarios.ts';

const TYPES = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * Serves `root` (and the mock API under /api/) on 127.0.0.1; `pages` maps paths to HTML and
 * `scripts` to JavaScript; `headers` go on the pages (e.g. a Content-Security-Policy).
 * `mockApi: false` makes it a plain static host, for pages that must bring their own API.
 */
export async function serve(root, pages = {}, headers = {}, scripts = {}, { mockApi = true } = {}) {
  const handlers = handlersWithScenarios();
  const server = createServer(async (req, res) => {
    const origin = `http://${req.headers.host}`;
    const url = new URL(req.url, origin);
    if (mockApi && url.pathname.startsWith('/api/')) {
      if (!(await respondFromHandlers(handlers, req, res, origin))) res.writeHead(404).end();
      return;
    }
    if (pages[url.pathname]) {
      res.writeHead(200, { 'Content-Type': 'text/html', ...headers }).end(pages[url.pathname]);
      return;
    }
    if (scripts[url.pathname]) {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(scripts[url.pathname]);
      return;
    }
    try {
      const file = join(root, normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Access-Control-Allow-Origin': '*' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    server.closeAllConnections(); // the browser keeps connections alive; don't wait for them
    return new Promise((r) => server.close(r));
  };
  return { origin: `http://127.0.0.1:${server.address().port}`, close };
}

export async function launch(extraArgs = []) {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run', ...extraArgs],
  });
}

/** Opens `url`, recording requests and page errors. */
export async function open(browser, url) {
  const page = await browser.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, errors };
}

/** Waits until `fn` (run in the page) returns something truthy. */
export async function until(page, fn, ...args) {
  await page.waitForFunction(fn, { timeout: 20_000, polling: 100 }, ...args);
}

/** In the page: the first figure of the overview inside `<ops-console>`'s app, as shown (run with `page.evaluate`). */
export const firstOverviewFigure = () =>
  document
    .querySelector('ops-console')
    ?.shadowRoot?.querySelector('ops-console-app')
    ?.shadowRoot?.querySelector('ops-overview')
    ?.shadowRoot?.querySelector('[part="figure"] .figure-value')
    ?.textContent.trim();
