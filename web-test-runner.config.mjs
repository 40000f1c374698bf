import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { handlersWithScenarios } from './mocks/scenarios.ts';
import { chromiumArgs, chromiumPath, mockApiMiddleware, nodeResolve, plugins, serveMockWorker } from './scripts/web-config.mjs';
import { summaryReporter } from './scripts/summary-reporter.mjs';
import { consoleServerPlugin } from './scripts/console-server-plugin.mjs';

// A fixed port, so the real console server can allow exactly the test page's origin.
const port = Number(process.env.WTR_PORT ?? 8000);

export default {
  files: ['src/**/*.test.ts', 'mocks/**/*.test.ts', 'test/**/*.test.ts'],
  nodeResolve,
  port,
  plugins: [...plugins, consoleServerPlugin({ pageOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`] })],
  // The mock API over real HTTP too, as `npm start` serves it (tests reach it with msw's bypass()).
  middleware: [mockApiMiddleware(handlersWithScenarios()), serveMockWorker],
  // One page at a time: a page left in the background stops getting animation frames, which charts need.
  concurrency: 1,
  // A whole file's budget. The bad-input matrix (test/hardening.test.ts: every element × every
  // bad answer × two themes, each checked by axe) ran past 300 s on two shared cores with a
  // second build running, and its tests went unreported. A hung test still fails after the
  // per-test minute below; this bound only catches a file that never ends.
  testsFinishTimeout: 1_200_000,
  testFramework: { config: { timeout: 60_000 } },
  browsers: [chromeLauncher({ launchOptions: { executablePath: chromiumPath, headless: true, args: chromiumArgs } })],
  reporters: [defaultReporter(), summaryReporter()],
};
