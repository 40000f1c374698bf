/**
 * `npm start`: the main job on the embedded default. The console server on a DuckDB file,
 * 12 months of history and the seed's records put in through the ingest, admin and console
 * APIs (only when the file is new); then live traffic over real HTTP to a sample API measured
 * by the collector, and to a second API that sends OpenTelemetry traces to the receiver; and
 * the demo page, which reads the real console API with the nine elements.
 */
import { serve as serveNode, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createCollector, createConsoleServer } from '../src/index.ts';
import { liveTraffic } from './live.ts';
import { createSampleApi } from './sample-api.ts';
import { DEMO_RECEIVER_SECRET, seed } from './seed.ts';
import { verifyAlertWebhook } from '../../docs/samples/verify-alert-webhook.ts';

const env = process.env;
const port = Number(env['OPS_CONSOLE_PORT'] ?? 8787);
const host = env['OPS_CONSOLE_HOST'] ?? 'localhost';
const token = env['OPS_CONSOLE_DEMO_TOKEN'] ?? 'demo-token';
const ingestKey = env['OPS_CONSOLE_INGEST_KEY'] ?? 'demo-ingest-key';
const adminKey = env['OPS_CONSOLE_ADMIN_KEY'] ?? 'demo-admin-key';
const viewerToken = env['OPS_CONSOLE_VIEWER_TOKEN'] ?? 'demo-viewer-token';
const customerToken = env['OPS_CONSOLE_CUSTOMER_TOKEN'] ?? 'demo-customer-token';
/** How long the customer page's embed sessions last: it asks for a new one when the console API refuses the old. */
const sessionSeconds = Number(env['OPS_CONSOLE_EMBED_SESSION_SECONDS'] ?? 900);
const database = env['OPS_CONSOLE_DB'] ?? resolve('ops-console.duckdb');
const timeZone = env['OPS_CONSOLE_TIME_ZONE'] ?? 'UTC';
const perDay = Number(env['OPS_CONSOLE_BACKFILL_PER_DAY'] ?? 600);
const samplePort = Number(env['OPS_CONSOLE_SAMPLE_PORT'] ?? port + 1);
const reportsPort = Number(env['OPS_CONSOLE_REPORTS_PORT'] ?? port + 2);
const root = resolve(import.meta.dirname, '../..');
const accountId = 'acct_demo';

// The demo's credentials are printed below and written in the docs: anyone who can reach the
// port could read and write the account. Beyond this machine only with keys of your own, or when asked for.
const defaults = [
  token === 'demo-token',
  ingestKey === 'demo-ingest-key',
  adminKey === 'demo-admin-key',
  viewerToken === 'demo-viewer-token',
  customerToken === 'demo-customer-token',
].some(Boolean);
if (defaults && !isLoopback(host) && env['OPS_CONSOLE_ALLOW_DEFAULT_CREDENTIALS'] !== '1') {
  console.error(
    `OPS_CONSOLE_HOST=${host} would serve the demo's published credentials beyond this machine.\n` +
      'Set OPS_CONSOLE_DEMO_TOKEN, OPS_CONSOLE_VIEWER_TOKEN, OPS_CONSOLE_CUSTOMER_TOKEN, OPS_CONSOLE_INGEST_KEY\n' +
      'and OPS_CONSOLE_ADMIN_KEY to secrets of your own,\n' +
      'or OPS_CONSOLE_ALLOW_DEFAULT_CREDENTIALS=1 if that is really what you want.',
  );
  process.exit(1);
}

// With both set, telemetry goes to ClickHouse and records to PostgreSQL instead of the DuckDB file.
const telemetry = env['OPS_CONSOLE_TELEMETRY'];
const records = env['OPS_CONSOLE_RECORDS'];
const server = await createConsoleServer({
  store: database,
  telemetry,
  records,
  timeZone,
  auth: {
    tokens: {
      [token]: { accountId, user: { id: 'u_ana', name: 'Ana Silva' }, role: 'editor' },
      [viewerToken]: { accountId, user: { id: 'u_sam', name: 'Sam Rivera' }, role: 'viewer' },
      // What an embed session gives, as a fixed token to try with curl.
      [customerToken]: { accountId, user: { id: 'cus_acme', name: 'Acme Ltd' }, customerId: 'cus_acme' },
    },
  },
  ingestKeys: { [ingestKey]: accountId },
  adminKeys: { [adminKey]: accountId },
  // The demo's receiver is on this machine, and so may be a check's: loopback URLs are allowed here.
  alerts: { evaluateEverySeconds: Number(env['OPS_CONSOLE_ALERTS_EVERY_SECONDS'] ?? 60), allowPrivateUrls: true, consoleUrl: `http://${host}:${port}/#` },
});

const origin = `http://${host}:${port}`;
const app = new Hono<{ Bindings: HttpBindings }>();
/** The console server, told each request's address: failed authentication is counted by it. */
const toServer = (c: Context<{ Bindings: HttpBindings }>) => server.fetch(c.req.raw, { remoteAddress: c.env.incoming.socket.remoteAddress });
/** Whether the request came from this machine: the demo's own routes hand out credentials. */
const fromThisMachine = (c: Context<{ Bindings: HttpBindings }>) => isLoopback(c.env.incoming.socket.remoteAddress ?? '');
const onlyHere = (c: Context<{ Bindings: HttpBindings }>) =>
  c.json({ title: 'Forbidden', status: 403, detail: 'The demo hands out its credentials only to this machine.' }, 403);
