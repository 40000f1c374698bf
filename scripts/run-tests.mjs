// Runs @web/test-runner and prints its `N passed, N failed, N skipped` count as the closing
// line (the runner's own progress output would otherwise come after it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'wtr-'));
const summaryFile = join(dir, 'summary.txt');
const result = spawnSync('web-test-runner', process.argv.slice(2), {
  stdio: 'inherit',
  env: { ...process.env, WTR_SUMMARY_FILE: summaryFile },
});
let line;
try {
  line = readFileSync(summaryFile, 'utf8');
} catch {
  line = '0 passed, 1 failed, 0 skipped'; // the runner died before reporting
}
rmSync(dir, { recursive: true, force: true });
console.log(`\n${line}`);
process.exit(result.status ?? 1);
