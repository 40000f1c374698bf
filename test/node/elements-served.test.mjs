// The console server serves the elements itself: a portal on another origin loads them from
// /elements/ops-console.js and shows the server's figures. The stub is revalidated, the hashed
// files are cached for good, every file may be fetched by module scripts of any origin, and
// nothing outside the built files is served.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { createConsoleServer, serve as serveConsole } from '../../server/src/index.ts';
import { firstOverviewFigure, launch, open, serve, until } from './browser.mjs';

const DIST = resolve('dist');
let portal;
const pages = {};
let consoleServer;
let http;
let browser;

before(async () => {
  portal = await serve(resolve('test/node'), pages);
  consoleServer = await createConsoleServer({
    store: ':memory:',
    auth: { tokens: { 'portal-token': { accountId: 'acct_p', user: { id: 'u_1', name: 'Ana Silva' } } } },
    ingestKeys: { 'portal-ingest': 'acct_p' },
    corsOrigins: [portal.origin],
    elements: { dir: DIST },
  });
  http = await serveConsole(consoleServer, { port: 0 });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await http?.close();
  await consoleServer?.close();
  await portal?.close();
});

test('/elements/ops-console.js and its hashed chunks: CORS for any origin, the stub revalidated, chunks immutable', async () => {
  const stub = await fetch(`${http.url}/elements/ops-console.js`, { headers: { origin: 'https://elsewhere.example' } });
  assert.equal(stub.status, 200);
  assert.match(stub.headers.get('content-type'), /^text\/javascript/);
  assert.equal(stub.headers.get('access-control-allow-origin'), '*');
  assert.equal(stub.headers.get('cache-control'), 'no-cache');
  const text = await stub.text();
  assert.equal(text, readFileSync(resolve(DIST, 'ops-console.js'), 'utf8'));
  const core = /from "\.\/(chunks\/[^"]+\.js)"/.exec(text)?.[1];
  assert.ok(core, `the stub names the core: ${text}`);
  const chunk = await fetch(`${http.url}/elements/${core}`);
  assert.equal(chunk.status, 200);
  assert.equal(chunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(Buffer.from(await chunk.arrayBuffer()).compare(readFileSync(resolve(DIST, core))), 0, 'the built bytes');

  for (const path of [
    '/elements/chunks/ops-nothing-AAAAAAAA.js',
    '/elements/%2e%2e/package.json',
    '/elements/..%2fpackage.json',
    '/elements/../package.json',
  ]) {
    const answer = await fetch(`${http.url}${path}`);
    assert.equal(answer.status, 404, path);
    assert.doesNotMatch(await answer.text(), /"name":\s*"@ops-console\/elements"/, `${path}: nothing outside dist/`);
  }
  const none = await createConsoleServer({ store: ':memory:', elements: false });
  try {
    const off = await none.fetch(new Request('http://console.test/elements/ops-console.js'));
    assert.equal(off.status, 404);
    assert.match((await off.json()).detail, /not installed beside the server/);
  } finally {
    await none.close();
  }
});

test('a portal on another origin loads the elements from the console server and shows its figures', async () => {
  const events = Array.from({ length: 7 }, (_, i) => ({
    ts: new Date(Date.now() - 60_000).toISOString(),
    method: 'GET',
    route: '/v2/things/{id}',
    path: `/v2/things/t${i}`,
    status: 200,
    durationMs: 5,
  }));
  const ingested = await fetch(`${http.url}/ingest/v1/requests`, {
    method: 'POST',
    headers: { authorization: 'Bearer portal-ingest', 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  assert.equal(ingested.status, 202);
  const figure = (await (await fetch(`${http.url}/console/v1/overview`, { headers: { authorization: 'Bearer portal-token' } })).json()).figures
    .requestsThisMonth.value;

  const page = `<!doctype html><meta charset="utf-8"><title>Portal</title><link rel="icon" href="data:,">
    <ops-console routing="hash" api-base="${http.url}/console/v1" locale="en-US"></ops-console>
    <script type="module">
      document.querySelector('ops-console').getToken = async () => 'portal-token';
      await import('${http.url}/elements/ops-console.js');
    </script>`;
  pages['/portal.html'] = page;
  const { page: tab, errors, requests } = await open(browser, `${portal.origin}/portal.html`);
  await until(tab, firstOverviewFigure);
  assert.equal(await tab.evaluate(firstOverviewFigure), figure.toLocaleString('en-US'));
  const scripts = requests.filter((url) => /\.js(\?|$)/.test(url));
  assert.ok(scripts.length > 1, 'the stub, the core and the elements it loads');
  assert.deepEqual(
    scripts.filter((url) => !url.startsWith(`${http.url}/elements/`)),
    [],
    'every script from the console server',
  );
  assert.deepEqual(errors, []);
  await tab.close();
});
