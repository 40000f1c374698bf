/**
 * Error spikes, detected by the server from the events: after each ingest, an endpoint whose
 * last five minutes hold at least `minErrors` server errors making up `minErrorPct` of its
 * requests gets one "error-spike" activity item (at most one per endpoint per hour).
 *
 * The checks run in the background, never on an ingest response's path: each batch hands over
 * at most `SPIKE.perBatch` endpoints (those with the most server errors in it), an account keeps
 * at most `SPIKE.perAccount` waiting, and one worker takes one endpoint from each waiting
 * account in turn, so a tenant sending thousands of failing routes delays only its own checks.
 */
import { endpointLabel } from './context.ts';
import type { Stores } from './store/types.ts';
import { recordActivity } from './domain/activity-log.ts';
import { readsOf } from './domain/reads.ts';

const WINDOW_MS = 5 * 60_000;
const QUIET_MS = 60 * 60_000;
export const SPIKE = { minErrors: 10, minErrorPct: 10, perBatch: 50, perAccount: 200 };
const SYSTEM = { id: 'ops-console', name: 'Ops Console' };

type Endpoint = { method: string; route: string };

export interface SpikeWatch {
  /** Queues the endpoints of a batch's server errors for a check; returns at once. */
  notice(accountId: string, errors: readonly Endpoint[]): void;
  /** Resolves when every check queued so far has run. */
  idle(): Promise<void>;
  /** Stops taking new checks and waits for the one running. */
  close(): Promise<void>;
}

export function createSpikeWatch(stores: Stores, clock: () => number, onError: (error: unknown) => void = console.error): SpikeWatch {
  /** Per account, the endpoints waiting for a check, by label (a label waits once). */
  const waiting = new Map<string, Map<string, Endpoint>>();
  /** The accounts in line: the one being checked joins the back once its check is done. */
  const line: string[] = [];
  let running: Promise<void> | undefined;
  let closed = false;

  async function work(): Promise<void> {
    for (let accountId = line.shift(); accountId !== undefined && !closed; accountId = line.shift()) {
      const endpoints = waiting.get(accountId)!;
      const [label, endpoint] = endpoints.entries().next().value!;
      endpoints.delete(label);
      try {
        await check(stores, accountId, endpoint, clock());
      } catch (error) {
        // A failed check must not stop the others (nor ever reach an ingest response).
        onError(error);
      }
      if (endpoints.size) line.push(accountId);
      else waiting.delete(accountId);
    }
  }

  /** Runs the worker unless it runs; an account that joined the line as it was ending gets a new one. */
  function start(): void {
    running ??= work().finally(() => {
      running = undefined;
      if (line.length && !closed) start();
    });
  }

  return {
    notice(accountId, errors) {
      if (closed || !errors.length) return;
      const perLabel = new Map<string, { endpoint: Endpoint; errors: number }>();
      for (const { method, route } of errors) {
        const label = endpointLabel(method, route);
        const seen = perLabel.get(label);
        if (seen) seen.errors++;
        else perLabel.set(label, { endpoint: { method, route }, errors: 1 });
      }
      const mostErrors = [...perLabel].sort((a, b) => b[1].errors - a[1].errors).slice(0, SPIKE.perBatch);
      let endpoints = waiting.get(accountId);
      if (!endpoints) {
        waiting.set(accountId, (endpoints = new Map<string, Endpoint>()));
        line.push(accountId);
      }
      for (const [label, { endpoint }] of mostErrors) {
        if (endpoints.size >= SPIKE.perAccount) break;
        endpoints.set(label, endpoint);
      }
      start();
    },
    idle: async () => {
      while (running) await running;
    },
    async close() {
      closed = true;
      waiting.clear();
      line.length = 0;
      await running;
    },
  };
}

async function check(stores: Stores, accountId: string, { method, route }: Endpoint, now: number): Promise<void> {
  const label = endpointLabel(method, route);
  const [totals = { requests: 0, errors: 0 }] = await readsOf(stores.telemetry, accountId).perPeriod([{ from: now - WINDOW_MS, to: now + 1 }], {
    method,
    route,
  });
  if (totals.errors < SPIKE.minErrors || (totals.errors / totals.requests) * 100 < SPIKE.minErrorPct) return;
  // Looked up and recorded in one transaction: console servers sharing one database record a spike once.
  await stores.records.atomically(async (records) => {
    const last = await records.latestActivity(accountId, 'error-spike', label);
    if (last && now - last.ts < QUIET_MS) return;
    await recordActivity({ ...stores, records }, accountId, {
      kind: 'error-spike',
      actor: SYSTEM,
      text: `saw an error spike on ${label}: ${totals.errors} server errors in 5 minutes`,
      ts: now,
      subject: label,
    });
  });
}
