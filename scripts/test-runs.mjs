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
