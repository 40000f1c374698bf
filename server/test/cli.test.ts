// The `ops-console` CLI as an operator runs it, in a process of its own: --help and --version,
// a configuration that cannot be used (one line per problem, status 2, no stack trace),
// migrate, and serve: health, readiness, and SIGTERM in the middle of an ingest load, after
// which a restart on the same DuckDB file holds every acknowledged event exactly once.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ops-console-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

/** A configuration file only its owner may read and write, as one holding secrets should be. */
function configFile(name: string, config: unknown, mode = 0o600): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(config), { mode });
  chmodSync(file, mode);
  return file;
}

const TOKEN = 'cli-token-7c1e9a3f5b';
const INGEST = 'cli-ingest-2d8b4f6a0c';
const good = (store: string) => ({
  port: 0,
  store,
  auth: { tokens: { [TOKEN]: { accountId: 'acct_cli', user: { id: 'u_1', name: 'Ana Silva' } } } },
  ingestKeys: { [INGEST]: 'acct_cli' },
});

test('--version prints the package version; --help names every command', () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  const printed = run(['--version']);
  assert.deepEqual([printed.status, printed.stdout], [0, `${version}\n`]);
  const help = run(['--help']);
  assert.equal(help.status, 0);
  for (const word of ['serve', 'migrate', 'demo', '--config', 'OPS_CONSOLE_PORT']) assert.ok(help.stdout.includes(word), word);
  const unknown = run(['launch']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^ops-console: no command "launch"/);
});

test('a configuration that cannot be used: one line per problem naming the field, status 2, no stack trace', () => {
  const file = configFile('bad.json', {
    port: 'eighty',
    ingestKeys: { '': 'acct_1' },
    corsOrigins: ['https://portal.example.com/app'],
    timeZone: 'Mars/Olympus',
    telemetry: 'clickhouse://127.0.0.1:8123/ops',
    auth: { tokens: { t1: { accountId: 'acct_1', user: { id: 'u_1', name: 'Una' }, role: 'owner' } } },
    fooo: 1,
    capture: { mask: { patterns: ['acct-(\\d'] } },
  });
  const result = run(['serve', '--config', file]);
  assert.equal(result.status, 2);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines[0], `ops-console: ${file}:`);
  assert.deepEqual(
    lines
      .slice(1)
      .map((line) => line.trim())
      .sort(),
    [
      'auth.tokens.….role: must be one of viewer, editor, admin',
      `capture.mask.patterns.0: "acct-(\\d" is not a regular expression: Invalid regular expression: /acct-(\\d/giu: Unterminated group`,
      'corsOrigins.0: is not an origin (scheme://host[:port], no path)',
      'fooo: is not an option',
      'ingestKeys: a key is empty',
      'port: must be a number',
      'telemetry: scaling out takes both telemetry (ClickHouse) and records (PostgreSQL)',
      'timeZone: is not an IANA time zone',
    ],
  );
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');

  const single = run(['serve', '--config', configFile('empty-key.json', { ingestKeys: { '': 'acct_1' } })]);
  assert.equal(single.stderr, `ops-console: ${join(dir, 'empty-key.json')}: ingestKeys: a key is empty\n`);
  const missing = run(['serve', '--config', join(dir, 'nowhere.json')]);
  assert.deepEqual([missing.status, missing.stderr], [2, `ops-console: ${join(dir, 'nowhere.json')}: cannot be read (ENOENT)\n`]);
  const fromEnv = run(['serve'], { OPS_CONSOLE_PORT: '99999' });
  assert.deepEqual([fromEnv.status, fromEnv.stderr], [2, 'ops-console: the environment: port: Too big: expected number to be <=65535\n']);
});

test('secrets: each has one role, and is long and varied enough; the file holding them is its owner’s to change', () => {
  const person = { accountId: 'acct_1', user: { id: 'u_1', name: 'Una' } };
  const weak = run([
    'serve',
    '--config',
    configFile('weak.json', {
      auth: { tokens: { short: person }, jwt: { secret: 'only-twenty-bytes-ok', audience: 'a', issuer: 'i' } },
      ingestKeys: { aaaaaaaaaaaaaaaaaaaa: 'acct_1' },
    }),
  ]);
  assert.equal(weak.status, 2);
  assert.deepEqual(
    weak.stderr
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .sort(),
    [
      'auth.jwt.secret: is shorter than 32 bytes',
      'auth.tokens: has a secret that is shorter than 16 characters',
      'ingestKeys: has a secret that is too uniform to resist guessing (repeated characters); use a random one',
    ],
  );
  const twice = run([
    'serve',
    '--config',
    configFile('twice.json', {
      auth: { tokens: { 'one-secret-7c1e9a3f5b': person } },
      ingestKeys: { 'one-secret-7c1e9a3f5b': 'acct_1' },
      adminKeys: { 'admin-key-2d8b4f6a0c': 'acct_2', 'admin-key-9e3c5a7b1d': 'acct_1' },
      metrics: { token: 'admin-key-2d8b4f6a0c' },
    }),
  ]);
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /auth\.tokens and ingestKeys share a secret: each token and key must have one role/);
  assert.match(twice.stderr, /adminKeys and metrics\.token share a secret/);
  assert.doesNotMatch(twice.stderr, /one-secret|admin-key-/, 'the secrets themselves are never printed');

  const store = join(dir, 'modes.duckdb');
  const writable = run(['migrate', '--config', configFile('writable.json', { store }, 0o666)]);
  assert.equal(writable.status, 2);
  assert.match(writable.stderr, /can be changed by other users of this machine \(mode 666\): chmod go-w/);
  const readable = run(['migrate', '--config', configFile('readable.json', { store }, 0o644)]);
  assert.equal(readable.status, 0);
  assert.match(readable.stderr, /^ops-console: warning: .*readable\.json can be read by every user of this machine and holds secrets: chmod o-r/);
  assert.equal(run(['migrate', '--config', configFile('private.json', { store })]).stderr, '', 'no warning for a file only its owner reads');
});

