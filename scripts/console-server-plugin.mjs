// A real console server for the browser tests: its own process-local DuckDB, on a loopback
// port of its own, filled through its ingest and admin APIs with the known event set of the
// server's tests; tests ask for its address with executeServerCommand('console-server').
import { createConsoleServer, serve } from '../server/src/index.ts';
import { knownEvents, NOW } from '../server/test/events.ts';

const TOKEN = 'browser-test-token';
const INGEST = 'browser-test-ingest';
const owner = { id: 'u_ana', name: 'Ana Silva' };

async function fill(url) {
  const send = async (path, body, method = 'POST') => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${INGEST}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  await send('/ingest/v1/requests', { events: knownEvents() });
  await send('/admin/v1/customers/cus_acme', { name: 'Acme Ltd', createdAt: '2025-03-02', plan: 'Free', status: 'Active', owner }, 'PUT');
  await send(
    '/admin/v1/webhooks/wh_invoice_paid',
    { name: 'invoice.paid', customer: { id: 'cus_acme', name: 'Acme Ltd' }, owner, endpoints: ['POST /webhooks'] },
    'PUT',
  );
  const deliveries = [true, true, true, false].map((delivered, i) => ({ webhookId: 'wh_invoice_paid', ts: `2026-09-1${i}T10:00:00Z`, delivered }));
  await send('/ingest/v1/webhook-deliveries', { deliveries });
  await send('/admin/v1/activity', { kind: 'key-created', actor: owner, text: 'created a key for Acme Ltd', at: '2026-09-14T09:30:00Z' });
}

export function consoleServerPlugin({ pageOrigins }) {
  let server;
  let http;
  return {
    name: 'console-server',
    async serverStart() {
      server = await createConsoleServer({
        store: ':memory:',
        clock: () => new Date(NOW),
        auth: { tokens: { [TOKEN]: { accountId: 'acct_browser', user: owner } } },
        ingestKeys: { [INGEST]: 'acct_browser' },
        corsOrigins: pageOrigins,
      });
      http = await serve(server, { port: 0, hostname: '127.0.0.1' });
      await fill(http.url);
    },
    async serverStop() {
      await http?.close();
      await server?.close();
    },
    executeCommand({ command }) {
      if (command === 'console-server') return { url: http.url, token: TOKEN };
      return undefined;
    },
  };
}
