/**
 * The APIs the collector bench calls, in their own process (so the load generator does not share
 * their event loop): the same small JSON handler served bare, and with the collector sending to
 * a console server elsewhere, to one on this machine, and to one that is down.
 * Prints their ports as one JSON line, then its CPU time whenever a line arrives on stdin.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectHttp, createCollector } from '../src/collect/index.ts';

const [elsewhereUrl, localUrl, deadUrl] = process.argv.slice(2) as [string, string, string];

const api: RequestListener = (request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: request.url?.split('/').pop(), name: 'Contact' }));
};
const route = () => '/contacts/:id';
const listen = (listener: RequestListener) =>
  new Promise<number>((resolve) => {
    const server = createServer(listener);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

const collectors = {
  elsewhere: createCollector({ sink: { url: elsewhereUrl, ingestKey: 'bench-ingest' } }),
  local: createCollector({ sink: { url: localUrl, ingestKey: 'bench-ingest' } }),
  down: createCollector({ sink: { url: deadUrl, ingestKey: 'bench-ingest' } }),
};
const collected = (name: keyof typeof collectors) => listen(collectHttp(collectors[name], api, { route, apiVersion: { fixed: 'v2' } }));
console.log(
  JSON.stringify({
    plain: await listen(api),
    control: await listen(api),
    elsewhere: await collected('elsewhere'),
    local: await collected('local'),
    down: await collected('down'),
  }),
);
// The bench asks for this process's CPU time (user + system, µs) between loads: a line in, a line out.
process.stdin.setEncoding('utf8').on('data', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${user + system}\n`);
});
process.on('SIGTERM', () => process.exit(0));
