// What both test commands share: running the browser tests (@web/test-runner in headless
// Chromium) and node:test files, adding up their counts, and the one closing line,
// `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const totals = { passed: 0, failed: 0, skipped: 0 };
let exitStatus = 0;

/** Runs the browser tests, with `args` for web-test-runner (`--files …`). */
export function runBrowserTests(args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'wtr-'));
  const summaryFile = join(dir, 'summary.txt');
  const browser = spawnSync('web-test-runner', args, { stdio: 'inherit', env: { ...process.env, WTR_SUMMARY_FILE: summaryFile } });
  try {
    const [, passed, failed, skipped] = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(readFileSync(summaryFile, 'utf8'));
    totals.passed += +passed;
    totals.failed += +failed;
    totals.skipped += +skipped;
  } catch {
    totals.failed++; // the browser runner died before reporting
  }
  rmSync(dir, { recursive: true, force: true });
  if (browser.status !== 0) exitStatus = browser.status ?? 1;
}

/** Runs node:test files (inside `wrap`, a command that prepares their setting), adding their counts to the totals. */
export function runNodeTests(files, wrap = []) {
  const tapFile = join(tmpdir(), `node-tests-${process.pid}.tap`);
  const run = spawnSync(
    wrap[0] ?? process.execPath,
    [
      ...(wrap.length ? [...wrap.slice(1), process.execPath] : []),
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      '--test-reporter-destination=' + tapFile,
      ...files,
    ],
    { stdio: 'inherit' },
  );
  const status = run.status ?? 1;
  let tap = '';
  try {
    tap = readFileSync(tapFile, 'utf8');
    rmSync(tapFile);
  } catch {
    // the run died before writing its report: counted as a failure below
  }
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(tap)?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + count('cancelled');
  totals.skipped += count('skipped') + count('todo');
  if (status !== 0 && count('fail') + count('cancelled') === 0) totals.failed++;
  if (status !== 0) exitStatus = status;
}

/**
 * Runs the Python collector's pytest suite on Debian's Python (OPS_CONSOLE_PYTHON), adding the
 * counts of its closing line (`3 passed, 1 skipped in 2.1s`).
 */
export function runPytest(dir) {
  const python = process.env.OPS_CONSOLE_PYTHON || '/usr/bin/python3';
  const run = spawnSync(python, ['-m', 'pytest', dir, '-q', '-p', 'no:cacheprovider'], {
    encoding: 'utf8',
    env: { ...process.env, OPS_CONSOLE_NODE: process.execPath },
  });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  const summary = (run.stdout ?? '').trim().split('\n').at(-1) ?? '';
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  totals.passed += count('passed');
  totals.failed += count('failed') + count('errors?');
  totals.skipped += count('skipped') + count('xfailed');
  if (run.status !== 0 && count('failed') + count('errors?') === 0) totals.failed++;
  if (run.status !== 0) exitStatus = run.status ?? 1;
}

/** Runs `go test -json ./...` in each Go module (offline, with the modules' replace directives), adding each test's outcome. */
export function runGoTests(dirs) {
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOSUMDB: 'off', OPS_CONSOLE_NODE: process.execPath };
  for (const dir of dirs) {
    const run = spawnSync('go', ['test', '-json', './...'], { cwd: dir, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
    let failed = 0;
    for (const line of (run.stdout ?? '').split('\n')) {
      if (!line.startsWith('{')) continue;
      const event = JSON.parse(line);
      if (event.Action === 'output' && (event.Test === undefined || /^\s*(---|panic|FAIL)/.test(event.Output))) process.stdout.write(event.Output);
      if (!event.Test || !['pass', 'fail', 'skip'].includes(event.Action)) continue;
      if (event.Action === 'pass') totals.passed++;
      if (event.Action === 'skip') totals.skipped++;
      if (event.Action === 'fail') failed++;
    }
    process.stderr.write(run.stderr ?? '');
    totals.failed += failed || (run.status === 0 ? 0 : 1);
    if (run.status !== 0) exitStatus = run.status ?? 1;
  }
}

/** The store suites: the console server's tests that run unchanged on every store setup. */
export const STORE_SUITES = [
  'routes',
  'figures',
  'windows',
  'ingest',
  'spikes',
  'otlp',
  'operations',
  'deprecations',
  'rate-limits',
  'keys',
  'access',
  'alerts',
  'payloads',
];
export const serverTest = (name) => join('server/test', `${name}.test.ts`);
/** The wrapper that runs node:test files on ClickHouse 18.16 (`shards`) or chDB, with PostgreSQL. */
export const onDatabases = (setup) => [
  process.execPath,
  'server/test/with-databases.ts',
  ...(setup === 'chdb' ? ['--chdb'] : ['--shards', String(setup)]),
  '--',
];

/** Prints the closing line and exits; failures counted from the reports fail the run even when a runner's own exit code missed them. */
export function finish() {
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(exitStatus === 0 && totals.failed === 0 ? 0 : 1);
}
