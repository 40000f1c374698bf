// Your API (Fastify 5 here), measured by the collector and sent to the console server.
import Fastify from 'fastify';
import { closeOnSignals, collectFastify, createCollector } from '@ops-console/collect';

const ingestKey = process.env['INGEST_KEY'];
if (!ingestKey) throw new Error('Set INGEST_KEY.');
const collector = createCollector({ sink: { url: process.env['CONSOLE_URL'] ?? 'http://localhost:8787', ingestKey } });

const app = Fastify();
// Register before the routes: it applies to the whole app.
await app.register(collectFastify(collector, { apiVersion: { header: 'api-version' } }));
app.get('/contacts/:id', (request) => ({ id: (request.params as { id: string }).id }));
app.post('/messages', async (_request, reply) => reply.code(201).send({ queued: true }));

const address = await app.listen({ port: Number(process.env['PORT'] ?? 3000), host: '127.0.0.1' });
console.log(`API on port ${new URL(address).port}`);
// On SIGTERM or Ctrl+C the collector sends what waits (5 s at most), then the signal ends the process.
closeOnSignals(collector);
