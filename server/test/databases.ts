/**
 * Real database servers for the tests and the bench: ClickHouse (one process per shard) and
 * PostgreSQL, each from Debian's packages, on loopback ports, in a temporary directory that
 * stopping removes. `stop()` and `start()` again keep the data, so a test can take a server away
 * mid-run and bring it back.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface DatabaseProcess {
  /** The URL a store is configured with. */
  url: string;
  /** Starts the servers that are not running. */
  start(): Promise<void>;
  /** Kills the server (of a cluster: every shard, or only shard `only`, 0-based), keeping its files. */
  stop(only?: number): Promise<void>;
  /** Stops the server for good and removes its files. */
  dispose(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, ready: () => Promise<boolean>, exited: () => string | undefined, seconds = 60): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const gone = exited();
    if (gone) throw new Error(`${what} exited while starting: ${gone}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start within ${seconds} s.`);
}

export const hasClickHouse = () => existsSync('/usr/bin/clickhouse-server') || existsSync('/usr/bin/clickhouse');
export const postgresBin = (): string | undefined => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  return version && existsSync(join(root, version, 'bin', 'pg_ctl')) ? join(root, version, 'bin') : undefined;
};

/**
 * `shards` ClickHouse processes that know each other as the cluster `ops_console` (for the
 * `Distributed` tables); the URL lists every shard's HTTP address, so the store can create its
 * local tables on each.
 */
export async function startClickHouse({ shards = 1, database = 'ops_console' } = {}): Promise<DatabaseProcess> {
  const root = mkdtempSync(join(tmpdir(), 'ops-console-clickhouse-'));
  const nodes: { dir: string; http: number; tcp: number; interserver: number }[] = [];
  for (let i = 0; i < shards; i++)
    nodes.push({ dir: join(root, `shard${i + 1}`), http: await freePort(), tcp: await freePort(), interserver: await freePort() });
  const cluster = nodes.map((n) => `<shard><replica><host>127.0.0.1</host><port>${n.tcp}</port></replica></shard>`).join('');
  for (const node of nodes) {
    mkdirSync(join(node.dir, 'tmp'), { recursive: true });
    writeFileSync(
      join(node.dir, 'users.xml'),
      `<yandex><profiles><default/></profiles><quotas><default/></quotas>
       <users><default><password></password><networks><ip>::/0</ip></networks><profile>default</profile><quota>default</quota></default></users></yandex>`,
    );
    writeFileSync(
      join(node.dir, 'config.xml'),
      `<yandex>
         <logger><level>warning</level><log>${node.dir}/server.log</log><errorlog>${node.dir}/error.log</errorlog></logger>
         <http_port>${node.http}</http_port><tcp_port>${node.tcp}</tcp_port><interserver_http_port>${node.interserver}</interserver_http_port>
         <listen_host>127.0.0.1</listen_host>
         <path>${node.dir}/</path><tmp_path>${node.dir}/tmp/</tmp_path>
         <users_config>${node.dir}/users.xml</users_config>
         <mark_cache_size>268435456</mark_cache_size>
         <remote_servers><ops_console>${cluster}</ops_console></remote_servers>
       </yandex>`,
    );
  }
  let processes: { child: ChildProcess; exit?: string }[] = [];
  const running = (entry: { child: ChildProcess; exit?: string } | undefined) =>
    entry !== undefined && entry.exit === undefined && entry.child.exitCode === null;
  // Starting a server that runs already leaves it be: a second process could not bind its ports,
  // while the first answered the readiness check and would be lost to stop() and dispose().
  const start = async () => {
    processes = nodes.map((node, i) => {
      if (running(processes[i])) return processes[i]!;
      const child = spawn('clickhouse-server', [`--config-file=${node.dir}/config.xml`], { cwd: node.dir, stdio: 'ignore' });
      const entry: { child: ChildProcess; exit?: string } = { child };
      child.once('exit', (code, signal) => (entry.exit = `code ${code} ${signal ?? ''}`));
      child.once('error', (error) => (entry.exit = error.message));
      return entry;
    });
    await Promise.all(
      nodes.map((node, i) =>
        waitFor(
          `clickhouse-server on port ${node.http}`,
          async () => (await fetch(`http://127.0.0.1:${node.http}/ping`)).ok,
          () => processes[i]!.exit,
        ),
      ),
    );
  };
  /** Kills every shard's server, or only shard `only` (0-based). */
  const stop = async (only?: number) => {
    await Promise.all(
      processes.map(
        ({ child, exit }, i) =>
          new Promise<void>((resolve) => {
            if ((only !== undefined && i !== only) || exit !== undefined || child.exitCode !== null) {
              resolve();
              return;
            }
            child.once('exit', () => resolve());
            // Killed, not asked to finish: a server that goes away mid-run keeps only what it had written.
            child.kill('SIGKILL');
          }),
      ),
    );
  };
  await start();
  return {
    url: `clickhouse://${nodes.map((n) => `127.0.0.1:${n.http}`).join(',')}/${database}${shards > 1 ? '?cluster=ops_console' : ''}`,
    start,
    stop,
    async dispose() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** One PostgreSQL server (`initdb` + `pg_ctl`; as root they run as the `postgres` user, which PostgreSQL insists on). */
export async function startPostgres({ database = 'ops_console' } = {}): Promise<DatabaseProcess> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql).');
  const dir = mkdtempSync(join(tmpdir(), 'ops-console-postgres-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    execFileAsync(asRoot ? 'runuser' : join(bin, tool), asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args, { cwd: tmpdir() });
  await run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'ops', '--no-sync']);
  const start = async () => {
    await run('pg_ctl', [
      '-D',
      join(dir, 'data'),
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  };
  const stop = async () => {
    try {
      await run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  await start();
  await run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'ops', database]);
  return {
    url: `postgres://ops@127.0.0.1:${port}/${database}`,
    start,
    stop,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
