// The console server in your own Node process: DuckDB in a file, one operator token, one ingest key.
import { createConsoleServer, serve } from '@ops-console/server';

/** A credential from the environment; an unset one stops here instead of becoming "undefined". */
function secret(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}.`);
  return value;
}

const server = await createConsoleServer({
  store: process.env['OPS_CONSOLE_STORE'] ?? 'duckdb:./ops-console.duckdb',
  auth: { tokens: { [secret('CONSOLE_TOKEN')]: { accountId: 'acct_1', user: { id: 'u_ops', name: 'Operations' } } } },
  ingestKeys: { [secret('INGEST_KEY')]: 'acct_1' },
  adminKeys: { [secret('ADMIN_KEY')]: 'acct_1' },
  corsOrigins: ['http://localhost:3000'],
});
const http = await serve(server, { port: Number(process.env['PORT'] ?? 8787) });
console.log(`Console API ${http.url}/console/v1`);

// SIGTERM (docker stop, systemd) or Ctrl+C: finish the requests under way, close the store, exit 0.
async function stop() {
  await http.close({ timeoutMs: 10_000 });
  await server.idle();
  await server.close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
