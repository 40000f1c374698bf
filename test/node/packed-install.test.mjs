// What a stranger does, from an empty directory outside the repository: install the four packed
// packages with plain npm, run `npx ops-console serve --config c.json`, see /healthz, /readyz and
// /metrics answer, send traffic through the collector, read the figures, open a page that loads
// the elements from the server itself, stop the server with SIGTERM and find every event after
// a restart. On Node 24 and on Node 22 (the LTS lines), the latter brought from npm.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { firstOverviewFigure, launch, open, serve, until } from './browser.mjs';

const root = resolve('.');
const work = mkdtempSync(join(tmpdir(), 'ops-console-adopter-'));
const project = join(work, 'project');
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const npmRun = (args, cwd) =>
  execFileSync(npm[0], [...npm.slice(1), ...args, '--no-audit', '--no-fund'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
/** The Node this test runs on (the project's own, 24), and 22 from npm. */
const nodes = { this: process.execPath, 22: undefined };
let portal;
const pages = {};
let browser;

before(async () => {
  const packs = join(work, 'packs');
  execFileSync(process.execPath, [join(root, 'scripts/pack.mjs'), '--out', packs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const tarballs = readdirSync(packs).map((name) => join(packs, name));
  assert.equal(tarballs.length, 4, tarballs.join(', '));
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'adopter', private: true, type: 'module' }));
  npmRun(['install', ...tarballs], project);
  // Node 22 from npm (its `node` package), allowed its install script.
  const node22 = join(work, 'node22');
  execFileSync('mkdir', ['-p', node22]);
  writeFileSync(join(node22, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }));
  npmRun(['install', 'node@22'], node22);
  nodes[22] = join(node22, 'node_modules/node/bin/node');
  portal = await serve(join(root, 'test/node'), pages);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await portal?.close();
  rmSync(work, { recursive: true, force: true });
});

const version = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
/** Runs `node --input-type=module -e code` in the project; returns its standard output. */
const runIn = (node, code, args = []) => execFileSync(node, ['--input-type=module', '-e', code, ...args], { cwd: project, encoding: 'utf8' });
const npx = process.env.npm_execpath ? [process.execPath, join(dirname(process.env.npm_execpath), 'npx-cli.js')] : ['npx'];
/** The environment of a user of `node`'s line: it first on the PATH, nothing of the repository's (whose node_modules/.bin has an ops-console of its own). */
function userEnv(node) {
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(root));
  const env = { ...process.env, PATH: [dirname(node), ...path].join(delimiter) };
  delete env.OPS_CONSOLE_CONFIG;
  return env;
}
/** Starts `ops-console serve` and resolves with the process and the address its "listening" line names. */
async function startServer(node) {
  // The installed command itself, as a container or a service manager runs it: signals reach it, not an npx in between.
  const child = spawn(join(project, 'node_modules/.bin/ops-console'), ['serve', '--config', 'c.json'], {
    cwd: project,
    env: userEnv(node),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // Every line is read, to the end: a log nobody drains would block the server once the pipe fills.
  const listening = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"msg":"listening"')) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) => reject(new Error(`ops-console serve exited (${code}) before listening: ${stderr}`)));
  });
  try {
    return { child, url: await listening };
  } catch (error) {
    await stop(child);
    throw error;
  }
}
/** SIGTERM, then the exit code (null when a signal ended it); a process already gone answers its code. */
const stop = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  return (await exit)[0];
};
const get = (url, token) => fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });

