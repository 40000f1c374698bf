/** Starts the mock API in a browser page through MSW's service worker. */
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { RequestHandler } from 'msw';

let worker: SetupWorker | undefined;
let started: Promise<unknown> | undefined;

export async function startMockWorker(handlers: RequestHandler[], { quiet = true } = {}): Promise<SetupWorker> {
  worker ??= setupWorker(...handlers);
  started ??= worker.start({ quiet, onUnhandledFrame: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
  await started;
  return worker;
}
