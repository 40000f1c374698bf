// What an adopter of the collector alone does, from an empty directory outside the repository:
// install the packed @ops-console/collect and Express with plain npm, and run an Express API on the
// system's Node 20 and on the project's Node 24. Its requests reach a real console server, which
// counts each one under its route, status and version, with the secrets of its bodies masked.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';

const root = resolve('.');
const work = mkdtempSync(join(tmpdir(), 'ops-console-collect-'));
const api = join(work, 'api');
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const npmRun = (args, cwd) =>
  execFileSync(npm[0], [...npm.slice(1), ...args, '--no-audit', '--no-fund'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const TOKEN = 'collect-package-token';
const INGEST_KEY = 'collect-package-ingest-key';
let consoleServer;

/** The system's Node 20 (the one on the PATH outside the repository), or else Node 20 from npm. */
function node20() {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter((d) => d && !d.startsWith(root))) {
    const found = spawnSync(join(dir, 'node'), ['--version'], { encoding: 'utf8' });
    if (found.stdout?.startsWith('v20.')) return join(dir, 'node');
  }
  const dir = join(work, 'node20');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }));
  npmRun(['install', 'node@20'], dir);
  return join(dir, 'node_modules/node/bin/node');
}

/** Starts `cmd args` and resolves once a line of its output matches `pattern`, with the match. */
async function started(command, args, options, pattern) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const match = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const found = pattern.exec(line);
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${stderr}`)));
  });
  return { child, match, stderr: () => stderr };
}

const read = async (path) => {
  const response = await fetch(`${consoleServer.url}/console/v1${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200, path);
  return response.json();
};

before(async () => {
  const packs = join(work, 'packs');
  execFileSync(process.execPath, [join(root, 'scripts/pack.mjs'), '--only', 'collect', '--out', packs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const [tarball] = readdirSync(packs).map((name) => join(packs, name));
  mkdirSync(api);
  writeFileSync(join(api, 'package.json'), JSON.stringify({ name: 'adopter-api', private: true, type: 'module' }));
  npmRun(['install', tarball, 'express@5'], api);
  copyFileSync(join(root, 'test/node/fixtures/collect-express-api.mjs'), join(api, 'api.mjs'));
  const config = join(work, 'console.json');
  writeFileSync(
    config,
    JSON.stringify({
      port: 0,
      host: '127.0.0.1',
      store: `duckdb:${join(work, 'ops.duckdb')}`,
      auth: { tokens: { [TOKEN]: { accountId: 'acct_1', user: { id: 'u_ops', name: 'Operations' } } } },
      ingestKeys: { [INGEST_KEY]: 'acct_1' },
    }),
  );
  const server = await started(process.execPath, [join(root, 'server/src/cli/main.ts'), 'serve', '--config', config], {}, /^\{.*"msg":"listening"/);
  consoleServer = { child: server.child, url: JSON.parse(server.match.input).url };
});
after(async () => {
  consoleServer?.child.kill('SIGTERM');
  if (consoleServer && consoleServer.child.exitCode === null) await once(consoleServer.child, 'exit');
  rmSync(work, { recursive: true, force: true });
});

test('installed alone, the collector brings no dependency and takes well under 1 MB', () => {
  const installed = JSON.parse(npmRun(['ls', '--all', '--json', '@ops-console/collect'], api));
  assert.deepEqual(Object.keys(installed.dependencies['@ops-console/collect'].dependencies ?? {}), [], 'no dependencies of its own');
  const folder = join(api, 'node_modules/@ops-console/collect');
  const bytes = readdirSync(folder, { recursive: true })
    .map((name) => statSync(join(folder, name)))
    .filter((s) => s.isFile())
    .reduce((sum, s) => sum + s.size, 0);
  assert.ok(bytes < 512 * 1024, `${bytes} bytes installed`);
});

for (const [line, node] of [
  ['the system’s Node 20', node20],
  ['the project’s Node 24', () => process.execPath],
]) {
  test(`on ${line}, an Express API’s requests are counted exactly, and its secrets never leave it`, async () => {
    const binary = node();
    const major = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().split('.')[0];
    const version = `n${major}`; // each run counts under a version of its own
    const app = await started(
      binary,
      ['api.mjs'],
      { cwd: api, env: { ...process.env, CONSOLE_URL: consoleServer.url, INGEST_KEY, API_VERSION: version } },
      /^port (\d+)$/,
    );
    const origin = `http://127.0.0.1:${app.match[1]}`;
    const sent = { contacts: 5, created: 3, refused: 2, broken: 2, missing: 1 };
    const call = async (path, init) => (await fetch(origin + path, init)).status;
    const order = (body) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_secret_1' },
      body: JSON.stringify(body),
    });
    const statuses = [];
    for (let i = 0; i < sent.contacts; i++) statuses.push(await call(`/contacts/c_${i}`, { headers: { 'x-key-id': 'key_1' } }));
    for (let i = 0; i < sent.created; i++) statuses.push(await call('/orders', order({ items: [i], password: 'pw_secret_2', card: '4242 4242 4242 4242' })));
    for (let i = 0; i < sent.refused; i++) statuses.push(await call('/orders', order({ password: 'pw_secret_2' })));
    for (let i = 0; i < sent.broken; i++) statuses.push(await call('/broken'));
    for (let i = 0; i < sent.missing; i++) statuses.push(await call('/nowhere'));
    assert.deepEqual(statuses, [...Array(5).fill(200), ...Array(3).fill(201), ...Array(2).fill(422), ...Array(2).fill(500), 404]);
    // SIGTERM: the collector sends what waits, then the API ends.
    app.child.kill('SIGTERM');
    const [code, signal] = await once(app.child, 'exit');
    assert.ok(code === 0 || signal === 'SIGTERM', `the API ended (${code ?? signal}): ${app.stderr()}`);
    assert.equal(app.stderr(), '', 'the collector told of no problem');

    const { items } = await read('/requests?limit=100');
    const detailed = await Promise.all(items.map((r) => read(`/requests/${r.id}`)));
    const mine = detailed.filter((d) => d.apiVersion === version);
    const count = (route, status) => mine.filter((d) => d.route === route && d.status === status).length;
    assert.deepEqual(
      [count('/contacts/:id', 200), count('/orders', 201), count('/orders', 422), count('/broken', 500), mine.filter((d) => d.status === 404).length],
      [sent.contacts, sent.created, sent.refused, sent.broken, sent.missing],
    );
    assert.equal(mine.length, statuses.length, 'every request, once');
    assert.deepEqual(new Set(mine.filter((d) => d.route === '/contacts/:id').map((d) => d.keyId)), new Set(['key_1']));
    const text = JSON.stringify(mine);
    for (const secret of ['sk_live_secret_1', 'pw_secret_2', '4242 4242']) assert.ok(!text.includes(secret), `${secret} was stored`);
    const created = mine.find((d) => d.status === 201);
    assert.deepEqual(JSON.parse(created.requestBody.text), { items: [Number(/\d/.exec(created.requestBody.text)[0])], password: '[masked]', card: '[masked]' });
    assert.deepEqual(created.headers, [
      { name: 'content-type', value: 'application/json' },
      { name: 'authorization', value: '[masked]' },
    ]);
  });
}
