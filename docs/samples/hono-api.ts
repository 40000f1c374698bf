// Your API (Hono on Node here; any runtime works), measured until its body has gone out.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { closeOnSignals, createCollector } from '@ops-console/collect';
import { collectHono } from '@ops-console/collect/hono';

const ingestKey = process.env['INGEST_KEY'];
if (!ingestKey) throw new Error('Set INGEST_KEY.');
const collector = createCollector({ sink: { url: process.env['CONSOLE_URL'] ?? 'http://localhost:8787', ingestKey } });

const app = new Hono();
// Keeps the user-agent header, and hides customer ids in paths before anything is queued.
app.use(collectHono(collector, { headers: ['user-agent'], redact: (r) => ({ ...r, path: r.path.replace(/\/c_\w+/, '/c_…') }) }));
app.get('/contacts/:id', (c) => c.json({ id: c.req.param('id') }));
app.post('/messages', (c) => c.json({ queued: true }, 201));

serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 3000) }, (info) => console.log(`API on port ${info.port}`));
// On SIGTERM or Ctrl+C the collector sends what waits (5 s at most), then the signal ends the process.
closeOnSignals(collector);
