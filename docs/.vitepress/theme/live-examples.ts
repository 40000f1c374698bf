// What the live examples run in the browser: the mock API in MSW's service worker, and every
// element. scripts/docs-reference.mjs bundles it with esbuild into docs/public/live/, so the
// site's own build (Vite) never compiles the elements.
import { startMockWorker } from '../../../mocks/browser.ts';
import { handlers } from '../../../mocks/handlers.ts';
import '../../../src/all.ts';

export const start = (workerUrl: string) => startMockWorker(handlers, { workerUrl });
