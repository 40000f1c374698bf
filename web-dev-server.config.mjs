// `npm start`: the demo page on mock data (MSW in the browser), and the same handlers over
// real HTTP under /api/v1 (and /api/scenario/<name>/v1) with CORS, so curl or a page on
// another origin can use the mock console API.
import { handlersWithScenarios } from './mocks/scenarios.ts';
import { mockApiMiddleware, nodeResolve, plugins, serveMockWorker } from './scripts/web-config.mjs';

export default {
  port: Number(process.env.PORT ?? 8000),
  hostname: process.env.HOST ?? 'localhost',
  rootDir: '.',
  nodeResolve,
  plugins,
  middleware: [mockApiMiddleware(handlersWithScenarios({ now: () => new Date() })), serveMockWorker],
  watch: false,
};
