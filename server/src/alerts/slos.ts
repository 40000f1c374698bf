/**
 * An SLO's figures over its period (the share of good requests, the error budget left) and its
 * burn rates over the windows of the SRE workbook's multi-window, multi-burn-rate alerts. Read
 * with the same calls as the views, like the rules' values.
 */
import { BURN_RATE_ALERTS } from '@ops-console/contract/enums';
import { isoSeconds } from '@ops-console/contract/time-window';
import { DAY_MS } from '../context.ts';
import type { EventFilter, SloRecord, TelemetryStore } from '../store/types.ts';
import { readsOf } from '../views/reads.ts';
import { durationMs } from './rules.ts';

const BURN_WINDOWS = ['5m', '30m', '1h', '6h', '3d'] as const;
type BurnWindow = (typeof BURN_WINDOWS)[number];

/** An SLO as stored: the endpoint it names resolved when it was saved. */
type StoredSlo = SloRecord & { endpoint?: { apiVersion: string; method: string; route: string } };

const round2 = (n: number) => Math.round(n * 100) / 100;

export function sloFilters(slo: StoredSlo): { all: EventFilter; bad: EventFilter } {
  const all: EventFilter = {
    ...(slo.endpoint ? { apiVersion: slo.endpoint.apiVersion, method: slo.endpoint.method, route: slo.endpoint.route } : {}),
    ...(slo.scope.customerId ? { customerId: slo.scope.customerId } : {}),
  };
  return { all, bad: { ...all, ...(slo.objective === 'latency' ? { slowerThanMs: slo.thresholdMs! } : { statusClass: 5 }) } };
}

/** The SLO's figures at `now`: over its period, and its burn rate over each alert window. */
export async function sloFigures(telemetry: TelemetryStore, accountId: string, slo: StoredSlo, now: number) {
  const read = readsOf(telemetry, accountId);
  const { all, bad } = sloFilters(slo);
  const budget = (100 - slo.targetPct) / 100;
  const windows = [slo.period, ...BURN_WINDOWS].map((w) => ({ from: now - durationMs(w), to: now + 1 }));
  // Each window on its own: they overlap, and a question's periods may not.
  const counted = await Promise.all(windows.flatMap((w) => [read.perPeriod([w], all), read.perPeriod([w], bad)]));
  const pairs = windows.map((_, i) => ({ total: counted[2 * i]![0]!.requests, bad: counted[2 * i + 1]![0]!.requests }));
  const [period, ...burn] = pairs;
  const burnRates = Object.fromEntries(BURN_WINDOWS.map((w, i) => [w, burn[i]!.total ? round2(burn[i]!.bad / burn[i]!.total / budget) : null])) as Record<
    BurnWindow,
    number | null
  >;
  return {
    requests: period!.total,
    badRequests: period!.bad,
    sliPct: period!.total ? round2(100 - (100 * period!.bad) / period!.total) : null,
    budgetRemainingPct: period!.total ? Math.round((1 - period!.bad / period!.total / budget) * 1000) / 10 : null,
    burnRates,
  };
}

/** The first burn-rate alert whose long and short windows both burn faster than its rate, if any. */
export function burning(burnRates: Record<BurnWindow, number | null>) {
  return BURN_RATE_ALERTS.find(({ rate, long, short }) => (burnRates[long] ?? 0) > rate && (burnRates[short] ?? 0) > rate);
}

/** The budget left at the end of each day of the period so far, counted from the period's start. */
export async function budgetOverTime(telemetry: TelemetryStore, accountId: string, slo: StoredSlo, now: number) {
  const read = readsOf(telemetry, accountId);
  const { all, bad } = sloFilters(slo);
  const start = now - durationMs(slo.period);
  const count = Math.round(durationMs(slo.period) / DAY_MS);
  // The last day ends with now, included, as the period does.
  const days = Array.from({ length: count }, (_, i) => ({ from: start + i * DAY_MS, to: i === count - 1 ? now + 1 : start + (i + 1) * DAY_MS }));
  const [totals, bads] = await Promise.all([read.perPeriod(days, all), read.perPeriod(days, bad)]);
  const budget = (100 - slo.targetPct) / 100;
  let total = 0;
  let failed = 0;
  const remainingPct = days.map((_, i) => {
    total += totals[i]!.requests;
    failed += bads[i]!.requests;
    return total ? Math.round((1 - failed / total / budget) * 1000) / 10 : null;
  });
  return { days: days.map((d) => isoSeconds(d.to - 1).slice(0, 10)), remainingPct };
}
