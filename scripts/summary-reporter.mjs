import { writeFileSync } from 'node:fs';

// @web/test-runner prints no closing count; CI reads a plain `N passed, N failed` line.
function count(suite, totals) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite?.suites ?? []) count(child, totals);
}

/**
 * Counts the run. With WTR_SUMMARY_FILE set (scripts/run-tests.mjs sets it), the line is
 * written there so the wrapper can print it as the very last line; otherwise it is printed.
 */
export function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        count(session.testResults, totals);
        // A file that failed to load, or threw outside a test, counts as a failure.
        if (!session.passed && !session.testResults?.tests?.length && !session.testResults?.suites?.length) totals.failed++;
        else if ((session.errors ?? []).length) totals.failed++;
      }
      const line = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
      if (process.env.WTR_SUMMARY_FILE) writeFileSync(process.env.WTR_SUMMARY_FILE, line);
      else process.stdout.write(`\n${line}\n`);
    },
  };
}
