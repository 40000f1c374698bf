/**
 * An SLO's figures over its period (the share of good requests, the error budget left) and its
 * burn rates over the windows of the SRE workbook's multi-window, multi-burn-rate alerts. Read
 * with the same calls as the views, like the rules' values.
 */
import { BURN_RATE_ALERTS } from '@ops-console/contract/enums';
import { isoSeconds } from '@ops-console/contract/time-window';
import { DAY_MS } from '../context.ts';
import type { EventFilter, SloRecord, TelemetryStore } from '../store/types.ts';
import { readsOf } from '../domain/reads.ts';
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

export type SloFigures = Awaited<ReturnType<typeof sloFigures>>;

/** The SLO's figures at `now`: over its period, and its burn rate over each alert window. */
export async function sloFigures(telemetry: TelemetryStore, accountId: string, slo: StoredSlo, now: number) {
  return (await sloFiguresOf(telemetry, accountId, [slo], now)).get(slo.id)!;
}

/**
 * Every SLO's figures at `now`, read in one pass: the windows of all of them are cut into rings
 * that do not overlap (now back to the shortest window, from there to the next, …), and each
 * scope the SLOs name is counted once over all the rings, with the errors the availability SLOs
 * count as bad; latency SLOs add one count per scope and threshold. A window's figure is the sum
 * of the rings inside it, so the figures are those of each window read alone.
 */
export async function sloFiguresOf(telemetry: TelemetryStore, accountId: string, slos: readonly StoredSlo[], now: number) {
  const spans = [...new Set([...BURN_WINDOWS, ...slos.map((s) => s.period)].map(durationMs))].sort((a, b) => a - b);
  // Oldest first, as a question's periods go; ring i (from the newest) ends where ring i - 1 starts.
  const rings = spans.map((span, i) => ({ from: now - span, to: i === 0 ? now + 1 : now - spans[i - 1]! })).reverse();
  const asks = new Map<string, EventFilter>();
  const askOf = (filter: EventFilter) => {
    const key = JSON.stringify(filter);
    if (!asks.has(key)) asks.set(key, filter);
    return key;
  };
  const planned = slos.map((slo) => {
    const { all, bad } = sloFilters(slo);
    return { slo, all: askOf(all), bad: slo.objective === 'latency' ? askOf(bad) : undefined };
  });
  const answers = new Map(
    await Promise.all([...asks].map(async ([key, filter]) => [key, (await telemetry.counts(accountId, { periods: rings, filter }))[0]] as const)),
  );
  /** Per ring (newest first), the requests (or errors) the ask counted. */
  const ringsOf = (key: string, field: 'requests' | 'errors') => {
    const row = answers.get(key);
    return row ? [...row[field]].reverse() : spans.map(() => 0);
  };
  const within = (counts: number[], window: string) => {
    const span = durationMs(window);
    return counts.reduce((sum, n, i) => (spans[i]! <= span ? sum + n : sum), 0);
  };
  return new Map(
    planned.map(({ slo, all, bad }) => {
      const totals = ringsOf(all, 'requests');
      const bads = bad === undefined ? ringsOf(all, 'errors') : ringsOf(bad, 'requests');
      return [slo.id, figuresOf(slo, (w) => ({ total: within(totals, w), bad: within(bads, w) }))] as const;
    }),
  );
}

function figuresOf(slo: StoredSlo, windowOf: (window: string) => { total: number; bad: number }) {
  const budget = (100 - slo.targetPct) / 100;
  const period = windowOf(slo.period);
  const burnRates = Object.fromEntries(
    BURN_WINDOWS.map((w) => {
      const { total, bad } = windowOf(w);
      return [w, total ? round2(bad / total / budget) : null];
    }),
  ) as Record<BurnWindow, number | null>;
  return {
    requests: period.total,
    badRequests: period.bad,
    sliPct: period.total ? round2(100 - (100 * period.bad) / period.total) : null,
    budgetRemainingPct: period.total ? Math.round((1 - period.bad / period.total / budget) * 1000) / 10 : null,
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
