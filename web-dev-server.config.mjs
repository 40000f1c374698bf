// `npm start`: the demo page on mock data (MSW in the browser), and the same handlers over
// real HTTP under /api/v1 (and /api/scenario/<name>/v1) with CORS, so curl or a page on
// another origin can use the mock console API.
import { respondFromHandlers } from './mocks/node.ts';
import { handlersWithScenarios } from './mocks/scenarios.ts';
import { nodeResolve, plugins, serveMockWorker } from './scripts/web-config.mjs';

const port = Number(process.env.PORT ?? 8000);
const handlers = handlersWithScenarios({ now: () => new Date() });

async function serveMockApi(context, next) {
  if (!context.path.startsWith('/api/')) return next();
  context.respond = false; // the raw Node response is written below
  const handled = await respondFromHandlers(handlers, context.req, context.res, `http://${context.host}`);
  if (!handled) {
    context.res.writeHead(404, { 'Content-Type': 'application/problem+json', 'Access-Control-Allow-Origin': '*' });
    context.res.end(JSON.stringify({ type: 'about:blank', title: 'Not found', status: 404, detail: `No mock route for ${context.path}.` }));
  }
}

export default {
  port,
  hostname: process.env.HOST ?? 'localhost',
  rootDir: '.',
  nodeResolve,
  plugins,
  middleware: [serveMockApi, serveMockWorker],
  watch: false,
};
