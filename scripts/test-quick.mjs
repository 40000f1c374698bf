// `npm run test:quick -- <target>…`: the tests of one element or one store, in well under a
// minute, with the same closing line as `npm test` (which stays the complete run: type check,
// lint, build, pictures, every store setup). No type check, lint or build first.
//
//   customer-list | ops-customer-list   that element's browser tests (headless Chromium)
//   duckdb | clickhouse | clickhouse-2shards | chdb
//                                       the store suites on that setup
//   clickhouse:figures                  one store suite on one setup
//   period-plan | auth | …              one test file of the console server (server/test)
import { existsSync, readdirSync } from 'node:fs';
import { finish, onDatabases, runBrowserTests, runNodeTests, serverTest, STORE_SUITES } from './test-runs.mjs';

const ELEMENTS = readdirSync('src/elements');
const SERVER_TESTS = readdirSync('server/test')
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => f.slice(0, -'.test.ts'.length));
/** Each store setup, and the wrapper its suites run in (none: the embedded DuckDB). */
const STORES = { duckdb: [], clickhouse: onDatabases(1), 'clickhouse-2shards': onDatabases(2), chdb: onDatabases('chdb') };

const usage = `npm run test:quick -- <target>…
  an element:      ${ELEMENTS.join(', ')}
  a store setup:   ${Object.keys(STORES).join(', ')} (its suites: ${STORE_SUITES.join(', ')}; one of them: clickhouse:figures)
  a server test:   ${SERVER_TESTS.join(', ')}`;

const targets = process.argv.slice(2);
if (!targets.length) {
  console.error(usage);
  process.exit(2);
}

/** Each target as a run: browser files, or node:test files and their wrapper. */
const runs = targets.map((target) => {
  const element = target.replace(/^ops-/, '');
  if (ELEMENTS.includes(element) && existsSync(`src/elements/${element}`)) return { browser: `src/elements/${element}/**/*.test.ts` };
  const [store, suite] = target.split(':');
  if (Object.hasOwn(STORES, store) && (suite === undefined || STORE_SUITES.includes(suite)))
    return { files: (suite ? [suite] : STORE_SUITES).map(serverTest), wrap: STORES[store] };
  if (SERVER_TESTS.includes(target)) return { files: [serverTest(target)], wrap: [] };
  console.error(`No tests named "${target}".\n${usage}`);
  process.exit(2);
});

const browserFiles = runs.flatMap((run) => (run.browser ? ['--files', run.browser] : []));
if (browserFiles.length) runBrowserTests(browserFiles);
for (const run of runs) if (run.files) runNodeTests(run.files, run.wrap);
finish();
