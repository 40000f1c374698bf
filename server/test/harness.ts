/**
 * A console server on throwaway stores for each test file, and requests to it as a client sends
 * them. The stores are an in-memory DuckDB, or — when test/with-databases.ts runs the suite —
 * a fresh database on the ClickHouse and PostgreSQL servers it started.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createConsoleServer, openStores, type ConsoleServer, type ConsoleServerOptions, type StoreConfig, type Stores } from '../src/index.ts';
import type { TelemetryConnection } from '../src/store/telemetry/clickhouse/store.ts';
import type { TelemetryStore } from '../src/store/types.ts';
import { readsOf, type Reads } from '../src/domain/reads.ts';

export const TOKENS = {
  'token-a': { accountId: 'acct_a', user: { id: 'u_ana', name: 'Ana Silva' } },
  'token-b': { accountId: 'acct_b', user: { id: 'u_bo', name: 'Bo Chen' } },
};
export const INGEST_KEYS = { 'ingest-a': 'acct_a', 'ingest-b': 'acct_b' };
export const ADMIN_KEYS = { 'admin-a': 'acct_a', 'admin-b': 'acct_b' };

/**
 * Set by test/with-databases.ts: the servers' URLs, each test server gets a database (ClickHouse)
 * and a schema (PostgreSQL) of its own. With OPS_TEST_CHDB (a folder), ClickHouse is chDB's, in
 * this process.
 */
const TELEMETRY = process.env['OPS_TEST_TELEMETRY'];
const RECORDS = process.env['OPS_TEST_RECORDS'];
const CHDB = process.env['OPS_TEST_CHDB'];
const chdbConnection = CHDB ? (await import('chdb/connection')).createChdbConnection : undefined;
// A folder per test process: node --test runs files side by side, and a chDB folder is one process's.
const CHDB_PATH = CHDB && join(CHDB, String(process.pid));
export const storeSetup =
  TELEMETRY && RECORDS
    ? `ClickHouse (${chdbConnection ? 'chDB, in process' : TELEMETRY.includes('cluster=') ? 'two shards' : 'one shard'}) + PostgreSQL`
    : 'DuckDB';

export function freshStoreConfig(): StoreConfig {
  if (!TELEMETRY || !RECORDS) return { store: ':memory:' };
  const name = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  return {
    telemetry: TELEMETRY.replace(/^(clickhouse:\/\/[^/]+\/)\w+/, `$1${name}`),
    records: `${RECORDS}?schema=${name}`,
    // chdb types its connection against @clickhouse/client-common's copy of the client's (same) contract.
    ...(chdbConnection && { telemetryConnection: () => chdbConnection({ path: CHDB_PATH! }) as unknown as ReturnType<TelemetryConnection> }),
  };
}

export const openTestStores = (): Promise<Stores> => openStores(freshStoreConfig());

export async function startServer(options: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  return createConsoleServer({
    ...freshStoreConfig(),
    auth: { tokens: TOKENS },
    ingestKeys: INGEST_KEYS,
    adminKeys: ADMIN_KEYS,
    corsOrigins: ['https://portal.example.com'],
    ...options,
  });
}

export interface Call {
  token?: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls `path` on the server; `body` is sent as JSON unless it is already a string. */
export async function call(server: ConsoleServer, path: string, { token, method, body, headers = {} }: Call = {}) {
  const init: RequestInit = { method: method ?? (body === undefined ? 'GET' : 'POST'), headers: { ...headers } };
  if (token) (init.headers as Record<string, string>)['authorization'] = `Bearer ${token}`;
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await server.fetch(new Request(`http://console.test${path}`, init));
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json: json as any, text };
}

export interface EventInput {
  ts: string;
  method: string;
  route: string;
  path?: string;
  status: number;
  durationMs: number;
  apiVersion?: string;
  keyId?: string;
  customerId?: string;
  actor?: { id: string; name: string };
  bytes?: number;
}

/** A valid request event for ingest, the `i`-th of a batch (minute `i % 10` of 09:0x on 14 Sep 2026). */
export const goodEvent = (i: number) => ({
  ts: `2026-09-14T09:0${i % 10}:00Z`,
  method: 'GET',
  route: '/contacts/{id}',
  path: `/contacts/c_${i}`,
  status: 200,
  durationMs: 12,
});

export async function ingest(server: ConsoleServer, events: EventInput[], key = 'ingest-a') {
  const response = await call(server, '/ingest/v1/requests', { token: key, body: { events: events.map((e) => ({ path: e.route, ...e })) } });
  if (response.status !== 202 || response.json.rejected.length) throw new Error(`ingest: ${response.status} ${response.text}`);
  return response.json;
}

/** The nearest-rank percentile: the smallest value with at least `percent` % of values at or below it. */
export function nearestRank(values: readonly number[], percent: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((percent * sorted.length) / 100) - 1]!;
}

export const nearestRankP95 = (values: readonly number[]) => nearestRank(values, 95);

export const pct1 = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/** `YYYY-MM` of an instant in a time zone, read with Intl (independently of the server's calendar code). */
export function monthOf(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(new Date(iso));
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

/** The figures views read from a telemetry store, asked with the account first (as a test asks several accounts of one store). */
export const figures = (telemetry: TelemetryStore) =>
  new Proxy({} as { [K in keyof Reads]: (accountId: string, ...rest: Parameters<Reads[K]>) => ReturnType<Reads[K]> }, {
    get:
      (_, name: keyof Reads) =>
      (accountId: string, ...rest: unknown[]) =>
        (readsOf(telemetry, accountId)[name] as (...args: unknown[]) => unknown)(...rest),
  });
