// Your API on plain node:http: you say how a request maps to its route template.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeOnSignals, collectHttp, createCollector } from '@ops-console/collect';

const ingestKey = process.env['INGEST_KEY'];
if (!ingestKey) throw new Error('Set INGEST_KEY.');
const collector = createCollector({ sink: { url: process.env['CONSOLE_URL'] ?? 'http://localhost:8787', ingestKey } });

/** The request's path, without its query string (never recorded). */
const pathOf = (request: IncomingMessage) => (request.url ?? '/').split('?')[0]!;

function listener(request: IncomingMessage, response: ServerResponse) {
  const contact = /^\/contacts\/([\w-]+)$/.exec(pathOf(request));
  if (request.method === 'GET' && contact) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: contact[1] }));
  if (request.method === 'POST' && pathOf(request) === '/messages')
    return void response.writeHead(201, { 'content-type': 'application/json' }).end('{"queued":true}');
  response.writeHead(404).end();
}
const routeTemplateOf = (request: IncomingMessage) => (pathOf(request).startsWith('/contacts/') ? '/contacts/:id' : pathOf(request));

const server = createServer(collectHttp(collector, listener, { route: routeTemplateOf }));
server.listen(Number(process.env['PORT'] ?? 3000), () => console.log(`API on port ${(server.address() as AddressInfo).port}`));
// On SIGTERM or Ctrl+C the collector sends what waits (5 s at most), then the signal ends the process.
closeOnSignals(collector);
