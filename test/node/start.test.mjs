// The main job, as `npm start` runs it (on a throwaway DuckDB file and port, with a small
// backfill): the server fills itself over its own APIs, the demo page is the whole console
// (every element on its own address) with the server's figures, and the live traffic changes them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, open, until } from './browser.mjs';
import { ELEMENTS } from '../../src/elements/registry.ts';
import { ELEMENT_TAGS } from './tags.mjs';

const dir = mkdtempSync(join(tmpdir(), 'ops-console-start-'));
const port = 18787;
const origin = `http://localhost:${port}`;
let child;
let browser;

before(async () => {
  child = spawn(process.execPath, ['server/demo/main.ts'], {
    env: {
      ...process.env,
      OPS_CONSOLE_DB: join(dir, 'demo.duckdb'),
      OPS_CONSOLE_PORT: String(port),
      OPS_CONSOLE_BACKFILL_PER_DAY: '40',
      // The customer page's sessions expire while the test reads it: it must ask for new ones.
      OPS_CONSOLE_EMBED_SESSION_SECONDS: '2',
      // The live spike (30 s after the traffic starts) must fire the demo's rule while the test runs.
      OPS_CONSOLE_ALERTS_EVERY_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  for await (const chunk of child.stdout) {
    printed += chunk;
    if (printed.includes('Ctrl+C stops')) break;
  }
  assert.match(printed, /Console API\s+http:\/\/localhost:18787\/console\/v1/);
  assert.match(printed, /Bearer demo-token/);
  assert.match(printed, /Bearer demo-ingest-key/);
  assert.match(printed, /Customer page http:\/\/localhost:18787\/customer\.html/);
  assert.match(printed, /demo-viewer-token: a viewer; demo-customer-token: Acme Ltd's usage only/);
  assert.match(printed, /Admin API\s+http:\/\/localhost:18787\/admin\/v1\/… +\(Authorization: Bearer demo-admin-key\)/);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  child?.kill('SIGTERM');
  if (child) await once(child, 'exit');
  rmSync(dir, { recursive: true, force: true });
});

const overview = async () => (await fetch(`${origin}/console/v1/overview`, { headers: { authorization: 'Bearer demo-token' } })).json();

const api = async (path) => (await fetch(`${origin}/console/v1${path}`, { headers: { authorization: 'Bearer demo-token' } })).json();

/**
 * The view the routed console shows, once its first part holds the server's data (run in the
 * page). Given `[tag, loaded]`, also its registry sample's selector, or null for an element with
 * no data of its own (as `npm run create` makes one), loaded once it renders anything.
 */
function viewLoaded(view) {
  const [tag, loaded] = Array.isArray(view) ? view : [view, undefined];
  const el = document.querySelector('ops-console')?.shadowRoot?.querySelector('ops-console-app')?.shadowRoot?.querySelector(`.view > ${tag}`);
  const root = el?.shadowRoot;
  if (!root || root.querySelector('[part="error"]')) return false;
  // The request log's rows are virtualized: off screen it renders none, so ask it what it holds.
  if (tag === 'ops-request-log') return el.entries().length > 0;
  // A fresh demo may have raised no alert yet: its empty state is the page, loaded.
  if (tag === 'ops-alerts') return Boolean(root.querySelector('tbody tr, [part="empty"]'));
  if (root.querySelector('[part="figure"], [part="row"], [part="item"], [part="metric"], .facts, form, tbody tr')) return true;
  return loaded === null ? Boolean(root.querySelector('*')) : Boolean(loaded && root.querySelector(loaded));
}

test('npm start serves the demo: the whole console, each view on its own address with the server’s figures', async () => {
  const before = (await overview()).figures.requestsThisMonth.value;
  const [endpoint] = (await api('/endpoints?limit=1')).items;
  const [request] = (await api('/requests?limit=1')).items;
  const [error] = (await api('/errors?limit=1')).items;
  const acme = await api('/customers/cus_acme');
  const [slo] = (await api('/slos')).items;
  // Each page of the registry (src/elements/registry.ts), a record's page at a record the server
  // has; and for these records the trail that names it.
  const ids = {
    endpoints: endpoint.id,
    requests: request.id,
    errors: error.id,
    customers: 'cus_acme',
    keys: 'key_initech_3',
    webhooks: 'wh_invoice_paid',
    slos: slo.id,
  };
  const trails = {
    'ops-endpoint-detail': `Endpoints / ${endpoint.method} ${endpoint.path}`,
    'ops-request-detail': `Requests / ${request.method} ${request.path}`,
    'ops-customer': `Customers / ${acme.name}`,
    'ops-key': 'API keys / Contractor',
    'ops-webhook': 'Webhooks / invoice.paid',
    'ops-error': `Errors / ${error.code} ${error.title}`,
    'ops-slo': `Alerts / ${slo.name}`,
  };
  const views = ELEMENTS.filter((e) => e.view).map((e) => {
    const hash = `#${e.view.path.replace(/^\/([^/]+)\/:id$/, (_, kind) => `/${kind}/${ids[kind] ?? 'unknown'}`)}`;
    return [hash, e.tag, trails[e.tag], e.sample?.loaded ?? null];
  });
  assert.ok(views.length >= 20 && Object.keys(trails).every((tag) => views.some(([, shown]) => shown === tag)), 'every trail is of a page');
  // The time range control is no view: it sits in the navigation of every view.
  assert.deepEqual(new Set([...views.map(([, tag]) => tag), 'ops-time-range']), new Set(ELEMENT_TAGS), 'every element has its view');
  const { page, errors } = await open(browser, `${origin}/`);
  await until(page, viewLoaded, 'ops-overview');
  const shown = await page.evaluate(() =>
    document
      .querySelector('ops-console')
      .shadowRoot.querySelector('ops-console-app')
      .shadowRoot.querySelector('ops-overview')
      .shadowRoot.querySelector('[part="figure"] .figure-value')
      .textContent.trim(),
  );
  const afterwards = (await overview()).figures.requestsThisMonth.value;
  // Live traffic keeps arriving: the page shows the server's figure from some moment in between.
  const value = Number(shown.replace(/,/g, ''));
  assert.ok(before <= value && value <= afterwards, `${shown} between ${before} and ${afterwards}`);
  for (const [hash, tag, trail, loaded] of views) {
    await page.evaluate((to) => (location.hash = to), hash);
    await until(page, viewLoaded, [tag, loaded]);
    if (!trail) continue;
    const shown = await page.evaluate(
      (name) =>
        document
          .querySelector('ops-console')
          .shadowRoot.querySelector('ops-console-app')
          .shadowRoot.querySelector(name)
          .shadowRoot.querySelector('[part="breadcrumb"]')
          .textContent.replace(/\s+/g, ' ')
          .trim(),
      tag,
    );
    assert.equal(shown, trail, hash);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('in the demo a person clicks from the overview to an endpoint, a request, a customer and an error record, and back with the browser', async () => {
  const { page, errors } = await open(browser, `${origin}/`);
  /** Clicks the first link matching `selector` inside the view's `path` of shadow hosts; returns its href. */
  const click = (path, selector) =>
    page.waitForFunction(
      (hosts, sel) => {
        let root = document.querySelector('ops-console')?.shadowRoot?.querySelector('ops-console-app')?.shadowRoot;
        for (const host of hosts) root = root?.querySelector(host)?.shadowRoot;
        // A virtualized list draws rows only where it can be seen, as a person would scroll to it.
        root?.host.scrollIntoView();
        const link = root?.querySelector(sel);
        if (!link) return false;
        link.click();
        return link.getAttribute('href');
      },
      { timeout: 20_000, polling: 200 },
      path,
      selector,
    );
  const endpointHref = await (await click(['ops-overview', 'ops-endpoint-table'], 'tbody tr a.row-link')).jsonValue();
  await until(page, viewLoaded, 'ops-endpoint-detail');
  assert.equal(await page.evaluate(() => location.hash), endpointHref);
  // A request with a customer to go on to (now and then the live traffic sends a revoked key, which names none).
  const shownRequests = await (
    await page.waitForFunction(
      () => {
        const app = document.querySelector('ops-console')?.shadowRoot?.querySelector('ops-console-app')?.shadowRoot;
        const log = app?.querySelector('ops-endpoint-detail')?.shadowRoot?.querySelector('ops-request-log');
        log?.scrollIntoView();
        const hrefs = [...(log?.shadowRoot?.querySelectorAll('[part="row"] a.row-link') ?? [])].map((a) => a.getAttribute('href'));
        return hrefs.length ? hrefs : false;
      },
      { timeout: 20_000, polling: 200 },
    )
  ).jsonValue();
  let withCustomer;
  for (const href of shownRequests) if (!withCustomer && (await api(`/requests/${href.split('/')[2]}`)).customer) withCustomer = href;
  assert.ok(withCustomer, 'a shown request names its customer');
  const requestHref = await (await click(['ops-endpoint-detail', 'ops-request-log'], `[part="row"] a.row-link[href="${withCustomer}"]`)).jsonValue();
  await until(page, viewLoaded, 'ops-request-detail');
  assert.equal(await page.evaluate(() => location.hash), requestHref);
  const customerHref = await (await click(['ops-request-detail'], '.fact a[href^="#/customers/"]')).jsonValue();
  await until(page, viewLoaded, 'ops-customer');
  assert.equal(await page.evaluate(() => location.hash), customerHref);
  // On to the errors, and a record among them: the navigation, then the record's drill-down.
  await (await click([], 'nav a[href^="#/errors"]')).jsonValue();
  await until(page, viewLoaded, 'ops-error-list');
  const errorHref = await (await click(['ops-error-list'], 'tbody tr a[href^="#/errors/"]')).jsonValue();
  await until(page, viewLoaded, 'ops-error');
  assert.equal(await page.evaluate(() => location.hash), errorHref);
  const record = await api(`/errors/${errorHref.split('/')[2]}`);
  const trail = await page.evaluate(() =>
    document
      .querySelector('ops-console')
      .shadowRoot.querySelector('ops-console-app')
      .shadowRoot.querySelector('ops-error')
      .shadowRoot.querySelector('[part="breadcrumb"]')
      .textContent.replace(/\s+/g, ' ')
      .trim(),
  );
  assert.equal(trail, `Errors / ${record.code} ${record.title}`);
  for (const [href, tag] of [
    ['#/errors', 'ops-error-list'],
    [customerHref, 'ops-customer'],
    [requestHref, 'ops-request-detail'],
    [endpointHref, 'ops-endpoint-detail'],
    ['', 'ops-overview'],
  ]) {
    await page.goBack();
    await until(page, viewLoaded, tag);
    assert.equal(await page.evaluate(() => location.hash), href);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('in the demo a person changes the range once, and the overview, traffic, endpoints and requests all follow it with the server’s figures', async () => {
  const { page, errors } = await open(browser, `${origin}/`);
  await until(page, viewLoaded, 'ops-overview');
  const inApp = (script, ...args) => page.evaluate(script, ...args);
  // The person picks "Last 24 hours" in the navigation.
  const before = (await api('/overview?range=24h')).figures.requests.value;
  await inApp(() => {
    const select = document
      .querySelector('ops-console')
      .shadowRoot.querySelector('ops-console-app')
      .shadowRoot.querySelector('ops-time-range')
      .shadowRoot.querySelector('select');
    select.value = '24h';
    select.dispatchEvent(new Event('change'));
  });
  await page.waitForFunction(() => location.hash === '#/?range=24h', { timeout: 10_000 });
  const figure = await page.waitForFunction(
    () => {
      const root = document.querySelector('ops-console').shadowRoot.querySelector('ops-console-app').shadowRoot.querySelector('ops-overview')?.shadowRoot;
      const card = root?.querySelector('[part="figure"]');
      if (card?.querySelector('.figure-label')?.textContent.trim() !== 'Requests') return false;
      return { value: card.querySelector('.figure-value').textContent.trim(), versus: card.querySelector('.versus').textContent.trim() };
    },
    { timeout: 20_000, polling: 200 },
  );
  const shown = await figure.jsonValue();
  const after = (await api('/overview?range=24h')).figures.requests.value;
  const value = Number(shown.value.replace(/,/g, ''));
  assert.ok(before <= value && value <= after, `${shown.value} between ${before} and ${after}`);
  assert.equal(shown.versus, 'vs previous 24 h');
  // Every section keeps the range: traffic, the endpoints and the request log.
  for (const [section, tag] of [
    ['traffic', 'ops-traffic'],
    ['endpoints', 'ops-endpoint-table'],
    ['requests', 'ops-request-log'],
  ]) {
    await inApp(
      (name) => document.querySelector('ops-console').shadowRoot.querySelector('ops-console-app').shadowRoot.querySelector(`nav a[href^="#/${name}"]`).click(),
      section,
    );
    await until(page, viewLoaded, tag);
    assert.equal(await inApp(() => location.hash), `#/${section}?range=24h`);
  }
  const window = (await api('/traffic?range=24h')).window;
  const times = await inApp(() =>
    document
      .querySelector('ops-console')
      .shadowRoot.querySelector('ops-console-app')
      .shadowRoot.querySelector('ops-request-log')
      .entries()
      .map((entry) => entry.time),
  );
  assert.ok(times.length > 0);
  for (const time of times) assert.ok(Date.parse(time) >= Date.parse(window.from), `${time} is in the last 24 hours`);
  await page.goBack();
  await until(page, viewLoaded, 'ops-endpoint-table');
  await page.goBack();
  await until(page, viewLoaded, 'ops-traffic');
  const label = await page.waitForFunction(
    () =>
      document
        .querySelector('ops-console')
        .shadowRoot.querySelector('ops-console-app')
        .shadowRoot.querySelector('ops-traffic')
        ?.shadowRoot.querySelector('[data-metric="requests"] .versus')
        ?.textContent.trim(),
    { timeout: 20_000, polling: 200 },
  );
  assert.equal(await label.jsonValue(), 'vs previous 24 h', 'back on traffic, still the 24 hours');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the live traffic changes the figures', async () => {
  const first = (await overview()).figures.requestsToday.value;
  const start = Date.now();
  let now = first;
  while (now === first && Date.now() - start < 30_000) {
    await new Promise((r) => setTimeout(r, 500));
    now = (await overview()).figures.requestsToday.value;
  }
  assert.ok(now > first, 'requests today grew while the generator ran');
});

test('the demo deprecates DELETE /contacts, and its versions view names the two customers still calling it from real traffic', async () => {
  const { versions, deprecations } = await api('/versions');
  assert.deepEqual(
    versions
      .filter((v) => v.requests)
      .map((v) => v.version)
      .sort(),
    ['v2', 'v3'],
  );
  assert.ok(versions.find((v) => v.version === 'v3').publishedAt, 'v3’s documentation was published');
  const [contacts] = deprecations;
  assert.equal(contacts.endpoint, 'DELETE /contacts');
  assert.equal(contacts.daysToSunset, 30);
  assert.ok(contacts.requests > 0);
  assert.deepEqual(contacts.customers.map((c) => c.name).sort(), ['Acme Ltd', 'Initech']);
  const feed = await api('/activity?limit=50');
  assert.ok(feed.items.some((i) => i.text === 'deprecated the endpoint DELETE /contacts, to be turned off on ' + contacts.sunsetAt.slice(0, 10)));
  assert.ok(feed.items.some((i) => i.text === 'published documentation for version 3'));
});

test('the demo registers a dozen keys: one revoked and still called, idle ones, and one only the traffic names', async () => {
  const { items } = await api('/keys?sort=name&limit=100');
  const byId = Object.fromEntries(items.map((k) => [k.id, k]));
  assert.equal(items.filter((k) => k.status !== 'Unregistered').length, 12);
  assert.equal(byId['key_initech_3'].status, 'Revoked');
  assert.deepEqual(
    ['key_acme_old', 'key_initech_test'].map((id) => [byId[id].status, byId[id].lastUsedAt]),
    [
      ['Idle', null],
      ['Idle', null],
    ],
  );
  assert.equal(byId['key_umbrella_2'].status, 'Unregistered');
  assert.equal(byId['key_acme_1'].status, 'Active');
  // The revoked key keeps being called: its page counts and flags what came after.
  const revoked = await api('/keys/key_initech_3');
  assert.ok(revoked.afterRevocation.requests > 0, 'called after its revocation');
  const feed = await api('/activity?kind=key-created&limit=50');
  assert.equal(feed.items.length, 12);
  assert.equal(feed.items[0].actor.name, 'Globex Corp', 'Globex made the newest key');
});

test('the demo holds each customer to a rate limit, and the feed says Acme’s was raised', async () => {
  const acme = await api('/customers/cus_acme');
  assert.equal(acme.rateLimit.requestsPerMinute, 1200);
  assert.ok(acme.rateLimit.peakPerMinute > 0 && acme.rateLimit.peakAt);
  assert.equal(typeof acme.throttled, 'number');
  const feed = await api('/activity?kind=rate-limit-raised');
  assert.deepEqual(
    feed.items.map((i) => [i.actor.name, i.text]),
    [['Lee Park', 'raised the rate limit for Acme Ltd']],
  );
});

test('live requests are measured for real: by the collector in the sample API, and by the OpenTelemetry SDK in the reports API', async () => {
  // Shorter than a card number: 13 digits or more may pass the Luhn check (one in ten do), and the masker hides those in paths.
  const unique = String(Date.now() % 1e12);
  const sample = await fetch(`http://127.0.0.1:${port + 1}/v3/contacts-${unique}`, { headers: { authorization: 'Bearer key_acme_1' } });
  await sample.body?.cancel();
  const reports = await fetch(`http://127.0.0.1:${port + 2}/v3/reports/r_${unique}`, { headers: { authorization: 'Bearer key_globex_1' } });
  assert.equal(reports.status, 404, 'the reports API answers (report ids from 450 are unknown)');
  await reports.body?.cancel();
  const found = {};
  const start = Date.now();
  // Found by a word of their paths: the live traffic (some 15 calls a second) soon pushes them past any page of the newest.
  while ((!found.sample || !found.reports) && Date.now() - start < 45_000) {
    await new Promise((r) => setTimeout(r, 500));
    const { items } = await api(`/requests?q=${unique}`);
    found.sample ??= items.find((i) => i.path === `/v3/contacts-${unique}`);
    found.reports ??= items.find((i) => i.path === `/v3/reports/r_${unique}`);
  }
  assert.deepEqual(
    [found.sample?.method, found.sample?.status, found.sample?.actor?.name],
    ['GET', 404, 'Acme Ltd'],
    'the collector recorded the sample API’s 404 with its caller',
  );
  assert.deepEqual([found.reports?.method, found.reports?.status], ['GET', 404], 'the trace of the reports API’s 404 arrived through /v1/traces');
  const detail = await (await fetch(`${origin}/console/v1/requests?limit=200`, { headers: { authorization: 'Bearer demo-token' } })).json();
  assert.ok(
    detail.items.some((i) => /^\/v[23]\/(messages|contacts|webhooks|auth\/token|usage)$/.test(i.path) && i.durationMs > 0),
    'the generator’s calls to the seed’s routes are in the log',
  );
});

test('headers and bodies: ingested, masked, read by an editor and by Acme, found with q, erased with the admin key; the sample API captures its own', async () => {
  const unique = `ord_${Date.now().toString(36)}`;
  const event = {
    ts: new Date().toISOString(),
    method: 'POST',
    route: '/v3/orders',
    path: '/v3/orders',
    status: 502,
    durationMs: 31,
    customerId: 'cus_acme',
    headers: { authorization: 'Bearer sk_live_start_1', 'content-type': 'application/json' },
    responseHeaders: { 'set-cookie': 'sid=start_cookie_2' },
    requestBody: { contentType: 'application/json', size: 90, text: JSON.stringify({ orderId: unique, password: 'pw_start_3', card: '4242 4242 4242 4242' }) },
    responseBody: { contentType: 'application/json', size: 30, text: JSON.stringify({ error: 'upstream_timeout' }) },
  };
  const sent = await fetch(`${origin}/ingest/v1/requests`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-ingest-key', 'content-type': 'application/json' },
    body: JSON.stringify({ events: [event] }),
  });
  assert.equal((await sent.json()).accepted, 1);
  const read = async (token, path) => (await fetch(`${origin}/console/v1${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const [found] = (await read('demo-token', `/requests?q=${unique}`)).items;
  assert.equal(found?.path, '/v3/orders', 'q finds the request by a word of its body');
  for (const token of ['demo-token', 'demo-customer-token']) {
    const detail = await read(token, `/requests/${found.id}`);
    assert.equal(detail.payload, 'kept', token);
    assert.deepEqual(JSON.parse(detail.requestBody.text), { orderId: unique, password: '[masked]', card: '[masked]' });
    const text = JSON.stringify(detail);
    for (const secret of ['sk_live_start_1', 'start_cookie_2', 'pw_start_3', '4242 4242']) assert.ok(!text.includes(secret), `${secret} shown to ${token}`);
  }
  const erased = await fetch(`${origin}/admin/v1/customers/cus_acme/payloads`, { method: 'DELETE', headers: { authorization: 'Bearer demo-admin-key' } });
  assert.equal(erased.status, 200);
  assert.ok((await erased.json()).erased >= 1);
  assert.equal((await read('demo-token', `/requests/${found.id}`)).payload, 'removed');
  // The sample API's own collector captures bodies too, masked before they leave it.
  let captured;
  for (const start = Date.now(); !captured && Date.now() - start < 45_000;) {
    await new Promise((r) => setTimeout(r, 500));
    const { items } = await read('demo-token', '/requests?limit=100&q=client_secret');
    for (const item of items) {
      const detail = await read('demo-token', `/requests/${item.id}`);
      if (detail.requestBody?.text?.includes('client_secret')) captured = detail;
    }
  }
  assert.ok(captured, 'a captured /auth/token body');
  assert.equal(JSON.parse(captured.requestBody.text).client_secret, '[masked]');
});

test('npm start refuses to serve its published credentials beyond this machine unless asked to', async () => {
  const run = (env) => {
    const demo = spawn(process.execPath, ['server/demo/main.ts'], {
      env: { ...process.env, OPS_CONSOLE_DB: join(dir, 'refused.duckdb'), OPS_CONSOLE_PORT: String(port + 10), OPS_CONSOLE_HOST: '0.0.0.0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    demo.stderr.on('data', (chunk) => (said += chunk));
    return once(demo, 'exit').then(([code]) => ({ code, said }));
  };
  const refused = await run({});
  assert.equal(refused.code, 1);
  assert.match(refused.said, /published credentials beyond this machine/);
  assert.match(refused.said, /OPS_CONSOLE_ALLOW_DEFAULT_CREDENTIALS=1/);
});

test('served beyond this machine, the demo hands its token and customer sessions only to this machine', async (t) => {
  // An address of this machine's that is not loopback: a request to it comes from it, as another host's would.
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!outside) return t.skip('this machine has no address but loopback');
  const demo = spawn(process.execPath, ['server/demo/main.ts'], {
    env: {
      ...process.env,
      OPS_CONSOLE_DB: join(dir, 'outside.duckdb'),
      OPS_CONSOLE_PORT: String(port + 20),
      OPS_CONSOLE_HOST: '0.0.0.0',
      OPS_CONSOLE_ALLOW_DEFAULT_CREDENTIALS: '1',
      OPS_CONSOLE_BACKFILL_PER_DAY: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let printed = '';
    for await (const chunk of demo.stdout) {
      printed += chunk;
      if (printed.includes('Ctrl+C stops')) break;
    }
    const status = async (host, path) => (await fetch(`http://${host}:${port + 20}${path}`)).status;
    assert.deepEqual([await status(outside, '/demo/token'), await status(outside, '/demo/customer-session')], [403, 403]);
    assert.deepEqual([await status('127.0.0.1', '/demo/token'), await status('127.0.0.1', '/demo/customer-session')], [200, 200]);
  } finally {
    demo.kill('SIGTERM');
    await once(demo, 'exit');
  }
});

test('the demo page’s token comes from the server (the page hard-codes none, so OPS_CONSOLE_DEMO_TOKEN reaches it)', async () => {
  const token = await (await fetch(`${origin}/demo/token`)).json();
  assert.deepEqual(token, { token: 'demo-token' });
});

/** Everything a person could read or follow on the page, through every shadow root (run in the page). */
function everythingShown() {
  let text = '';
  const hrefs = [];
  const tags = new Set();
  const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) text += `${child.textContent} `;
      else if (child.nodeType === Node.ELEMENT_NODE) {
        tags.add(child.localName);
        if (child.localName === 'a' && child.getAttribute('href')) hrefs.push(child.getAttribute('href'));
        walk(child);
      }
    }
  };
  walk(document.body);
  return { text: text.replace(/\s+/g, ' '), hrefs, tags: [...tags] };
}

test('the customer page is Acme Ltd’s own console: its figures, none of another customer’s, no operator’s controls, and new sessions as they expire', async () => {
  const asAcme = async (path) => (await fetch(`${origin}/console/v1${path}`, { headers: { authorization: 'Bearer demo-customer-token' } })).json();
  const others = (await api('/customers?limit=100')).items.map((c) => c.name).filter((name) => name !== 'Acme Ltd');
  assert.ok(others.length >= 3, 'the demo has other customers');
  const before = (await asAcme('/overview')).figures.requestsThisMonth.value;
  assert.ok(before < (await overview()).figures.requestsThisMonth.value, 'Acme’s requests are some of the account’s');

  const { page, errors } = await open(browser, `${origin}/customer.html`);
  await until(page, viewLoaded, 'ops-overview');
  const [greeting, shown] = await page.evaluate(() => {
    const overview = document.querySelector('ops-console').shadowRoot.querySelector('ops-console-app').shadowRoot.querySelector('ops-overview').shadowRoot;
    return [overview.querySelector('[part="greeting"]').textContent.trim(), overview.querySelector('[part="figure"]').textContent.replace(/\s+/g, ' ').trim()];
  });
  assert.match(greeting, /, Acme Ltd$/);
  assert.match(shown, /^Your requests this month [\d,]+/);
  const value = Number(/[\d,]+/.exec(shown.replace('Your requests this month', ''))[0].replace(/,/g, ''));
  const afterwards = (await asAcme('/overview')).figures.requestsThisMonth.value;
  assert.ok(before <= value && value <= afterwards, `${value} between ${before} and ${afterwards}`);

  const sections = await page.evaluate(() =>
    [...document.querySelector('ops-console').shadowRoot.querySelector('ops-console-app').shadowRoot.querySelectorAll('nav a')].map((a) =>
      a.textContent.trim(),
    ),
  );
  assert.deepEqual(sections, ['Overview', 'Endpoints', 'Requests', 'Traffic', 'Keys', 'Webhooks']);

  const [key] = (await asAcme('/keys?limit=1')).items;
  const [request] = (await asAcme('/requests?limit=1')).items;
  const views = [
    ['#/', 'ops-overview'],
    ['#/endpoints', 'ops-endpoint-table'],
    ['#/requests', 'ops-request-log'],
    [`#/requests/${request.id}`, 'ops-request-detail'],
    ['#/traffic', 'ops-traffic'],
    ['#/keys', 'ops-key-list'],
    [`#/keys/${key.id}`, 'ops-key'],
    ['#/webhooks', 'ops-webhook-list'],
    ['#/webhooks/wh_invoice_paid', 'ops-webhook'],
  ];
  for (const [hash, tag] of views) {
    await page.evaluate((to) => (location.hash = to), hash);
    await until(page, viewLoaded, tag);
    const { text, hrefs, tags } = await page.evaluate(everythingShown);
    for (const name of others) assert.ok(!text.includes(name), `${hash} shows ${name}`);
    for (const operatorOnly of ['Account owner', 'Latest activity', 'Top customers', 'Error records', 'Add note'])
      assert.ok(!text.includes(operatorOnly), `${hash} shows “${operatorOnly}”`);
    assert.deepEqual(
      hrefs.filter((href) => /^#\/(customers|errors|activity|versions)/.test(href)),
      [],
      `${hash} links to an operator’s page`,
    );
    for (const operatorTag of ['ops-activity-feed', 'ops-error-list', 'ops-error-form', 'ops-customer', 'textarea'])
      assert.ok(!tags.includes(operatorTag), `${hash} holds <${operatorTag}>`);
  }
  // The operators' pages are not in a customer's console, even by address.
  await page.evaluate(() => (location.hash = '#/customers'));
  await page.waitForFunction(
    () =>
      document
        .querySelector('ops-console')
        .shadowRoot.querySelector('ops-console-app')
        .shadowRoot.querySelector('.not-found')
        ?.textContent.includes('There is no such page in this console.'),
    { timeout: 10_000 },
  );

  // Sessions last 2 seconds here: after a pause the next view needs a new one, and gets it.
  const minted = await page.evaluate(() => window.sessionsMinted);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 2500)));
  await page.evaluate(() => (location.hash = '#/traffic'));
  await until(page, viewLoaded, 'ops-traffic');
  assert.ok((await page.evaluate(() => window.sessionsMinted)) > minted, 'getToken was asked again after the session expired');
  // The browser logs each refusal of an expired session; nothing else may go wrong.
  assert.deepEqual(
    errors.filter((error) => !/status of 401 \(Unauthorized\)/.test(error)),
    [],
  );
  await page.close();
});

test('the demo watches POST /webhooks and the API’s availability, and a channel a check creates reaches the demo’s receiver', async () => {
  const rules = await api('/alert-rules');
  assert.deepEqual(
    rules.items.map((r) => [r.name, r.metric, r.threshold, r.window]),
    [['POST /webhooks failing', 'errorRate', 15, '2m']],
  );
  const [slo] = (await api('/slos')).items;
  assert.deepEqual([slo.name, slo.objective, slo.targetPct, slo.period], ['API available', 'availability', 99.5, '28d']);
  assert.ok(slo.requests > 0, 'the SLO counts the backfilled requests');

  // What a person (or a check) does: a webhook channel on this machine, a rule on an endpoint's error rate, a test.
  const post = (path, body) =>
    fetch(`${origin}/console/v1${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(body),
    });
  const channel = await post('/alert-channels', { kind: 'webhook', name: 'Check', url: `${origin}/demo/alert-receiver`, secret: 'demo-receiver-secret-0123' });
  assert.equal(channel.status, 201);
  const { id } = await channel.json();
  const [endpoint] = (await api('/endpoints?limit=1')).items;
  const rule = await post('/alert-rules', {
    name: 'Check',
    metric: 'errorRate',
    scope: { endpointId: endpoint.id },
    threshold: 50,
    window: '5m',
    for: '0m',
    channelIds: [id],
  });
  assert.equal(rule.status, 201);
  const test = await post(`/alert-channels/${id}/test`, {});
  assert.equal((await test.json()).status, 'delivered');
  const { deliveries } = await (await fetch(`${origin}/demo/alert-receiver`)).json();
  assert.deepEqual([deliveries[0].signature, deliveries[0].body.status], ['valid', 'test']);
});

test('the live traffic’s spike of failing webhooks fires the demo’s rule, and its receiver gets it signed', async () => {
  // The spike starts 30 s into the live traffic; evaluation runs every 2 s. Waits for the event, not for a time.
  let fired;
  while (!fired) {
    const { deliveries } = await (await fetch(`${origin}/demo/alert-receiver`)).json();
    fired = deliveries.find((d) => d.body.rule?.name === 'POST /webhooks failing' && d.body.status === 'firing');
    if (!fired) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  assert.equal(fired.signature, 'valid');
  assert.ok(fired.body.value > 15, `the firing value ${fired.body.value} is over the threshold`);
  // The outcome is added to the alert once the receiver has answered: wait for it too.
  let alert;
  while (!alert?.notifications.length) {
    alert = (await api('/alerts?limit=100')).items.find((a) => a.id === fired.body.alert.id);
    assert.ok(alert, 'the alert the receiver got is in the console’s history');
    if (!alert.notifications.length) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual([alert.ruleName, alert.notifications[0].status], ['POST /webhooks failing', 'delivered']);
});
