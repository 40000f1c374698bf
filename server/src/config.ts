/**
 * The `ops-console` CLI's configuration: a JSON file with the options of `createConsoleServer`
 * plus where to listen, single values overridden by `OPS_CONSOLE_*` environment variables, all
 * checked with zod. A problem is reported as `field: what is wrong`, never as a stack trace.
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { CUSTOMER_VIEWS, ROLES } from '@ops-console/contract/enums';
import { captureConfig, retentionConfig } from './capture/mask-config.ts';
import { isTimeZone } from './calendar.ts';
import { isCredential } from '@ops-console/contract/credentials';
import { sharedSecrets, weakSecrets } from './secrets.ts';
import type { ConsoleServerOptions } from './server.ts';

/** Keys that are really set: not empty, not the text of an unset variable (`undefined`, `null`). */
const keyed = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string(), value)
    .refine((entries) => Object.keys(entries).every((key) => key.trim() !== ''), 'a key is empty')
    .refine(
      (entries) => Object.keys(entries).every((key) => key.trim() === '' || isCredential(key)),
      'a key reads "undefined" or "null": is its environment variable unset?',
    );

const principal = z.strictObject({
  accountId: z.string().min(1, 'names no account'),
  user: z.strictObject({ id: z.string().min(1, 'is empty'), name: z.string().min(1, 'is empty') }),
  /** An operator's role (default `editor`); ignored with `customerId`. */
  role: z.enum(ROLES, `must be one of ${ROLES.join(', ')}`).optional(),
  /** A customer-scoped token: this customer's console only. */
  customerId: z.string().min(1, 'is empty').optional(),
  /** With `customerId`: the views it may read (all without). */
  views: z.array(z.enum(CUSTOMER_VIEWS, `must be one of ${CUSTOMER_VIEWS.join(', ')}`)).optional(),
});
const rateLimit = z.union([z.literal(false), z.strictObject({ requests: z.int().positive(), perSeconds: z.number().positive() })]);
const attributes = z.array(z.string().min(1)).min(1);

