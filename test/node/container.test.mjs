// The console server's container image, built and run with podman as an operator would: built by
// `npm run image`'s script from server/Dockerfile, then run as compose.yaml's `console` service
// runs it (its environment and volume, the shipped example config) and, with compose's
// `console-scaled` environment, on real ClickHouse + PostgreSQL processes.
//
// No image registry is reachable here, so the Dockerfile's NODE_IMAGE is built from Debian's
// packages (mmdebstrap) plus this project's Node 24 and npm, laid out as the official node images
// are. Images, containers and volumes live in a storage folder of the test's own, removed after.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { freePort, startClickHouse, startDatabases, startPostgres } from '../../server/test/databases.ts';

const root = resolve('.');
const work = mkdtempSync(join(tmpdir(), 'ops-console-container-'));
const IMAGE = 'localhost/ops-console:test';
const BASE = 'localhost/ops-console-node-base:test';
const compose = parse(readFileSync(join(root, 'server/compose.yaml'), 'utf8'));
const example = JSON.parse(readFileSync(join(root, 'server/ops-console.example.json'), 'utf8'));
const consoleToken = Object.keys(example.auth.tokens)[0];
const ingestKey = Object.keys(example.ingestKeys)[0];

// The engine's settings for this machine, and storage of the test's own: nothing it builds or
// runs touches the machine's other images. runc, because this kernel refuses crun's set-up;
// no default ulimits, which an unprivileged sandbox may not raise; cgroupfs and a file event
// log, as there is no systemd.
const env = {
  ...process.env,
  CONTAINERS_CONF: join(work, 'containers.conf'),
  CONTAINERS_STORAGE_CONF: join(work, 'storage.conf'),
};
writeFileSync(env.CONTAINERS_CONF, '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n');
writeFileSync(env.CONTAINERS_STORAGE_CONF, `[storage]\ndriver = "overlay"\ngraphroot = "${work}/storage"\nrunroot = "${work}/run"\n`);
const podman = (...args) => execFileSync('podman', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).trim();

