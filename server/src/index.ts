/** @ops-console/server: the console API computed from real traffic. */
export { createConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './server.ts';
export { serve, type ServeOptions } from './serve.ts';
export { openDuckDbStores } from './store/duckdb.ts';
export { openClickHouseTelemetry } from './store/telemetry/clickhouse/store.ts';
export { openPostgresRecords } from './store/records/postgres.ts';
export { openStores, type StoreConfig } from './store/open.ts';
export * from './collect.ts';
export type { AuthOptions, Principal } from './auth.ts';
export type * from './store/types.ts';
export { IDEMPOTENCY_TTL_MS } from './store/types.ts';