export const serverConfig = z
  .strictObject({
    port: z.int().min(0).max(65_535).default(8787).describe('The port to listen on.'),
    host: z.string().min(1).default('127.0.0.1').describe('The address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 every interface.'),
    store: z.string().min(1).optional().describe('The embedded store: `duckdb:./ops-console.duckdb` (the default), a file path, or `:memory:`.'),
    telemetry: z
      .string()
      .startsWith('clickhouse://', 'must start with clickhouse://')
      .optional()
      .describe('Scale out: the ClickHouse URL of the events (with `records`).'),
    records: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional()
      .describe('Scale out: the PostgreSQL URL of the records (with `telemetry`).'),
    auth: z
      .strictObject({
        tokens: keyed(principal).optional(),
        jwt: z
          .strictObject({
            secret: z.string().refine(isCredential, 'is empty').optional(),
            jwksUrl: z.url().optional(),
            issuer: z.string().min(1).optional(),
            audience: z.string().min(1).optional(),
            accountClaim: z.string().min(1).optional(),
            roleClaim: z.string().min(1).optional(),
            customerClaim: z.string().min(1).optional(),
            requireExpiry: z.boolean().optional(),
            maxAge: z.union([z.string().min(1), z.number().positive()]).optional(),
          })
          .refine((jwt) => jwt.secret !== undefined || jwt.jwksUrl !== undefined, 'needs a secret or a jwksUrl')
          .optional(),
      })
      .optional()
      .describe('Who may read the console: static tokens, JWTs (HS256 secret or a JWKS URL) and their claims.'),
    embedSessionKeys: z
      .array(z.strictObject({ id: z.string().regex(/^[\w.-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . or -'), secret: z.string().optional() }))
      .min(1)
      .refine((keys) => new Set(keys.map((k) => k.id)).size === keys.length, 'names one id twice')
      .refine((keys) => keys.every((k) => k.secret !== undefined || k.id === 'stored'), 'a key without a secret must be { "id": "stored" }, the store’s own')
      .optional()
      .describe(
        'The keys that sign embed sessions: the first signs, each verifies its own; { "id": "stored" } is the store’s. Rotate by putting a new key first for an hour.',
      ),
    ingestKeys: keyed(z.string().min(1, 'names no account'))
      .optional()
      .describe('Ingest keys and the account each writes telemetry to: collectors and OTLP exporters.'),
    adminKeys: keyed(z.string().min(1, 'names no account'))
      .optional()
      .describe('Admin keys and their account: your back office writes customers, keys, webhooks and embed sessions.'),
    rateLimits: z
      .strictObject({
        ingest: rateLimit.optional(),
        console: rateLimit.optional(),
        customer: rateLimit.optional(),
        admin: rateLimit.optional(),
        embedSessions: rateLimit.optional(),
        channelTests: rateLimit.optional(),
      })
      .optional()
      .describe(
        "Requests allowed per account in each window: ingest, the console (customers' consoles spend their account's, each within `customer`), the admin API and embed sessions minted; beyond, 429 with Retry-After.",
      ),
    authFailures: z
      .union([z.literal(false), z.strictObject({ perAddress: rateLimit.optional(), perCredential: rateLimit.optional() })])
      .optional()
      .describe('Requests that may fail authentication per client address (default 60 a minute) and per credential prefix (20); beyond, 429 with Retry-After.'),
    uploadPace: z
      .strictObject({ minBytesPerSecond: z.int().positive().optional(), graceSeconds: z.number().positive().optional() })
      .optional()
      .describe('The pace an ingest body must keep once graceSeconds (default 5) have passed: minBytesPerSecond (default 32,768); slower, 408.'),
    fairShare: z
      .strictObject({
        total: z.int().positive().optional(),
        perAccount: z.int().positive().optional(),
        perCustomer: z.int().positive().optional(),
        queue: z.int().min(0).optional(),
      })
      .optional()
      .describe('Console reads run at once: in all (default 4), per account (2) and per customer (1), served in turn; beyond `queue` (64) waiting, 429.'),
    maxConcurrentIngest: z
      .int()
      .positive()
      .optional()
      .describe('Ingest bodies read at once (the last free one kept for an account reading none); beyond, 503 with Retry-After: 1.'),
    corsOrigins: z
      .array(z.url().refine((url) => new URL(url).origin === url, 'is not an origin (scheme://host[:port], no path)'))
      .optional()
      .describe('The origins of the pages that embed the console (scheme://host[:port]).'),
    timeZone: z
      .string()
      .refine(isTimeZone, 'is not an IANA time zone')
      .optional()
      .describe('The account calendar: where months, days and weeks begin (IANA name; default UTC).'),
    thresholds: z
      .strictObject({ failingErrorPct: z.number().min(0).max(100).optional(), slowP95Ms: z.number().positive().optional() })
      .optional()
      .describe('When an endpoint reads Failing (error rate, %) or Slow (P95, ms).'),
    limits: z
      .strictObject({ maxBodyBytes: z.int().positive().optional(), maxBatch: z.int().positive().optional() })
      .optional()
      .describe('The largest ingest body (bytes) and batch (events) accepted.'),
    capture: captureConfig,
    retention: retentionConfig,
    otlpAttributes: z
      .strictObject({
        keyId: attributes.optional(),
        customerId: attributes.optional(),
        actorId: attributes.optional(),
        actorName: attributes.optional(),
        apiVersion: attributes.optional(),
      })
      .optional()
      .describe('The OpenTelemetry span attributes read as key, customer, actor and API version (first found wins).'),
    logLevel: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .describe('JSON log lines on stdout at this level and above; `info` logs each request.'),
    elements: z
      .union([z.literal(false), z.strictObject({ dir: z.string().min(1) })])
      .optional()
      .describe('The elements served at /elements/ops-console.js: a built `dist/` directory, or false for none (default: the installed package).'),
    metrics: z
      .strictObject({ token: z.string().refine(isCredential, 'is empty').optional(), public: z.boolean().optional() })
      .optional()
      .describe('GET /metrics (Prometheus): the bearer token it takes, or public: true.'),
    alerts: z
      .strictObject({
        evaluateEverySeconds: z.int().min(0).optional(),
        allowPrivateUrls: z.boolean().optional(),
        consoleUrl: z.url().optional(),
        smtp: z
          .strictObject({
            host: z.string().min(1),
            port: z.int().min(1).max(65_535),
            secure: z.boolean().optional(),
            auth: z.strictObject({ user: z.string().min(1), pass: z.string().min(1) }).optional(),
            from: z.string().min(3),
          })
          .optional(),
        attempts: z.int().min(1).max(10).optional(),
        backoffMs: z.int().min(0).optional(),
        caps: z.strictObject({ rules: z.int().min(0).optional(), slos: z.int().min(0).optional(), channels: z.int().min(0).optional() }).optional(),
        concurrency: z.int().positive().optional(),
      })
      .optional()
      .describe(
        'Alert rules: how often they are evaluated (seconds), whether channels may send to private addresses, the console URL in links, SMTP for email, and retries.',
      ),
    shutdownTimeoutMs: z.int().min(0).default(10_000).describe('How long SIGTERM waits for requests under way before it closes their connections (ms).'),
  })
  .refine((config) => (config.telemetry === undefined) === (config.records === undefined), {
    path: ['telemetry'],
    message: 'scaling out takes both telemetry (ClickHouse) and records (PostgreSQL)',
    // Said with the other problems, not only once they are fixed.
    when: ({ value }) => value !== null && typeof value === 'object',
  });

export type ServerConfig = z.infer<typeof serverConfig>;

/** The environment variables that set one value each, over the file's. */
export const ENV_OPTIONS = {
  OPS_CONSOLE_PORT: 'port',
  OPS_CONSOLE_HOST: 'host',
  OPS_CONSOLE_STORE: 'store',
  OPS_CONSOLE_TELEMETRY: 'telemetry',
  OPS_CONSOLE_RECORDS: 'records',
  OPS_CONSOLE_TIME_ZONE: 'timeZone',
  OPS_CONSOLE_CORS_ORIGINS: 'corsOrigins',
  OPS_CONSOLE_JWT_SECRET: 'auth.jwt.secret',
  OPS_CONSOLE_JWKS_URL: 'auth.jwt.jwksUrl',
  OPS_CONSOLE_METRICS_TOKEN: 'metrics.token',
  OPS_CONSOLE_LOG_LEVEL: 'logLevel',
  OPS_CONSOLE_SHUTDOWN_TIMEOUT_MS: 'shutdownTimeoutMs',
  OPS_CONSOLE_ALERTS_EVERY_SECONDS: 'alerts.evaluateEverySeconds',
} as const;

/** A configuration that cannot be used: `problems` are `field: what is wrong`, one per line. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(source: string, problems: string[]) {
    super(`${source}: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

/** Reads the file (when given), applies the environment's single values, and checks the whole. */
export function loadConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = () => {}): ServerConfig {
  let raw: Record<string, unknown> = {};
  if (file !== undefined) {
    let text: string;
    try {
      // The file holds the secrets: anyone who can change it can give themselves a token.
      const { mode } = statSync(file);
      if (process.platform !== 'win32' && mode & 0o022)
        throw new ConfigError(file, [`can be changed by other users of this machine (mode ${(mode & 0o777).toString(8)}): chmod go-w ${file}`]);
      if (process.platform !== 'win32' && mode & 0o004) warn(`${file} can be read by every user of this machine and holds secrets: chmod o-r ${file}`);
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(file, [`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(file, [`is not JSON: ${(error as Error).message}`]);
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ConfigError(file, ['must hold a JSON object']);
    raw = json as Record<string, unknown>;
  }
  for (const [name, path] of Object.entries(ENV_OPTIONS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const typed =
      path === 'port' || path === 'shutdownTimeoutMs' || path === 'alerts.evaluateEverySeconds'
        ? Number(value)
        : path === 'corsOrigins'
          ? value.split(',').map((s) => s.trim())
          : value;
    setPath(raw, path.split('.'), typed);
  }
  const parsed = serverConfig.safeParse(raw);
  if (!parsed.success) throw new ConfigError(file ?? 'the environment', parsed.error.issues.map(describe));
  const secrets = [...sharedSecrets(parsed.data), ...weakSecrets(parsed.data)];
  if (secrets.length) throw new ConfigError(file ?? 'the environment', secrets);
  return parsed.data;
}

/** The options `createConsoleServer` takes, from a checked configuration. */
export function serverOptions(config: ServerConfig): ConsoleServerOptions {
  const { port: _port, host: _host, shutdownTimeoutMs: _deadline, logLevel, ...options } = config;
  return { ...options, logLevel };
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = (node[key] = next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

/** `auth.tokens.t1.accountId: names no account`; an unknown option is named as such. */
/** Options whose keys are secrets: a problem names such a key by its last 4 characters only, as a log may keep it. */
const KEYED_BY_SECRET = ['auth.tokens', 'ingestKeys', 'adminKeys'];
const masked = (path: readonly PropertyKey[]) =>
  path.map((segment, i) => {
    const key = String(segment);
    return KEYED_BY_SECRET.includes(path.slice(0, i).map(String).join('.')) ? `…${key.length >= 16 ? key.slice(-4) : ''}` : key;
  });

function describe(issue: z.core.$ZodIssue): string {
  const where = masked(issue.path).join('.');
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${where ? `${where}.` : ''}${key}: is not an option`).join('; ');
  const message = issue.code === 'invalid_type' ? `must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}` : issue.message;
  return where ? `${where}: ${message}` : message;
}
