/**
 * The figures views show, each asked of the telemetry store as a question (counts, latency,
 * keys): views say what they need, and each engine plans how to read it.
 */
import type { Period } from '../calendar.ts';
import type { EventFilter, Grouping, TelemetryStore } from '../store/types.ts';

export interface Counts {
  requests: number;
  errors: number;
  bytes: number;
}

export interface Totals extends Counts {
  /** Nearest-rank 95th percentile of durations; 0 without requests. */
  p95Ms: number;
  /** Distinct key ids. */
  keys: number;
}

export interface RouteCounts {
  apiVersion: string;
  method: string;
  route: string;
  requests: number;
  errors: number;
}

export interface RouteStats extends RouteCounts {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** The newest request's time. */
  lastTs: number;
}

/** Who made requests: a customer or a key, with how many and the newest one's time. */
export interface Caller {
  id: string;
  requests: number;
  lastTs: number;
}

const BY_ROUTE: readonly Grouping[] = ['apiVersion', 'method', 'route'];
const BY_STATUS: readonly Grouping[] = ['method', 'route', 'status'];

/** A filter's own period (all time for an open end), and the filter without it. */
const periodOf = ({ from, to, ...narrowing }: EventFilter): [Period, EventFilter] => [{ from: from ?? 0, to: to ?? Number.MAX_SAFE_INTEGER }, narrowing];

