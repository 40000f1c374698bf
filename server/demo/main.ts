/**
 * `npm start`: the main job on the embedded default. The console server on a DuckDB file,
 * 12 months of history and the seed's records put in through the ingest, admin and console
 * APIs (only when the file is new), live traffic every second through the ingest API, and the
 * demo page, which reads the real console API with the nine elements.
 */
import { serve as serveNode } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { resolve } from 'node:path';
import { createConsoleServer } from '../src/index.ts';
import { liveTraffic, seed } from './seed.ts';

const env = process.env;
const port = Number(env['OPS_CONSOLE_PORT'] ?? 8787);
const host = env['OPS_CONSOLE_HOST'] ?? 'localhost';
const token = env['OPS_CONSOLE_DEMO_TOKEN'] ?? 'demo-token';
const ingestKey = env['OPS_CONSOLE_INGEST_KEY'] ?? 'demo-ingest-key';
const database = env['OPS_CONSOLE_DB'] ?? resolve('ops-console.duckdb');
const timeZone = env['OPS_CONSOLE_TIME_ZONE'] ?? 'UTC';
const perDay = Number(env['OPS_CONSOLE_BACKFILL_PER_DAY'] ?? 600);
const root = resolve(import.meta.dirname, '../..');
const accountId = 'acct_demo';

const server = await createConsoleServer({
  store: database,
  timeZone,
  auth: { tokens: { [token]: { accountId, user: { id: 'u_ana', name: 'Ana Silva' } } } },
  ingestKeys: { [ingestKey]: accountId },
});

const app = new Hono();
app.all('/console/*', (c) => server.fetch(c.req.raw));
app.all('/ingest/*', (c) => server.fetch(c.req.raw));
app.all('/admin/*', (c) => server.fetch(c.req.raw));
app.get('/', serveStatic({ path: 'server/demo/index.html', root }));
app.get('/demo/demo.css', serveStatic({ path: 'demo/demo.css', root }));
app.get('/ops-console.js', serveStatic({ path: 'dist/ops-console.js', root }));
app.get('/chunks/*', serveStatic({ root: `${root}/dist` }));

const http = serveNode({ fetch: app.fetch, port, hostname: host });
const origin = `http://${host}:${port}`;
const api = { origin, ingestKey, token };

const seeded = await seed(api, { perDay });
const stopTraffic = liveTraffic(api);

console.log(`
Ops Console — the console server on ${database}${seeded ? ` (seeded: ${seeded.events.toLocaleString('en-US')} events over 12 months)` : ''}
  Demo page     ${origin}/
  Console API   ${origin}/console/v1   (Authorization: Bearer ${token})
  Ingest API    ${origin}/ingest/v1/requests   (Authorization: Bearer ${ingestKey})
  Try           curl -H 'Authorization: Bearer ${token}' ${origin}/console/v1/overview
Live traffic is ingested every second. Ctrl+C stops.`);

const stop = async () => {
  stopTraffic();
  http.close();
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