/** A Debian root file system with Node 24 and npm where the official node images have them, cached by what goes in. */
function nodeBaseImage() {
  const node = process.execPath;
  const npmDir = process.env.npm_execpath ? dirname(dirname(process.env.npm_execpath)) : '/usr/lib/node_modules/npm';
  // The machine's certificate authorities, so that npm in the build reaches the registry through any proxy the machine trusts.
  const authorities = '/etc/ssl/certs/ca-certificates.crt';
  const key = createHash('sha256')
    .update([process.version, readFileSync(join(npmDir, 'package.json'), 'utf8'), existsSync(authorities) ? readFileSync(authorities) : ''].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const cache = join(root, 'node_modules/.cache/ops-console-container');
  const tarball = join(cache, `node-base-${key}.tar`);
  if (!existsSync(tarball)) {
    mkdirSync(cache, { recursive: true });
    rmSync(cache, { recursive: true, force: true }); // one base at a time: each is ~300 MB
    mkdirSync(cache, { recursive: true });
    const hooks = [
      `copy-in ${node} /usr/local/bin`,
      'mkdir -p "$1/usr/local/lib/node_modules"',
      `copy-in ${npmDir} /usr/local/lib/node_modules`,
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
      'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
      ...(existsSync(authorities) ? [`upload ${authorities} /etc/ssl/certs/ca-certificates.crt`] : []),
    ];
    execFileSync(
      'mmdebstrap',
      [
        '--quiet',
        '--format=tar',
        '--variant=minbase',
        '--include=ca-certificates,libstdc++6',
        ...hooks.map((hook) => `--customize-hook=${hook}`),
        'bookworm',
        `${tarball}.part`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    renameSync(`${tarball}.part`, tarball);
  }
  podman('import', '--change', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', tarball, BASE);
}

let databases = [];
/** Set once podman is seen using the test's own storage: only then does `after` remove everything in it. */
let ownStorage = false;
before(async () => {
  assert.equal(podman('info', '--format', '{{.Store.GraphRoot}}'), join(work, 'storage'), 'podman uses the test’s own storage');
  ownStorage = true;
  nodeBaseImage();
  const build = spawnSync(process.execPath, ['scripts/image.mjs', '--tag', IMAGE, '--build-arg', `NODE_IMAGE=${BASE}`], {
    cwd: root,
    env: { ...env, OPS_CONSOLE_ENGINE: 'podman' },
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `the image did not build:\n${build.stdout.slice(-3000)}\n${build.stderr.slice(-3000)}`);
});
after(async () => {
  await Promise.all(databases.map((database) => database.dispose()));
  try {
    if (ownStorage) {
      podman('rm', '--all', '--force', '--time', '0');
      podman('volume', 'rm', '--all', '--force');
      podman('rmi', '--all', '--force');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** Runs the image as `service` of compose.yaml: its environment and named volumes, the example config mounted, on the host's network at `port`. */
function run(service, { port, name, environment = {} }) {
  const definition = compose.services[service];
  const args = ['run', '--detach', '--name', name, '--network', 'host', '--env', `OPS_CONSOLE_PORT=${port}`];
  for (const [variable, value] of Object.entries({ ...definition.environment, ...environment })) args.push('--env', `${variable}=${value}`);
  for (const volume of definition.volumes) {
    const [source, target, mode] = volume.split(':');
    const from = source.startsWith('./') ? join(root, 'server', source === './ops-console.json' ? 'ops-console.example.json' : source) : `${name}-${source}`;
    args.push('--volume', [from, target, mode].filter(Boolean).join(':'));
  }
  podman(...args, IMAGE);
  return `http://127.0.0.1:${port}`;
}

async function until(what, check, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not happen within ${seconds} s${last ? `: ${last.message}` : ''}`);
}

const get = (url, token) => fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const minuteAgo = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
/** Events with known routes and statuses; the figures the console should give, computed here. */
function traffic() {
  const ts = minuteAgo().toISOString();
  const events = [];
  for (let i = 0; i < 30; i++)
    events.push({ ts, method: 'GET', route: '/orders', path: `/orders?page=${i}`, status: i % 10 === 0 ? 500 : 200, durationMs: 10 + i });
  for (let i = 0; i < 12; i++) events.push({ ts, method: 'POST', route: '/refunds', path: '/refunds', status: 201, durationMs: 40 });
  const expected = new Map([
    ['GET /orders', { requests: 30, errorPct: 10 }],
    ['POST /refunds', { requests: 12, errorPct: 0 }],
  ]);
  return { events, expected };
}
async function ingest(base, events) {
  const response = await fetch(`${base}/ingest/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  assert.equal(response.status, 202, await response.clone().text());
  assert.deepEqual(await response.json(), { accepted: events.length, rejectedCount: 0, rejected: [] });
}
async function endpoints(base) {
  const response = await get(`${base}/console/v1/endpoints?range=24h`, consoleToken);
  assert.equal(response.status, 200);
  const { items } = await response.json();
  return new Map(items.map((item) => [`${item.method} ${item.path}`, { requests: item.requests, errorPct: item.errorPct }]));
}

test('the image: not root, a /data volume, a health check on /healthz, and compose.yaml’s profiles around it', () => {
  const [image] = JSON.parse(podman('image', 'inspect', IMAGE));
  const config = image.Config;
  assert.equal(config.User, 'ops-console');
  assert.ok('/data' in config.Volumes, 'the DuckDB file lives on a volume');
  assert.ok('8787/tcp' in config.ExposedPorts);
  // Podman lists the health check beside the config, Docker inside it.
  assert.match((image.Healthcheck ?? config.Healthcheck).Test.join(' '), /\/healthz/);
  assert.deepEqual(config.Entrypoint, ['ops-console']);
  assert.deepEqual(config.Cmd, ['serve']);
  assert.ok(config.Env.includes('OPS_CONSOLE_STORE=duckdb:/data/ops-console.duckdb'));
  // What compose.yaml expects of it: one console per profile, both on the image and the example config's path.
  assert.deepEqual(compose.services.console.profiles, ['embedded']);
  assert.deepEqual(compose.services['console-scaled'].profiles, ['scale']);
  assert.deepEqual(compose.services.clickhouse.profiles, ['scale']);
  assert.deepEqual(compose.services.postgres.profiles, ['scale']);
});

test('the embedded default in a container: healthy, ready, serves the elements and its figures, and a SIGTERM loses nothing', async () => {
  const port = await freePort();
  const base = run('console', { port, name: 'ops-embedded' });
  await until('/healthz answering', async () => (await get(`${base}/healthz`)).ok);
  assert.equal(podman('healthcheck', 'run', 'ops-embedded'), '', 'the image’s own HEALTHCHECK passes');
  assert.deepEqual(await (await get(`${base}/readyz`)).json(), { status: 'ready' });
  const script = await get(`${base}/elements/ops-console.js`);
  assert.equal(script.status, 200);
  assert.match(script.headers.get('content-type'), /javascript/);
  assert.equal((await get(`${base}/metrics`)).status, 401, '/metrics wants the example config’s token');
  const metrics = await get(`${base}/metrics`, example.metrics.token);
  assert.match(await metrics.text(), /^http_requests_total\{/m);

  const { events, expected } = traffic();
  await ingest(base, events);
  assert.deepEqual(await endpoints(base), expected);

  // SIGTERM (compose's `stop`): exit 0; the volume keeps every acknowledged event for the next start.
  podman('stop', '--time', '30', 'ops-embedded');
  assert.equal(podman('inspect', '--format', '{{.State.ExitCode}}', 'ops-embedded'), '0');
  podman('start', 'ops-embedded');
  await until('/healthz answering after the restart', async () => (await get(`${base}/healthz`)).ok);
  assert.deepEqual(await endpoints(base), expected);
  podman('rm', '--force', '--time', '0', 'ops-embedded');
});

test('with compose’s scale settings the container reads and writes ClickHouse + PostgreSQL', async () => {
  databases = await startDatabases(startClickHouse(), startPostgres());
  const [clickhouse, postgres] = databases;
  // compose.yaml's URLs, pointed at the servers this test started (the registry's images cannot be pulled here).
  const scaled = compose.services['console-scaled'].environment;
  const clickhouseAddress = clickhouse.url.slice('clickhouse://'.length).split('/')[0];
  const telemetry = scaled.OPS_CONSOLE_TELEMETRY.replace(
    /^clickhouse:\/\/[^@]+@clickhouse:8123\/(?=ops_console$)/,
    `clickhouse://default@${clickhouseAddress}/`,
  );
  const records = scaled.OPS_CONSOLE_RECORDS.replace(/^postgres:\/\/[^@]+@postgres:5432\/ops_console$/, postgres.url);
  assert.equal(telemetry, `clickhouse://default@${clickhouseAddress}/ops_console`, 'compose’s ClickHouse URL names the service and database the test replaces');
  assert.equal(records, postgres.url, 'compose’s PostgreSQL URL names the service and database the test replaces');
  const port = await freePort();
  const base = run('console-scaled', { port, name: 'ops-scaled', environment: { OPS_CONSOLE_TELEMETRY: telemetry, OPS_CONSOLE_RECORDS: records } });
  await until('/readyz answering', async () => (await get(`${base}/readyz`)).ok);
  const { events, expected } = traffic();
  await ingest(base, events);
  assert.deepEqual(await endpoints(base), expected);
  // Taken away, ClickHouse makes the container not ready, with the reason, while it stays alive.
  await clickhouse.stop();
  const notReady = await get(`${base}/readyz`);
  assert.equal(notReady.status, 503);
  assert.match(await notReady.text(), /Not ready: ClickHouse/);
  assert.equal((await get(`${base}/healthz`)).status, 200);
  podman('rm', '--force', '--time', '0', 'ops-scaled');
});