app.all('/console/*', toServer);
app.all('/ingest/*', toServer);
app.all('/admin/*', toServer);
app.post('/v1/traces', toServer);
app.get('/', serveStatic({ path: 'server/demo/index.html', root }));
app.get('/customer.html', serveStatic({ path: 'server/demo/customer.html', root }));
// The demo page's token source: a real portal hands out its own session's token the same way.
app.get('/demo/token', (c) => (fromThisMachine(c) ? c.json({ token }, 200, { 'cache-control': 'no-store' }) : onlyHere(c)));
// The customer page's: the portal's backend, with its admin key, mints an embed session for the
// customer signed in (here always Acme Ltd) and hands the page only that short-lived token.
// The alerts' webhook receiver: it checks each delivery's signature and keeps the last 100 to look at.
const received: { at: string; signature: 'valid' | 'invalid'; body: unknown }[] = [];
app.post('/demo/alert-receiver', async (c) => {
  const body = await c.req.text();
  // As the docs' sample checks a delivery: in constant time, and refused when older than 5 minutes.
  const valid = verifyAlertWebhook(DEMO_RECEIVER_SECRET, c.req.header('ops-console-signature'), body);
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Kept as text: a receiver shows what it got.
  }
  received.unshift({ at: new Date().toISOString(), signature: valid ? 'valid' : 'invalid', body: parsed });
  received.length = Math.min(received.length, 100);
  return c.body(null, valid ? 204 : 401);
});
app.get('/demo/alert-receiver', (c) => c.json({ deliveries: received }, 200, { 'cache-control': 'no-store' }));
app.get('/demo/customer-session', async (c) => {
  if (!fromThisMachine(c)) return onlyHere(c);
  const minted = await server.fetch(
    new Request(`${origin}/admin/v1/embed-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customerId: 'cus_acme', expiresInSeconds: sessionSeconds }),
    }),
  );
  return c.json(await minted.json(), minted.status === 201 ? 200 : 502, { 'cache-control': 'no-store' });
});
app.get('/demo/demo.css', serveStatic({ path: 'demo/demo.css', root }));
app.get('/ops-console.js', serveStatic({ path: 'dist/ops-console.js', root }));
app.get('/chunks/*', serveStatic({ root: `${root}/dist` }));

const http = serveNode({ fetch: app.fetch, port, hostname: host });
const api = { origin, ingestKey, adminKey, token };

const seeded = await seed(api, { perDay });

// The sample API, measured by the collector, which sends to the ingest API like any remote host.
const collector = createCollector({ sink: { url: origin, ingestKey }, flushIntervalMs: 500 });
const sample = createSampleApi(collector);
const sampleHttp = serveNode({ fetch: sample.app.fetch, port: samplePort, hostname: '127.0.0.1' });
const sampleOrigin = `http://127.0.0.1:${samplePort}`;

// The reports API, in its own process with the OpenTelemetry SDK, exporting to /v1/traces.
const reports = spawn(process.execPath, ['--import', resolve(import.meta.dirname, 'otel.ts'), resolve(import.meta.dirname, 'reports-api.ts')], {
  env: {
    ...env,
    REPORTS_PORT: String(reportsPort),
    OTEL_SERVICE_NAME: 'reports-api',
    OTEL_EXPORTER_OTLP_ENDPOINT: origin,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${ingestKey}`,
    OTEL_BSP_SCHEDULE_DELAY: '500',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Traffic starts once it listens (or has failed to start: the sample API's traffic goes on regardless).
await new Promise<void>((ready) => {
  reports.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('reports API on') && ready());
  reports.once('exit', () => ready());
  setTimeout(ready, 10_000).unref();
});
const stopTraffic = liveTraffic({ sample: { origin: sampleOrigin, api: sample }, reports: { origin: `http://127.0.0.1:${reportsPort}` } });

console.log(`
Ops Console — the console server on ${telemetry && records ? `${telemetry} + ${records}` : database}${seeded ? ` (seeded: ${seeded.events.toLocaleString('en-US')} events over 12 months)` : ''}
  Demo page     ${origin}/
  Customer page ${origin}/customer.html   (Acme Ltd's own console, on embed sessions)
  Console API   ${origin}/console/v1   (Authorization: Bearer ${token}: an editor;
                ${viewerToken}: a viewer; ${customerToken}: Acme Ltd's usage only)
  Ingest API    ${origin}/ingest/v1/requests   (Authorization: Bearer ${ingestKey})
  OTLP traces   ${origin}/v1/traces   (the same key)
  Admin API     ${origin}/admin/v1/…   (Authorization: Bearer ${adminKey})
  Alerts        ${origin}/demo/alert-receiver   (what the demo's webhook channel received; rules and SLOs at /console/v1/alert-rules, /slos)
  Embed session curl -X POST -H 'Authorization: Bearer ${adminKey}' -H 'content-type: application/json' \\
                  -d '{"customerId":"cus_acme","expiresInSeconds":900}' ${origin}/admin/v1/embed-sessions
  Sample API    ${sampleOrigin}/v2/…, /v3/…   (measured by the collector)
  Reports API   http://127.0.0.1:${reportsPort}/v3/reports   (sends OpenTelemetry traces)
  Try           curl -H 'Authorization: Bearer ${token}' ${origin}/console/v1/overview
Live traffic calls both APIs every second. Ctrl+C stops.`);

const stop = async () => {
  stopTraffic();
  reports.kill('SIGTERM');
  sampleHttp.close();
  await collector.close();
  http.close();
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(name);
}