for (const line of ['this', '22']) {
  test(`Node ${line === 'this' ? process.versions.node.split('.')[0] : line}: the packed packages install with plain npm and do what the deploy docs say`, async () => {
    const node = nodes[line];
    if (line === '22') assert.match(version(node), /^v22\./);
    // Both entry points import as JavaScript: no TypeScript under node_modules.
    const exported = JSON.parse(
      runIn(
        node,
        `const server = await import('@ops-console/server'); const collect = await import('@ops-console/server/collect');
         console.log(JSON.stringify({ server: Object.keys(server), collect: Object.keys(collect) }));`,
      ),
    );
    for (const name of ['createConsoleServer', 'serve', 'createCollector']) assert.ok(exported.server.includes(name), name);
    for (const name of ['createCollector', 'collectHttp', 'collectExpress', 'closeOnSignals']) assert.ok(exported.collect.includes(name), name);

    // npx finds the installed command, run by this Node line.
    const npxVersion = execFileSync(npx[0], [...npx.slice(1), 'ops-console', '--version'], { cwd: project, env: userEnv(node), encoding: 'utf8' });
    assert.equal(npxVersion.trim(), JSON.parse(readFileSync(join(root, 'server/package.json'), 'utf8')).version);

    const data = `data-${line}`;
    writeFileSync(
      join(project, 'c.json'),
      JSON.stringify({
        port: 0,
        host: '127.0.0.1',
        store: `duckdb:./${data}/ops.duckdb`,
        auth: { tokens: { tok_3f9a1c7e5b2d8046: { accountId: 'acct_1', user: { id: 'u1', name: 'Ana Silva' } } } },
        ingestKeys: { ik_8c2e4a6f0b1d3957: 'acct_1' },
        corsOrigins: [portal.origin],
        metrics: { token: 'mt_5a7c9e1b3d2f4068' },
      }),
      // It holds secrets: its owner's to read and change, as the deploy docs say.
      { mode: 0o600 },
    );
    execFileSync('mkdir', ['-p', join(project, data)]);
    let { child, url } = await startServer(node);
    try {
      assert.deepEqual(await (await get(`${url}/healthz`)).json(), { status: 'ok' });
      assert.equal((await get(`${url}/readyz`)).status, 200);
      assert.equal((await get(`${url}/metrics`)).status, 401, '/metrics wants its token');

      // An API of the adopter's: node:http with the collector, called 9 times (3 of them 5xx).
      const sent = runIn(
        node,
        `import { createServer } from 'node:http';
         import { collectHttp, createCollector } from '@ops-console/server/collect';
         const collector = createCollector({ sink: { url: process.argv[1], ingestKey: 'ik_8c2e4a6f0b1d3957' } });
         const api = createServer(collectHttp(collector, (req, res) => { res.statusCode = req.url.startsWith('/fail') ? 503 : 200; res.end('ok'); },
           { route: (req) => req.url.startsWith('/fail') ? '/fail' : '/things/{id}' }));
         await new Promise((r) => api.listen(0, '127.0.0.1', r));
         const base = 'http://127.0.0.1:' + api.address().port;
         for (let i = 0; i < 9; i++) await (await fetch(base + (i % 3 === 0 ? '/fail' : '/things/' + i))).text();
         await collector.close();
         api.close();
         console.log(JSON.stringify(collector.stats()));`,
        [url],
      );
      assert.equal(JSON.parse(sent).sent, 9, sent);

      const figures = async () => (await (await get(`${url}/console/v1/overview`, 'tok_3f9a1c7e5b2d8046')).json()).figures;
      assert.equal((await figures()).requestsThisMonth.value, 9);
      const metrics = await (await get(`${url}/metrics`, 'mt_5a7c9e1b3d2f4068')).text();
      assert.match(metrics, /^ops_console_ingest_events_total\{[^}]*outcome="accepted"[^}]*\} 9$/m);

      // A portal on another origin loads the elements from this server and shows the figure.
      pages[`/portal-${line}.html`] = `<!doctype html><meta charset="utf-8"><title>Portal</title><link rel="icon" href="data:,">
        <ops-console routing="hash" api-base="${url}/console/v1" locale="en-US"></ops-console>
        <script type="module">
          document.querySelector('ops-console').getToken = async () => 'tok_3f9a1c7e5b2d8046';
          await import('${url}/elements/ops-console.js');
        </script>`;
      const { page, errors, requests } = await open(browser, `${portal.origin}/portal-${line}.html`);
      await until(page, firstOverviewFigure);
      assert.equal(await page.evaluate(firstOverviewFigure), '9');
      const scripts = requests.filter((address) => /\.js(\?|$)/.test(address));
      assert.deepEqual(
        scripts.filter((address) => !address.startsWith(`${url}/elements/`)),
        [],
        'every script from the console server',
      );
      assert.deepEqual(errors, []);
      await page.close();

      assert.equal(await stop(child), 0, 'SIGTERM ends the server with exit code 0');
      ({ child, url } = await startServer(node));
      assert.equal((await figures()).requestsThisMonth.value, 9, 'every event is there after the restart');
    } finally {
      await stop(child);
    }
  });
}