/** The figures of one account. */
export function readsOf(telemetry: TelemetryStore, accountId: string) {
  const reads = {
    /** Requests, errors and bytes per period (periods must not overlap). */
    async perPeriod(periods: readonly Period[], filter: EventFilter = {}): Promise<Counts[]> {
      const [all] = await telemetry.counts(accountId, { periods, filter });
      return periods.map((_, i) => ({ requests: all!.requests[i]!, errors: all!.errors[i]!, bytes: all!.bytes[i]! }));
    },

    /** Requests, errors and p95 per period (periods must not overlap). */
    async latencyPerPeriod(periods: readonly Period[], filter: EventFilter = {}) {
      const [all] = await telemetry.latency(accountId, { periods, filter, quantiles: [0.95] });
      return periods.map((_, i) => ({ requests: all!.requests[i]!, errors: all!.errors[i]!, p95Ms: all!.quantiles[i]![0]! }));
    },

    /** The p95 of the filter's period. */
    async p95(filter: EventFilter): Promise<number> {
      const [period, narrowing] = periodOf(filter);
      return (await reads.latencyPerPeriod([period], narrowing))[0]!.p95Ms;
    },

    /** Distinct key ids in the filter's period. */
    async distinctKeys(filter: EventFilter): Promise<number> {
      const [period, narrowing] = periodOf(filter);
      return (await telemetry.keys(accountId, { periods: [period], filter: narrowing }))[0]!;
    },

    /** Everything about each period: counts, p95 and keys. */
    async totalsFor(periods: readonly Period[], filter: EventFilter = {}): Promise<Totals[]> {
      const [counts, latency, keys] = await Promise.all([
        reads.perPeriod(periods, filter),
        reads.latencyPerPeriod(periods, filter),
        telemetry.keys(accountId, { periods, filter }),
      ]);
      return counts.map((c, i) => ({ ...c, p95Ms: latency[i]!.p95Ms, keys: keys[i]! }));
    },

    /** Everything about the filter's period. */
    async totals(filter: EventFilter): Promise<Totals> {
      const [period, narrowing] = periodOf(filter);
      return (await reads.totalsFor([period], narrowing))[0]!;
    },

    /** Requests and errors per (API version, method, route) in the filter's period. */
    async countsByRoute(filter: EventFilter): Promise<RouteCounts[]> {
      const [period, narrowing] = periodOf(filter);
      const rows = await telemetry.counts(accountId, { periods: [period], filter: narrowing, by: BY_ROUTE });
      return rows.map(({ group, requests, errors }) => ({
        apiVersion: group.apiVersion!,
        method: group.method!,
        route: group.route!,
        requests: requests[0]!,
        errors: errors[0]!,
      }));
    },

    /** `countsByRoute` with p50, p95, p99 and the newest request. */
    async byRoute(filter: EventFilter): Promise<RouteStats[]> {
      const [period, narrowing] = periodOf(filter);
      const rows = await telemetry.latency(accountId, { periods: [period], filter: narrowing, by: BY_ROUTE, quantiles: [0.5, 0.95, 0.99], newest: true });
      return rows.map(({ group, requests, errors, quantiles, newest }) => ({
        apiVersion: group.apiVersion!,
        method: group.method!,
        route: group.route!,
        requests: requests[0]!,
        errors: errors[0]!,
        p50Ms: quantiles[0]![0]!,
        p95Ms: quantiles[0]![1]!,
        p99Ms: quantiles[0]![2]!,
        lastTs: newest![0]!,
      }));
    },

    /** Requests per method, route and status in each period (periods must not overlap). */
    async perPeriodByStatus(periods: readonly Period[]) {
      const rows = await telemetry.counts(accountId, { periods, by: BY_STATUS });
      return rows.map(({ group, requests }) => ({ method: group.method!, route: group.route!, status: group.status!, requests }));
    },

    /** Requests per status code in the filter's period, most first. */
    async countsByStatus(filter: EventFilter) {
      const [period, narrowing] = periodOf(filter);
      const rows = await telemetry.counts(accountId, { periods: [period], filter: narrowing, by: ['status'] });
      return rows
        .map(({ group, requests }) => ({ status: group.status!, requests: requests[0]! }))
        .sort((a, b) => b.requests - a.requests || a.status - b.status);
    },

    /** Requests and errors per customer in the filter's period (requests without one left out). */
    async countsByCustomer(filter: EventFilter) {
      const [period, narrowing] = periodOf(filter);
      const rows = await telemetry.counts(accountId, { periods: [period], filter: narrowing, by: ['customerId'] });
      return rows.map(({ group, requests, errors }) => ({ customerId: group.customerId!, requests: requests[0]!, errors: errors[0]! }));
    },

    /**
     * Per customer, and per key (or only those `of` asks), with requests in the filter's period: its
     * requests and its newest request's time. Two grouped reads side by side: on ClickHouse one read grouped by both
     * (customer × key pairs) measured four times slower than the two together.
     */
    async callers(filter: EventFilter, of: readonly ('customerId' | 'keyId')[] = ['customerId', 'keyId']): Promise<{ customers: Caller[]; keys: Caller[] }> {
      const [period, narrowing] = periodOf(filter);
      const [customers = [], keys = []] = await Promise.all(
        (['customerId', 'keyId'] as const).map(async (by) => {
          if (!of.includes(by)) return [];
          const rows = await telemetry.latency(accountId, { periods: [period], filter: narrowing, by: [by], quantiles: [], newest: true });
          return rows.map(({ group, requests, newest }) => ({ id: group[by]!, requests: requests[0]!, lastTs: newest![0]! }));
        }),
      );
      return { customers, keys };
    },

    /**
     * Per method, route and status in `window`: the median duration, and the requests in the
     * part of `week` inside the window; the busiest this week first.
     */
    async summary(window: Period, week: Period, filter: EventFilter = {}) {
      const thisWeek = { from: Math.max(window.from, week.from), to: Math.max(Math.max(window.from, week.from), Math.min(window.to, week.to)) };
      const [medians, counts] = await Promise.all([
        telemetry.latency(accountId, { periods: [window], filter, by: BY_STATUS, quantiles: [0.5] }),
        telemetry.counts(accountId, { periods: [thisWeek], filter, by: BY_STATUS }),
      ]);
      const key = (g: { method?: string; route?: string; status?: number }) => JSON.stringify([g.method, g.route, g.status]);
      const weekly = new Map(counts.map((c) => [key(c.group), c.requests[0]!]));
      const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      return medians
        .map(({ group, quantiles }) => ({
          method: group.method!,
          route: group.route!,
          status: group.status!,
          medianMs: quantiles[0]![0]!,
          thisWeek: weekly.get(key(group)) ?? 0,
        }))
        .sort((a, b) => b.thisWeek - a.thisWeek || byText(a.method, b.method) || byText(a.route, b.route) || a.status - b.status);
    },

    /** One webhook's deliveries: totals, the newest one's time (null before any), and how many fell in each period. */
    async deliveries(webhookId: string, periods: readonly Period[]) {
      const [found] = await telemetry.deliveries(accountId, { webhookId, periods });
      return found
        ? { total: found.total, delivered: found.delivered, lastTs: found.lastTs as number | null, monthly: found.perPeriod }
        : { total: 0, delivered: 0, lastTs: null, monthly: periods.map(() => 0) };
    },

    /** Every webhook with deliveries: totals and the newest one's time. */
    deliveriesByWebhook: () => telemetry.deliveries(accountId, { periods: [] }),
  };
  return reads;
}

export type Reads = ReturnType<typeof readsOf>;

/** The figures of the account a view is for. */
export const reads = (ctx: { stores: { telemetry: TelemetryStore }; accountId: string }) => readsOf(ctx.stores.telemetry, ctx.accountId);
