// `npm test`'s runner, after the type check, lint and build: every browser test, then the Node
// tests of the built package and of the console server, then the store suites again on
// ClickHouse + PostgreSQL and on chDB, then the Python and Go collectors' suites; one closing line
// for all: `N passed, N failed, N skipped`.
// With `--files <glob>` (test:browser), only those browser tests.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { finish, onDatabases, runBrowserTests, runGoTests, runNodeTests, runPytest, serverTest, STORE_SUITES } from './test-runs.mjs';

runBrowserTests(process.argv.slice(2));

if (!process.argv.includes('--files')) {
  // The package's Node tests, then the console server's (TypeScript, run by Node 24 as is).
  runNodeTests([
    ...readdirSync('test/node')
      .filter((f) => f.endsWith('.test.mjs'))
      .map((f) => join('test/node', f)),
    ...readdirSync('server/test')
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join('server/test', f)),
  ]);
  // The store suites again, unchanged, on ClickHouse + PostgreSQL servers started for them: one shard, then two.
  for (const shards of [1, 2]) {
    console.log(`\nThe store suites on ClickHouse (${shards === 1 ? 'one shard' : 'two shards'}) + PostgreSQL:`);
    runNodeTests(STORE_SUITES.map(serverTest), onDatabases(shards));
  }
  // Current ClickHouse too: chDB (from npm) runs it inside each test process.
  console.log('\nThe store suites on ClickHouse from chDB (in process) + PostgreSQL:');
  runNodeTests(STORE_SUITES.map(serverTest), onDatabases('chdb'));
  // The native collectors, each against a console server its suite starts.
  console.log('\nThe Python collector (pytest, on Debian’s Python):');
  runPytest('collectors/python/tests');
  console.log('\nThe Go collector (go test, per module):');
  runGoTests(['collectors/go', 'collectors/go/chi', 'collectors/go/gorillamux']);
}

finish();
