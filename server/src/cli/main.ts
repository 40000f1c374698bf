#!/usr/bin/env node
/**
 * `ops-console`: runs the console server from a configuration file and the environment.
 *   ops-console serve [--config FILE]   serve the console API, ingest and OTLP
 *   ops-console migrate [--config FILE] create or update the stores' tables, then exit
 *   ops-console demo                    the demo: seeded history, live traffic and the elements
 * A configuration problem ends the process with status 2 and one line per problem; SIGTERM and
 * SIGINT stop accepting, let requests under way finish (up to `shutdownTimeoutMs`), close the
 * stores and exit 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, ENV_OPTIONS, loadConfig, serverOptions, type ServerConfig } from '../config.ts';

const HELP = `Usage: ops-console <command> [--config FILE]

Commands:
  serve     Serve the console API, ingest and OTLP (until SIGTERM or SIGINT)
  migrate   Create or update the stores' tables, then exit
  demo      Run the demo: a year of history, live traffic and the elements

Options:
  -c, --config FILE   A JSON file with the options of createConsoleServer, plus port and host
                      (also OPS_CONSOLE_CONFIG)
  -h, --help          Show this help
  -v, --version       Show the version

Single values from the environment, over the file's:
${Object.entries(ENV_OPTIONS)
  .map(([name, path]) => `  ${name.padEnd(32)}${path}`)
  .join('\n')}
`;

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Says what is wrong, without a stack trace, and exits with `status`. */
function fail(message: string, status = 1): never {
  process.stderr.write(`ops-console: ${message}\n`);
  process.exit(status);
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.version) return void process.stdout.write(`${version}\n`);
  const [command, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') return void process.stdout.write(HELP);
  if (extra.length) fail(`unexpected ${extra.map((e) => `"${e}"`).join(' ')}\n\n${HELP}`, 2);

  if (command === 'demo') {
    // The demo (its sample APIs and their OpenTelemetry SDK) lives in the repository, not in the package.
    const demo = new URL('../../demo/main.ts', import.meta.url);
    if (!existsSync(demo)) fail('the demo runs from a clone of the repository: git clone it, then npm install && npm start', 2);
    await import(demo.href);
    return;
  }
  if (command !== 'serve' && command !== 'migrate') fail(`no command "${command}"\n\n${HELP}`, 2);

  let config: ServerConfig;
  try {
    config = loadConfig(values.config ?? (process.env['OPS_CONSOLE_CONFIG'] || undefined), process.env, (warning) =>
      process.stderr.write(`ops-console: warning: ${warning}\n`),
    );
  } catch (error) {
    if (error instanceof ConfigError)
      fail(error.problems.length === 1 ? error.message : `${error.message.split(':')[0]}:\n  ${error.problems.join('\n  ')}`, 2);
    throw error;
  }
  if (command === 'migrate') {
    // The server and its stores are loaded only when a command needs them: --help stays instant.
    const { openStores } = await import('../store/open.ts');
    const stores = await openStores(config);
    await stores.close();
    process.stdout.write(`Stores ready: ${config.telemetry ? 'ClickHouse + PostgreSQL' : (config.store ?? 'duckdb:./ops-console.duckdb')}\n`);
    return;
  }
  await serveUntilStopped(config);
}

async function serveUntilStopped(config: ServerConfig): Promise<void> {
  const [{ createConsoleServer }, { serve }, { pino }] = await Promise.all([import('../server.ts'), import('../serve.ts'), import('pino')]);
  const log = pino({ level: config.logLevel, base: { service: 'ops-console' } });
  const server = await createConsoleServer({ ...serverOptions(config), logger: log });
  let http: Awaited<ReturnType<typeof serve>>;
  try {
    http = await serve(server, { port: config.port, hostname: config.host });
  } catch (error) {
    await server.close();
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  log.info({ url: http.url, version }, 'listening');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing requests under way, then closing the stores');
    await http.close({ timeoutMs: config.shutdownTimeoutMs });
    await server.idle();
    await server.close();
    log.info('stopped');
    log.flush(() => process.exit(0));
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main(process.argv.slice(2)).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
