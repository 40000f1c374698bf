/**
 * The ingest side of the collector bench, in its own process (its work must not share a loop
 * with the load generator). `console <file>`: a real console server on a DuckDB file.
 * `elsewhere`: an endpoint that reads each batch and answers 202 — a console server on another
 * machine, whose CPU this one does not pay for. Prints its URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConsoleServer, serve } from '../src/index.ts';

if (process.argv[2] === 'console') {
  const server = await createConsoleServer({ store: process.argv[3]!, ingestKeys: { 'bench-ingest': 'acct_bench' } });
  const http = await serve(server, { port: 0 });
  console.log(http.url);
  process.on(
    'SIGTERM',
    () =>
      void http
        .close()
        .then(() => server.close())
        .then(() => process.exit(0)),
  );
} else {
  const server = createServer((request, response) => {
    request.resume().once('end', () => response.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":0,"rejected":[]}'));
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => process.exit(0));
}
