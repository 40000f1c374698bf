/** What a console server is made with, and what it is. */
import type { LevelWithSilent, Logger } from 'pino';
import type { AuthFailureLimits, ConnectionInfo } from './auth-failures.ts';
import type { AlertCaps } from './alerts/caps.ts';
import type { SmtpOptions } from './alerts/notify.ts';
import type { AuthOptions } from './auth.ts';
import type { ElementsOptions } from './elements.ts';
import type { EmbedSessionKey } from './embed-sessions.ts';
import type { FairShareLimits } from './fair-share.ts';
import type { UploadPace } from './ingest-gate.ts';
import type { Thresholds } from './figures.ts';
import type { MetricsOptions } from './metrics.ts';
import type { MaskOptions } from '@ops-console/contract/masking';
import type { OtlpAttributes } from './otlp/spans.ts';
import type { RateLimit } from './rate-limits.ts';
import type { TelemetryConnection } from './store/telemetry/clickhouse/store.ts';
import type { Stores } from './store/types.ts';

export interface ConsoleServerOptions {
  /** A DuckDB file (`duckdb:./ops-console.duckdb`, the default; a bare path or `':memory:'` too), or stores you opened. */
  store?: string | Stores;
  /** Request telemetry on ClickHouse instead of DuckDB: `clickhouse://host:8123[,host:8123…]/database[?cluster=name&retention_months=N]` (with `records`). */
  telemetry?: string;
  /** Records on PostgreSQL instead of DuckDB: `postgres://user@host:5432/database[?schema=name]` (with `telemetry`). */
  records?: string;
  /** How the ClickHouse client reaches each host of `telemetry`, instead of HTTP: chDB's in-process ClickHouse 26.7 (`() => createChdbConnection({ path })` from `chdb/connection`), for one. */
  telemetryConnection?: TelemetryConnection;
  /** How console requests are authenticated (static tokens, JWT, or your own hook). */
  auth?: AuthOptions;
  /**
   * The keys that sign embed sessions (default: one the store makes, `{ id: 'stored' }`). The
   * first signs; each verifies the tokens that name its `id`. To rotate: put a new key first and
   * keep the old one second for an hour (the longest a session lives), then remove it.
   */
  embedSessionKeys?: EmbedSessionKey[];
  /** Ingest keys and the account each writes telemetry to: `{ 'demo-ingest-key': 'acct_demo' }`. */
  ingestKeys?: Record<string, string>;
  /** Admin keys and the account each manages (customers, webhooks, activity): `{ 'demo-admin-key': 'acct_demo' }`. Without them the admin API refuses every request. */
  adminKeys?: Record<string, string>;
  /**
   * Requests per account in a window, counted by each server process: `ingest` (ingest and OTLP;
   * default 1,000 per 10 s) and `console` (the console API; default 300 per 10 s). Beyond it: 429
   * with Retry-After. `false` turns one off.
   */
  rateLimits?: {
    ingest?: RateLimit | false;
    console?: RateLimit | false;
    /** One customer's console (its tokens and embed sessions), within its account's `console` budget (default 100 per 10 s). */
    customer?: RateLimit | false;
    /** The admin API, per account (default 300 per 10 s). */
    admin?: RateLimit | false;
    /** Embed sessions minted per account (default 60 a minute). */
    embedSessions?: RateLimit | false;
    /** Test notifications per account (default 5 a minute). */
    channelTests?: RateLimit | false;
  };
  /** Console reads run at once: in all, per account and per customer, served in turn (defaults in `DEFAULT_FAIR_SHARE`). */
  fairShare?: FairShareLimits;
  /** Requests that failed authentication, per client address and per credential prefix, before the next is a 429 (defaults in `DEFAULT_AUTH_FAILURES`); `false` turns it off. */
  authFailures?: AuthFailureLimits | false;
  /** The pace an ingest or OTLP body must keep: slower, it is cut with a 408 (defaults in `DEFAULT_UPLOAD_PACE`: 32 KiB/s after 5 s). */
  uploadPace?: UploadPace;
  /** Ingest and OTLP requests read at once (default 4): bodies are up to 10 MB each; beyond it 503 with Retry-After. */
  maxConcurrentIngest?: number;
  /** Origins allowed to call the console API from a browser (exact, e.g. `https://portal.example.com`). */
  corsOrigins?: string[];
  /** The account's calendar: months, days and weeks are counted in it (default UTC). */
  timeZone?: string;
  /** When an endpoint is Failing or Slow. */
  thresholds?: Partial<Thresholds>;
  /** The current time (for tests). */
  clock?: () => Date;
  /** Ingest limits: body bytes (default 10 MB) and events per batch (default 10,000). */
  limits?: { maxBodyBytes?: number; maxBatch?: number };
  /**
   * What is captured of each request. `mask` adds header names, field names and patterns (regular
   * expressions) to what is always masked before a request is kept: credential headers, secret
   * fields of query strings, card numbers (see `docs/security.md`).
   */
  capture?: {
    mask?: MaskOptions;
    /** UTF-8 bytes of a body's text kept, at most (default 64 KB, at most 1 MB): a longer text is cut, never refused. */
    maxBodyBytes?: number;
    /** Who reads kept headers and bodies: every role that reads requests (`viewer`, the default), or only `editor` and `admin`. */
    payloadsFor?: 'viewer' | 'editor';
  };
  /** How long what is kept apart from the figures lives: headers and bodies for `payloadDays` (default 7). */
  retention?: { payloadDays?: number };
  /** Which OTLP span/resource attributes give the key id, customer, actor and API version (defaults in `DEFAULT_OTLP_ATTRIBUTES`). */
  otlpAttributes?: Partial<OtlpAttributes>;
  /** Who may read `GET /metrics` (Prometheus text): holders of `token`, or anyone with `public: true`. Without either it answers 404. */
  metrics?: MetricsOptions;
  /** Where the server logs, as JSON lines (pino): a logger of yours, or one on stdout at `logLevel`. */
  logger?: Logger;
  /** The level of the server's own logger (default `warn`; `info` adds one line per request). */
  logLevel?: LevelWithSilent;
  /**
   * Alert rules: evaluated every `evaluateEverySeconds` (default 60; 0 evaluates only when
   * `alerts.runOnce` is called, for tests). Channel URLs on private or loopback addresses are
   * refused unless `allowPrivateUrls`. `consoleUrl` makes notifications' links absolute; `smtp`
   * sends email channels; each delivery is tried `attempts` times (default 3), waiting
   * `backoffMs` (default 1,000), then 4× that. `resolve` turns a channel's host name into
   * addresses (default: the system's resolver); each delivery connects only to an address it
   * answered and checked.
   */
  alerts?: {
    evaluateEverySeconds?: number;
    allowPrivateUrls?: boolean;
    resolve?: (host: string) => Promise<string[]>;
    consoleUrl?: string;
    smtp?: SmtpOptions;
    attempts?: number;
    backoffMs?: number;
    /** Rules, SLOs and channels per account (defaults in `DEFAULT_ALERT_CAPS`: 100, 50, 20). */
    caps?: AlertCaps;
    /** Rules evaluated at once (default 4), taken from the accounts in turn; a cycle starts none after half its interval, the rest wait for the next. */
    concurrency?: number;
  };
  /** The elements served at `/elements/ops-console.js` (default: the installed `@ops-console/elements`); `false` serves none. */
  elements?: ElementsOptions | false;
}

export interface ConsoleServer {
  /** Answers a request; `connection.remoteAddress` is the client's (or its proxy's) address, which failed authentication is counted by. */
  fetch(request: Request, connection?: ConnectionInfo): Promise<Response>;
  /** Resolves when the background work queued so far (error-spike checks after ingest) is done. */
  idle(): Promise<void>;
  close(): Promise<void>;
  stores: Stores;
  /** Alert evaluation: `runOnce(now?)` evaluates the due rules (what the scheduler does every cycle). */
  alerts: { runOnce(now?: number): Promise<void> };
  /** The routes this server answers, as `GET /console/v1/errors/{id}`: the contract's route table, which a test holds them to. */
  routes: readonly string[];
}
