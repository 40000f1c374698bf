// The test command's runner: the browser tests (@web/test-runner in headless Chromium), then
// the Node tests of the built package and of the console server (node:test), and one closing line for both:
// `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'wtr-'));
const summaryFile = join(dir, 'summary.txt');
const browser = spawnSync('web-test-runner', process.argv.slice(2), { stdio: 'inherit', env: { ...process.env, WTR_SUMMARY_FILE: summaryFile } });
const totals = { passed: 0, failed: 0, skipped: 0 };
try {
  const [, passed, failed, skipped] = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(readFileSync(summaryFile, 'utf8'));
  Object.assign(totals, { passed: +passed, failed: +failed, skipped: +skipped });
} catch {
  totals.failed++; // the browser runner died before reporting
}
rmSync(dir, { recursive: true, force: true });

let nodeStatus = 0;
/** Runs node:test files (inside `wrap`, a command that prepares their setting), adding their counts to the totals. */
function runNodeTests(files, wrap = []) {
  const tapFile = join(tmpdir(), 'node-tests.tap');
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
  if (status !== 0) nodeStatus = status;
}

// The package's Node tests, then the console server's (TypeScript, run by Node 24 as is).
const nodeTests = [
  ...readdirSync('test/node')
    .filter((f) => f.endsWith('.test.mjs'))
    .map((f) => join('test/node', f)),
  ...readdirSync('server/test')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join('server/test', f)),
];
// The store suites again, unchanged, on ClickHouse + PostgreSQL servers started for them: one shard, then two.
const storeSuites = ['routes', 'figures', 'windows', 'ingest', 'spikes', 'otlp', 'operations'].map((name) => join('server/test', `${name}.test.ts`));
if (nodeTests.length && !process.argv.includes('--files')) {
  runNodeTests(nodeTests);
  for (const shards of [1, 2]) {
    console.log(`\nThe store suites on ClickHouse (${shards === 1 ? 'one shard' : 'two shards'}) + PostgreSQL:`);
    runNodeTests(storeSuites, [process.execPath, 'server/test/with-databases.ts', '--shards', String(shards), '--']);
  }
  // Current ClickHouse too: chDB (from npm) runs it inside each test process.
  console.log('\nThe store suites on ClickHouse from chDB (in process) + PostgreSQL:');
  runNodeTests(storeSuites, [process.execPath, 'server/test/with-databases.ts', '--chdb', '--']);
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
// Failures counted from the reports fail the run even when a runner's own exit code missed them.
process.exit(browser.status === 0 && nodeStatus === 0 && totals.failed === 0 ? 0 : 1);
