// A real console server for the browser tests: its own process-local DuckDB, on a loopback
// port of its own, filled through its ingest and admin APIs with the known event set of the
// server's tests; tests ask for its address with executeServerCommand('console-server').
// A second one, scaled out on real ClickHouse and PostgreSQL processes, starts when a test first
// asks for it ('scaled-out-server'); 'scaled-out-telemetry' stops and starts its ClickHouse.
import { createConsoleServer, serve } from '../server/src/index.ts';
import { startClickHouse, startDatabases, startPostgres } from '../server/test/databases.ts';
import { knownEvents, NOW } from '../server/test/events.ts';

const TOKEN = 'browser-test-token';
const INGEST = 'browser-test-ingest';
const ADMIN = 'browser-test-admin';
const owner = { id: 'u_ana', name: 'Ana Silva' };

async function fill(url) {
  const send = async (path, body, method = 'POST') => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${path.startsWith('/admin/') ? ADMIN : INGEST}`, 'content-type': 'application/json' },
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

/** A console server on `stores`, serving on a loopback port, filled with the known data. */
async function startFilled(stores, pageOrigins) {
  const server = await createConsoleServer({
    ...stores,
    clock: () => new Date(NOW),
    auth: { tokens: { [TOKEN]: { accountId: 'acct_browser', user: owner } } },
    ingestKeys: { [INGEST]: 'acct_browser' },
    adminKeys: { [ADMIN]: 'acct_browser' },
    corsOrigins: pageOrigins,
  });
  const http = await serve(server, { port: 0, hostname: '127.0.0.1' });
  await fill(http.url);
  return {
    url: http.url,
    async close() {
      await http.close();
      await server.close();
    },
  };
}

/** ClickHouse + PostgreSQL processes and a console server on them. */
async function startScaledOut(pageOrigins) {
  const [clickhouse, postgres] = await startDatabases(startClickHouse(), startPostgres());
  const databases = [clickhouse, postgres];
  const served = await startFilled({ telemetry: clickhouse.url, records: postgres.url }, pageOrigins).catch(async (error) => {
    await Promise.all(databases.map((d) => d.dispose()));
    throw error;
  });
  return {
    url: served.url,
    clickhouse,
    async close() {
      await served.close();
      await Promise.all(databases.map((d) => d.dispose()));
    },
  };
}

export function consoleServerPlugin({ pageOrigins }) {
  let embedded;
  let scaledOut;
  return {
    name: 'console-server',
    async serverStart() {
      embedded = await startFilled({ store: ':memory:' }, pageOrigins);
    },
    async serverStop() {
      await embedded?.close();
      await (await scaledOut?.catch(() => undefined))?.close();
    },
    async executeCommand({ command, payload }) {
      if (command === 'console-server') return { url: embedded.url, token: TOKEN };
      if (command === 'scaled-out-server') {
        // A start that failed is tried again by the next test that asks.
        scaledOut ??= startScaledOut(pageOrigins).catch((error) => {
          scaledOut = undefined;
          throw error;
        });
        return { url: (await scaledOut).url, token: TOKEN };
      }
      if (command === 'scaled-out-telemetry') {
        if (!scaledOut) throw new Error("Ask for 'scaled-out-server' before stopping or starting its ClickHouse.");
        const { clickhouse } = await scaledOut;
        await (payload?.running ? clickhouse.start() : clickhouse.stop());
        return { running: Boolean(payload?.running) };
      }
      return undefined;
    },
  };
}
