/** GET /traffic (of all requests, or one customer's): this month's metrics against last month; the range by month (against a year earlier) and by route. */
import { lastMonths, type MonthBucket } from '../calendar.ts';
import type { ViewContext } from '../context.ts';
import { changePct, errorPct, roundMs, sharesPct } from '../figures.ts';
import { badRequest } from '../problem.ts';
import { isMonthlyRange, MONTHLY_RANGES, TIME_RANGES } from '@ops-console/contract/enums';
import type { EventFilter } from '../store/types.ts';
import { windowed } from './window-series.ts';
import { reads, type RouteCounts, type Totals } from '../domain/reads.ts';
type Counts = { requests: number; errors: number; bytes: number };

/**
 * `range=12m` (the default), `6m`, `3m` or `1m`: calendar months against a year earlier, and the
 * metrics of this month against last month. Any other range (`1h` … `30d`, or `from`–`to`, which
 * arrive as `ctx.window`): the window in its buckets, everything against the window before it.
 */
export async function traffic(ctx: ViewContext, range = '12m', filter: EventFilter = {}) {
  // The calendar-month ranges this route had before time ranges keep their meaning: `6m` is 6 months.
  const count = isMonthlyRange(range) ? Number.parseInt(range, 10) : undefined;
  if (!count || ctx.window) return windowTraffic(ctx, filter);
  const read = reads(ctx);
  const months = lastMonths(ctx.now, ctx.timeZone, count);
  const yearBefore = lastMonths(ctx.now, ctx.timeZone, count, 12);
  const window = { from: months[0]!.from, to: ctx.now + 1 };
  const earlier = { from: yearBefore[0]!.from, to: yearBefore[count - 1]!.to };
  // The metrics read "vs last month": this calendar month so far against last month — its
  // rates against the whole month, its counts against the same part of it.
  const [lastMonth, thisMonth] = lastMonths(ctx.now, ctx.timeZone, 2) as [MonthBucket, MonthBucket];
  const monthSoFar = { from: thisMonth.from, to: ctx.now + 1 };
  const lastMonthSoFar = { from: lastMonth.from, to: Math.min(lastMonth.to, lastMonth.from + (ctx.now - thisMonth.from) + 1) };

  const [thisYear, lastYear, [thenSoFar, thenRest], nowP95, thenP95, routes, routesThen] = await Promise.all([
    read.perPeriod(months, filter),
    read.perPeriod(yearBefore, filter),
    // Two periods that do not overlap: last month so far, and the rest of it.
    read.perPeriod([lastMonthSoFar, { from: lastMonthSoFar.to, to: Math.max(lastMonthSoFar.to, lastMonth.to) }], filter) as Promise<[Counts, Counts]>,
    read.p95({ ...filter, ...monthSoFar }),
    read.p95({ ...filter, from: lastMonth.from, to: lastMonth.to }),
    read.countsByRoute({ ...filter, ...window }),
    read.countsByRoute({ ...filter, ...earlier }),
  ]);
  const now = thisYear[count - 1]!; // this month's bucket: so far
  const then = { requests: thenSoFar.requests + thenRest.requests, errors: thenSoFar.errors + thenRest.errors, bytes: thenSoFar.bytes + thenRest.bytes };

  const nowErrorPct = errorPct(now.errors, now.requests);
  return {
    metrics: {
      requests: { value: now.requests, unit: 'count', changePct: changePct(now.requests, thenSoFar.requests) },
      errorRate: { value: nowErrorPct, unit: 'percent', changePct: changePct(nowErrorPct, errorPct(then.errors, then.requests)) },
      latency: { value: roundMs(nowP95), unit: 'ms', changePct: changePct(roundMs(nowP95), roundMs(thenP95)) },
      bandwidth: { value: now.bytes, unit: 'bytes', changePct: changePct(now.bytes, thenSoFar.bytes) },
    },
    requestsOverTime: { months: months.map((m) => m.month), thisYear: thisYear.map((m) => m.requests), lastYear: lastYear.map((m) => m.requests) },
    errorRateByMonth: { months: months.map((m) => m.month), valuesPct: thisYear.map((m) => errorPct(m.errors, m.requests)) },
    breakdown: breakdownOf(routes, routesThen),
  };
}

/** Requests per method and path, busiest first, each against the earlier period, with shares adding to 100.0. */
function breakdownOf(routes: readonly RouteCounts[], routesThen: readonly RouteCounts[]) {
  const perLabel = (rows: readonly RouteCounts[]) => {
    const map = new Map<string, { method: string; path: string; value: number }>();
    for (const r of rows) {
      const key = `${r.method} ${r.route}`;
      const entry = map.get(key) ?? { method: r.method, path: r.route, value: 0 };
      entry.value += r.requests;
      map.set(key, entry);
    }
    return map;
  };
  const current = [...perLabel(routes).values()].sort((a, b) => b.value - a.value || `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
  const previous = perLabel(routesThen);
  const shares = sharesPct(current.map((r) => r.value));
  return current.map((r, i) => ({
    method: r.method,
    path: r.path,
    value: r.value,
    unit: 'count',
    changePct: changePct(r.value, previous.get(`${r.method} ${r.path}`)?.value ?? 0),
    sharePct: shares[i]!,
  }));
}

/** GET /traffic over an asked window: its metrics against the window before it, its buckets, and the year's months as before. */
async function windowTraffic(ctx: ViewContext, filter: EventFilter) {
  const window = ctx.window;
  if (!window) throw badRequest(`range must be one of ${[...MONTHLY_RANGES, ...TIME_RANGES.filter((r) => !isMonthlyRange(r))].join(', ')}.`); // only when called without the server's check
  const read = reads(ctx);
  const months = lastMonths(ctx.now, ctx.timeZone, 12);
  const [[now, then], [nowBytes, thenBytes], routes, routesThen, perMonth, lastYear, ranged] = await Promise.all([
    read.totalsFor([window, window.previous], filter) as Promise<[Totals, Totals]>,
    read.perPeriod([window.previous, window], filter).then(([before, current]) => [current!, before!]),
    read.countsByRoute({ ...filter, from: window.from, to: window.to }),
    read.countsByRoute({ ...filter, ...window.previous }),
    read.perPeriod(months, filter),
    read.perPeriod(lastMonths(ctx.now, ctx.timeZone, 12, 12), filter),
    windowed(ctx, filter),
  ]);
  const nowPct = errorPct(now.errors, now.requests);
  return {
    metrics: {
      requests: { value: now.requests, unit: 'count', changePct: changePct(now.requests, then.requests) },
      errorRate: { value: nowPct, unit: 'percent', changePct: changePct(nowPct, errorPct(then.errors, then.requests)) },
      latency: { value: roundMs(now.p95Ms), unit: 'ms', changePct: changePct(roundMs(now.p95Ms), roundMs(then.p95Ms)) },
      bandwidth: { value: nowBytes!.bytes, unit: 'bytes', changePct: changePct(nowBytes!.bytes, thenBytes!.bytes) },
    },
    // The calendar months stay, so a client that reads only them still draws the year.
    requestsOverTime: { months: months.map((m) => m.month), thisYear: perMonth.map((m) => m.requests), lastYear: lastYear.map((m) => m.requests) },
    errorRateByMonth: { months: months.map((m) => m.month), valuesPct: perMonth.map((m) => errorPct(m.errors, m.requests)) },
    breakdown: breakdownOf(routes, routesThen),
    ...ranged,
  };
}
