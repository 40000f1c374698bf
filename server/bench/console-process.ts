/**
 * The ingest side of the collector bench, in its own process (its work must not share a loop
 * with the load generator). `console <file>`: a real console server on a DuckDB file, taking
 * the collector's batches at /ingest/v1/requests and OpenTelemetry's spans at /v1/traces.
 * `slow <ms>`: a console server that is overloaded — it reads each batch and answers 202 only
 * after `ms`. Prints its URL.
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
  const delayMs = Number(process.argv[3]);
  const server = createServer((request, response) => {
    request.resume().once('end', () => {
      setTimeout(() => response.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":0,"rejected":[]}'), delayMs);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => process.exit(0));
}
