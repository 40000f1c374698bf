// Shared by web-test-runner.config.mjs and web-dev-server.config.mjs: TypeScript through
// esbuild (legacy decorators from tsconfig.json), browser builds of packages, and the MSW
// worker script served from the site root so its scope covers every page.
import { readFile } from 'node:fs/promises';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { respondFromHandlers } from '../mocks/node.ts';

/**
 * ECharts' and TanStack Virtual's ES modules read `process.env.NODE_ENV`, which bundlers replace; the unbundled dev
 * server and test runner do the same replacement here.
 */
const nodeEnvPlugin = {
  name: 'replace-node-env',
  transform(context) {
    if (/\/node_modules\/(echarts|zrender|@tanstack\/virtual-core)\//.test(context.path) && typeof context.body === 'string') {
      return { body: context.body.replace(/process\.env\.NODE_ENV/g, '"development"') };
    }
  },
};

export const plugins = [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: new URL('../tsconfig.json', import.meta.url).pathname }), nodeEnvPlugin];

export const nodeResolve = { browser: true, exportConditions: ['browser', 'development'] };

const workerScript = new URL('../public/mockServiceWorker.js', import.meta.url);

/** Serves the MSW worker at /mockServiceWorker.js. */
export async function serveMockWorker(context, next) {
  if (context.path === '/mockServiceWorker.js') {
    context.type = 'application/javascript';
    context.set('Service-Worker-Allowed', '/');
    context.body = await readFile(workerScript, 'utf8');
    return;
  }
  return next();
}

/** Chromium from the system (apt's /usr/bin/chromium) with the flags this sandbox needs. */
export const chromiumPath = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Test pages run side by side; a page in the background must keep its timers and frames.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/**
 * Serves MSW handlers over real HTTP under /api/ (with CORS), so curl or a page on another
 * origin can use the mock console API. Unmatched /api/ paths get a problem+json 404.
 */
export function mockApiMiddleware(handlers) {
  return async function serveMockApi(context, next) {
    if (!context.path.startsWith('/api/')) return next();
    context.respond = false; // the raw Node response is written by respondFromHandlers
    const handled = await respondFromHandlers(handlers, context.req, context.res, `http://${context.host}`);
    if (!handled) {
      context.res.writeHead(404, { 'Content-Type': 'application/problem+json', 'Access-Control-Allow-Origin': '*' });
      context.res.end(JSON.stringify({ type: 'about:blank', title: 'Not found', status: 404, detail: `No mock route for ${context.path}.` }));
    }
  };
}
