// The documentation's code samples (docs/samples/), run as a reader would run them: the console
// server and an Express API in their own processes, real requests, SIGTERM, an embed session, the
// alert webhook check against the server's own signature, and the config file through the CLI's
// checks. The type check runs in `npm run typecheck` (docs/samples/tsconfig.json).
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { signatureOf } from '../src/alerts/notify.ts';
import { embedSession } from '../../docs/samples/embed-session.ts';
import { verifyAlertWebhook } from '../../docs/samples/verify-alert-webhook.ts';

const SAMPLES = new URL('../../docs/samples/', import.meta.url).pathname;
const env = { CONSOLE_TOKEN: 'change-me-console-token', INGEST_KEY: 'sample-ingest-key', ADMIN_KEY: 'sample-admin-key' };

/** Starts a sample and waits for the line that says where it listens. */
async function start(file: string, extra: Record<string, string>, listening: RegExp) {
  const child = spawn(process.execPath, [join(SAMPLES, file)], { env: { ...process.env, ...env, PORT: '0', ...extra } });
  let printed = '';
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  for await (const chunk of child.stdout) {
    printed += String(chunk);
    const found = listening.exec(printed);
    if (found) return { child, found };
  }
  throw new Error(`${file} ended before it listened: ${printed}`);
}

/** How the process ended: its exit code, or the signal that ended it. */
const ended = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode ?? child.signalCode)
      : child.once('exit', (code, signal) => resolve(code ?? signal)),
  );

interface Row {
  method: string;
  path: string;
  status: number;
  requests: number;
}

let consoleServer: ChildProcessWithoutNullStreams;
let consoleUrl: string;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-samples-'));
  // In a folder that does not exist yet, as `duckdb:./data/ops.duckdb` is in a new directory.
  const started = await start(
    'console-server.ts',
    { OPS_CONSOLE_STORE: `duckdb:${join(dir, 'data', 'console.duckdb')}` },
    /Console API (http:\/\/\S+)\/console\/v1/,
  );
  consoleServer = started.child;
  consoleUrl = started.found[1]!;
});

after(() => {
  if (consoleServer.exitCode === null) consoleServer.kill('SIGKILL');
});

