/**
 * Test setup shared by every browser test: the real MSW handlers in a service worker, a
 * fresh mock database before each test, and scenario switching.
 */
import type { RequestHandler } from 'msw';
import type { SetupWorker } from 'msw/browser';
import { startMockWorker } from '../mocks/browser.ts';
import { createMockApi, type MockDb } from '../mocks/handlers.ts';
import { scenarios } from '../mocks/scenarios.ts';

export const API_BASE = '/api/v1';

let worker: SetupWorker;

/** Installs mocha hooks: a fresh mock API before each test. Returns accessors for the current one. */
export interface MockApiAccess {
  readonly db: MockDb;
  /** Puts handlers (e.g. a scenario) in front of the defaults for this test. */
  use: (...handlers: RequestHandler[]) => void;
  /** Removes what `use` added: the server "recovers". */
  resetHandlers: () => void;
  /** Every console API request the page made in this test, in order. */
  requests: URL[];
}

export function useMockApi(): MockApiAccess {
  let db: MockDb;
  const requests: URL[] = [];
  const onRequest = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith(API_BASE)) requests.push(url);
  };
  before(async () => {
    worker = await startMockWorker(createMockApi().handlers);
  });
  beforeEach(() => {
    const api = createMockApi();
    db = api.db;
    requests.length = 0;
    worker.resetHandlers(...api.handlers);
    worker.events.on('request:start', onRequest);
  });
  afterEach(() => {
    worker.events.removeListener('request:start', onRequest);
  });
  return {
    get db() {
      return db;
    },
    use: (...handlers) => worker.use(...handlers),
    resetHandlers: () => worker.resetHandlers(),
    requests,
  };
}

export { scenarios };
