import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumArgs, chromiumPath, nodeResolve, plugins, serveMockWorker } from './scripts/web-config.mjs';
import { summaryReporter } from './scripts/summary-reporter.mjs';

export default {
  files: ['src/**/*.test.ts', 'mocks/**/*.test.ts', 'test/**/*.test.ts'],
  nodeResolve,
  plugins,
  middleware: [serveMockWorker],
  concurrency: 2,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10_000 } },
  browsers: [chromeLauncher({ launchOptions: { executablePath: chromiumPath, headless: true, args: chromiumArgs } })],
  reporters: [defaultReporter(), summaryReporter()],
};