const consoleApi = async (path: string, token = env.CONSOLE_TOKEN) => {
  const response = await fetch(`${consoleUrl}/console/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, json: (await response.json()) as { items?: Row[] } };
};

/** Requests per `METHOD route` in the console's endpoints table, over its rows of each API version. */
async function endpointCounts() {
  const counts: Record<string, number> = {};
  for (const row of (await consoleApi('/endpoints?limit=100')).json.items ?? [])
    counts[`${row.method} ${row.path}`] = (counts[`${row.method} ${row.path}`] ?? 0) + row.requests;
  return counts;
}

const collectorSamples = [
  { file: 'express-api.ts', contact: '/contacts/c_1' },
  { file: 'fastify-api.ts', contact: '/contacts/c_1' },
  // Its redact hook hides customer ids in paths before anything is queued.
  { file: 'hono-api.ts', contact: '/contacts/c_…' },
  { file: 'node-http-api.ts', contact: '/contacts/c_1' },
];

for (const { file, contact } of collectorSamples)
  test(`${file}: its requests reach the console server sample, under their route templates, and SIGTERM sends what waits`, async () => {
    const before = await endpointCounts();
    const since = new Date().toISOString();
    const api = await start(file, { CONSOLE_URL: consoleUrl }, /API on port (\d+)/);
    const base = `http://127.0.0.1:${api.found[1]}`;
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/contacts/c_1`, { headers: { 'x-key-id': 'key_1' } })).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await fetch(`${base}/messages`, { method: 'POST' })).status, 201);
    if (file === 'express-api.ts') {
      const portal = await (await fetch(`${base}/`)).text();
      assert.match(portal, /<ops-console routing="hash" api-base="http:\/\/localhost:8787\/console\/v1">/, 'the API serves the portal page');
    }
    api.child.kill('SIGTERM');
    // closeOnSignals sends what waits, then lets the signal end the process as it would have.
    assert.equal(await ended(api.child), 'SIGTERM');
    // Sent before the API exited; the console lists them once its write is done.
    let logged: Row[] = [];
    while (logged.length < 5) {
      logged = (await consoleApi(`/requests?limit=50&since=${since}`)).json.items ?? [];
      if (logged.length < 5) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(logged.map((r) => `${r.method} ${r.path} ${r.status}`).sort(), [
      `GET ${contact} 200`,
      `GET ${contact} 200`,
      `GET ${contact} 200`,
      'POST /messages 201',
      'POST /messages 201',
    ]);
    const after = await endpointCounts();
    const added = (key: string) => (after[key] ?? 0) - (before[key] ?? 0);
    assert.deepEqual([added('GET /contacts/:id'), added('POST /messages')], [3, 2], 'grouped by route template');
  });

test('the embed-session sample mints a customer token the console API takes', async () => {
  // The customer exists in the console first (your back office keeps them in step).
  const customer = await fetch(`${consoleUrl}/admin/v1/customers/cus_sample`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${env.ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Sample Ltd', createdAt: '2026-09-01', plan: 'Free', status: 'Active', owner: { id: 'u_ops', name: 'Operations' } }),
  });
  assert.equal(customer.status, 201, await customer.text());
  const session = await embedSession(consoleUrl, env.ADMIN_KEY, 'cus_sample');
  assert.equal(session.customerId, 'cus_sample');
  assert.equal((await consoleApi('/overview', session.token)).status, 200);
  assert.equal((await consoleApi('/customers', session.token)).status, 403, 'a customer’s token reads only its own console');
  await assert.rejects(embedSession(consoleUrl, 'not-an-admin-key', 'cus_sample'), /refused the session: 401/);
});

test('the webhook check accepts what the server signs, and refuses a changed body, another secret or an old delivery', () => {
  const body = JSON.stringify({ status: 'firing', rule: { name: 'POST /webhooks failing' } });
  const now = Math.floor(Date.now() / 1000);
  const header = signatureOf('whsec_0123456789abcdef', now, body);
  assert.equal(verifyAlertWebhook('whsec_0123456789abcdef', header, body), true);
  assert.equal(verifyAlertWebhook('whsec_0123456789abcdef', header, body.replace('firing', 'resolved')), false);
  assert.equal(verifyAlertWebhook('whsec_another-secret-0', header, body), false);
  assert.equal(verifyAlertWebhook('whsec_0123456789abcdef', header, body, now + 3600), false);
  assert.equal(verifyAlertWebhook('whsec_0123456789abcdef', undefined, body), false);
});

test('the sample configuration passes the CLI’s checks', () => {
  const config = loadConfig(join(SAMPLES, 'ops-console.json'), {});
  assert.equal(config.port, 8787);
  assert.deepEqual(Object.values(config.ingestKeys ?? {}), ['acct_1']);
  assert.ok(readFileSync(join(SAMPLES, 'ops-console.json'), 'utf8').includes('replace-with'), 'no real credential in the docs');
});

test('every configuration example in the docs’ pages passes the CLI’s checks', () => {
  const pages = ['../../docs/server-cli.md', '../../docs/server/deploy.md'].map((page) => readFileSync(new URL(page, import.meta.url), 'utf8'));
  const examples = pages.flatMap((page) => [...page.matchAll(/```json\n([\s\S]*?)```/g)].map(([, json]) => json!));
  assert.ok(examples.length >= 2);
  const dir = mkdtempSync(join(tmpdir(), 'ops-config-'));
  for (const [i, example] of examples.entries()) {
    const file = join(dir, `example-${i}.json`);
    writeFileSync(file, example);
    assert.doesNotThrow(() => loadConfig(file, {}), example);
  }
});

test('the console server sample stops on SIGTERM with status 0', async () => {
  consoleServer.kill('SIGTERM');
  assert.equal(await ended(consoleServer), 0);
});