test('a console server refuses one secret in two roles', async () => {
  const { createConsoleServer } = await import('../src/index.ts');
  await assert.rejects(
    createConsoleServer({ store: ':memory:', ingestKeys: { 'same-key': 'acct_a' }, adminKeys: { 'same-key': 'acct_b' } }),
    /ingestKeys and adminKeys share a secret/,
  );
});

test('a problem with a token’s or key’s entry names it by its last 4 characters, never whole', () => {
  const secret = 'ik_live_8c2e4a6f0b1d3957';
  const result = run([
    'serve',
    '--config',
    configFile('leak.json', { ingestKeys: { [secret]: '' }, auth: { tokens: { [`tok_${secret}`]: { accountId: '' } } } }),
  ]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /ingestKeys\.…3957: names no account/);
  assert.doesNotMatch(result.stderr, /8c2e4a6f/, 'the secret is not printed');
});

test('migrate makes the DuckDB file and exits', () => {
  const store = join(dir, 'migrated.duckdb');
  const result = run(['migrate', '--config', configFile('migrate.json', { store })]);
  assert.deepEqual([result.status, result.stdout], [0, `Stores ready: ${store}\n`]);
  assert.ok(existsSync(store));
});

/** Starts `ops-console serve`; answers its URL once it listens. */
async function startServe(config: string) {
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, OPS_CONSOLE_CONFIG: config }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Every line it writes is a JSON log record.
  const logged: Record<string, unknown>[] = [];
  let url: string | undefined;
  const lines = createInterface({ input: child.stdout });
  const listening = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      logged.push(record);
      if (record['msg'] === 'listening') {
        url = String(record['url']);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`ops-console serve did not start: ${stderr}`)));
  });
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  await listening;
  return { child, url: url!, exited, logged, stderr: () => stderr };
}

test('serve: healthy and ready; SIGTERM under an ingest load exits 0, and every acknowledged event is there once after a restart', async () => {
  const config = configFile('serve.json', good(join(dir, 'served.duckdb')));
  const first = await startServe(config);
  const health = await fetch(`${first.url}/healthz`, { headers: { 'x-request-id': 'probe-1' } });
  assert.deepEqual([await health.json(), health.headers.get('x-request-id')], [{ status: 'ok' }, 'probe-1']);
  const odd = await fetch(`${first.url}/healthz`, { headers: { 'x-request-id': 'a b"}' } });
  const generated = odd.headers.get('x-request-id') ?? '';
  assert.match(generated, /^[0-9a-f-]{36}$/, 'an id that is not a plain token is replaced');
  assert.deepEqual(await (await fetch(`${first.url}/readyz`)).json(), { status: 'ready' });

  // Four clients send batches, each under its own Idempotency-Key, until the server is gone.
  const acknowledged: string[] = [];
  let batch = 0;
  const load = { stopped: false };
  const sender = async () => {
    while (!load.stopped) {
      const n = batch++;
      const events = Array.from({ length: 20 }, (_, i) => ({
        ts: new Date(Date.now() - 1_000).toISOString(),
        method: 'POST',
        route: '/messages',
        path: `/messages/b${n}e${i}`,
        status: 201,
        durationMs: 3,
      }));
      try {
        const response = await fetch(`${first.url}/ingest/v1/requests`, {
          method: 'POST',
          headers: { authorization: `Bearer ${INGEST}`, 'content-type': 'application/json', 'idempotency-key': `b${n}` },
          body: JSON.stringify({ events }),
        });
        if (response.status === 202) acknowledged.push(...events.map((e) => e.path));
        await response.arrayBuffer();
      } catch {
        load.stopped = true; // refused: the server has stopped listening
      }
    }
  };
  const senders = Array.from({ length: 4 }, sender);
  while (acknowledged.length < 400 && !load.stopped) await new Promise((resolve) => setTimeout(resolve, 20));
  first.child.kill('SIGTERM');
  const [code] = await first.exited;
  load.stopped = true;
  await Promise.all(senders);
  assert.equal(code, 0, `exit status 0 (stderr: ${first.stderr()})`);
  const requestLine = first.logged.find((r) => r['reqId'] === 'probe-1');
  assert.deepEqual(requestLine && [requestLine['msg'], requestLine['method'], requestLine['route'], requestLine['status'], requestLine['service']], [
    'request',
    'GET',
    '/healthz',
    200,
    'ops-console',
  ]);
  assert.ok(first.logged.some((r) => r['reqId'] === generated));
  assert.deepEqual(
    first.logged.filter((r) => typeof r['msg'] === 'string' && /^(stopping|stopped)/.test(r['msg'])).map((r) => String(r['msg']).split(':')[0]),
    ['stopping', 'stopped'],
  );

  const second = await startServe(config);
  try {
    const stored: string[] = [];
    for (let cursor: string | null = ''; cursor !== null;) {
      const page = (await (
        await fetch(`${second.url}/console/v1/requests?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).json()) as { items: { path: string }[]; nextCursor: string | null };
      stored.push(...page.items.map((item) => item.path));
      cursor = page.nextCursor;
    }
    assert.equal(new Set(stored).size, stored.length, 'no event twice');
    const missing = acknowledged.filter((path) => !stored.includes(path));
    assert.deepEqual(missing, [], `every acknowledged event kept (${acknowledged.length} acknowledged, ${stored.length} stored)`);
  } finally {
    second.child.kill('SIGTERM');
    assert.equal((await second.exited)[0], 0);
  }
});
