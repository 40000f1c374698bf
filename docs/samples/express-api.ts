// Your API (Express 5 here), measured by the collector and sent to the console server.
import { join } from 'node:path';
import express from 'express';
import { closeOnSignals, collectExpress, createCollector } from '@ops-console/collect';

const ingestKey = process.env['INGEST_KEY'];
if (!ingestKey) throw new Error('Set INGEST_KEY.');
const collector = createCollector({ sink: { url: process.env['CONSOLE_URL'] ?? 'http://localhost:8787', ingestKey } });

const app = express();
// In this quick start the API also serves the portal page that embeds the console (public/index.html).
app.use(express.static(join(import.meta.dirname, 'public')));
// Before the routes: each request is recorded under its route template (/contacts/:id).
app.use(collectExpress(collector, { apiVersion: { fixed: 'v1' }, identify: (req) => ({ keyId: req.get('x-key-id') }) }));
app.get('/contacts/:id', (req, res) => {
  res.json({ id: req.params.id });
});
app.post('/messages', (_req, res) => {
  res.status(201).json({ queued: true });
});

const listener = app.listen(Number(process.env['PORT'] ?? 3000), () => console.log(`API on port ${(listener.address() as { port: number }).port}`));
// On SIGTERM or Ctrl+C the collector sends what waits (5 s at most), then the signal ends the process.
closeOnSignals(collector);
