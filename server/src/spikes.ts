/**
 * Error spikes, detected by the server from the events: after each ingest, an endpoint whose
 * last five minutes hold at least `minErrors` server errors making up `minErrorPct` of its
 * requests gets one "error-spike" activity item (at most one per endpoint per hour).
 */
import { endpointLabel } from './context.ts';
import type { Stores } from './store/types.ts';
import { recordActivity } from './views/activity.ts';

const WINDOW_MS = 5 * 60_000;
const QUIET_MS = 60 * 60_000;
export const SPIKE = { minErrors: 10, minErrorPct: 10 };
const SYSTEM = { id: 'ops-console', name: 'Ops Console' };

export async function detectSpikes(stores: Stores, accountId: string, touched: Iterable<{ method: string; route: string }>, now: number): Promise<void> {
  const seen = new Set<string>();
  for (const { method, route } of touched) {
    const label = endpointLabel(method, route);
    if (seen.has(label)) continue;
    seen.add(label);
    const totals = await stores.telemetry.totals(accountId, { method, route, from: now - WINDOW_MS, to: now + 1 });
    if (totals.errors < SPIKE.minErrors || (totals.errors / totals.requests) * 100 < SPIKE.minErrorPct) continue;
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
}
