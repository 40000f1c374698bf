/** Starts the mock API in a browser page through MSW's service worker. */
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { RequestHandler } from 'msw';

let worker: SetupWorker | undefined;
let started: Promise<unknown> | undefined;

export async function startMockWorker(handlers: RequestHandler[], { quiet = true, workerUrl = '/mockServiceWorker.js' } = {}): Promise<SetupWorker> {
  worker ??= setupWorker(...handlers);
  started ??= withHandledWorkerUpdate(() => worker!.start({ quiet, onUnhandledFrame: 'bypass', serviceWorker: { url: workerUrl } }));
  await started;
  return worker;
}

/**
 * MSW re-checks an existing worker with `registration.update()` and does not wait for it
 * (mswjs/msw#2006). When that check fails — the server is between pages, or offline — the
 * rejection has no handler and reaches the page as an unhandled rejection, although the
 * registered worker keeps serving. While MSW starts, that one call gets a handler that says so.
 */
async function withHandledWorkerUpdate<T>(start: () => Promise<T>): Promise<T> {
  const prototype = ServiceWorkerRegistration.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const update = prototype.update;
  prototype.update = function (this: ServiceWorkerRegistration) {
    const checked = update.call(this);
    checked.catch((error: unknown) => console.warn('[mock API] The mock worker could not be re-checked; the registered one keeps serving.', error));
    return checked;
  };
  try {
    return await start();
  } finally {
    prototype.update = update;
  }
}
