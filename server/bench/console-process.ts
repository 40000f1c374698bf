/**
 * The ingest side of the collector bench, in its own process (its work must not share a loop
 * with the load generator). `console <file>`: a real console server on a DuckDB file, taking
 * the collector's batches at /ingest/v1/requests and OpenTelemetry's spans at /v1/traces.
 * `slow <ms>`: a console server that is overloaded — it reads each batch and answers 202 only
 * after `ms`. `fair <file>`: two tenants on one server, for the fairness bench. Prints its URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConsoleServer, serve, type ConsoleServerOptions } from '../src/index.ts';

/** Serves a console server made with `options`, prints its URL, and closes it on SIGTERM. */
async function serveUntilTerminated(options: ConsoleServerOptions): Promise<void> {
  const server = await createConsoleServer(options);
  const http = await serve(server, { port: 0 });
  console.log(http.url);
  process.on(
    'SIGTERM',
    () =>
      void http
        .close({ timeoutMs: 1_000 })
        .then(() => server.close())
        .then(() => process.exit(0)),
  );
}

if (process.argv[2] === 'fair') {
  // Two tenants, A (the attacker) and B, on one server as an operator runs it: defaults but the
  // alert cycle, which runs every second so that A's rules are evaluated while B is measured.
  const tenant = (name: string) => ({ accountId: `acct_${name}`, user: { id: `u_${name}`, name: `Tenant ${name.toUpperCase()}` }, role: 'admin' as const });
  await serveUntilTerminated({
    store: process.argv[3]!,
    auth: { tokens: { 'token-a-0123456789abcdef': tenant('a'), 'token-b-0123456789abcdef': tenant('b') } },
    ingestKeys: { 'ingest-a-0123456789abcdef': 'acct_a', 'ingest-b-0123456789abcdef': 'acct_b' },
    adminKeys: { 'admin-a-0123456789abcdef': 'acct_a', 'admin-b-0123456789abcdef': 'acct_b' },
    alerts: { evaluateEverySeconds: 1 },
    logLevel: 'silent',
  });
} else if (process.argv[2] === 'console') {
  await serveUntilTerminated({ store: process.argv[3]!, ingestKeys: { 'bench-ingest': 'acct_bench' } });
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
