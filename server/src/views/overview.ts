/** GET /overview: this month, today, error rate, p95, active keys, and requests by endpoint group. */
import { lastMonths, today, zonedDate, zonedInstant } from '../calendar.ts';
import { DAY_MS, RECENT_DAYS, type ViewContext } from '../context.ts';
import { changePct, errorPct, roundMs, routeGroup, sharesPct } from '../figures.ts';
import { recentWindow } from './related.ts';
import { windowed } from './window-series.ts';
import { reads, type Totals } from '../domain/reads.ts';

/** The busiest groups shown by name; the rest add up to "Other". */
const QUARTER_HOUR = 15 * 60_000;
const NAMED_GROUPS = 4;

export async function overview(ctx: ViewContext) {
  const read = reads(ctx);
  const months = lastMonths(ctx.now, ctx.timeZone, 12);
  const thisMonth = { from: months[11]!.from, to: ctx.now + 1 };
  const lastMonth = months[10]!;
  const days = today(ctx.now, ctx.timeZone);
  // Keys and shares over the asked range (against the window before it), else the last 30 days.
  const recent = recentWindow(ctx);
  const before = ctx.window?.previous ?? { from: recent.from - RECENT_DAYS * DAY_MS, to: recent.from };

  // Today's change compares the day up to its last whole quarter hour with the same part of
  // each day last month (whole quarter hours are pre-counted; the shown value is exact to now).
  const cutoff = Math.floor((ctx.now - days.today.from) / QUARTER_HOUR) * QUARTER_HOUR;
  const comparedDays: { from: number; to: number }[] = [{ from: days.today.from, to: days.today.from + cutoff }];
  const first = zonedDate(lastMonth.from, ctx.timeZone);
  for (let day = 1; ; day++) {
    const from = zonedInstant(first.year, first.month, day, ctx.timeZone);
    if (from >= lastMonth.to) break;
    // A 23-hour day ends before the cutoff of a 25-hour today: the periods must not overlap.
    const next = zonedInstant(first.year, first.month, day + 1, ctx.timeZone);
    comparedDays.push({ from, to: Math.min(from + cutoff, next) });
  }

  // Over a range, the window's totals carry its p95 and keys (and the month's p95 is not shown): no second read of them.
  const [series, [todayTotals], monthP95, lastMonthP95, keysNow, keysBefore, routes, [todayToCutoff, ...sameTimeLastMonth], inRange, ranged] =
    await Promise.all([
      read.perPeriod(months),
      read.perPeriod([days.today]),
      ctx.window ? 0 : read.p95(thisMonth),
      ctx.window ? 0 : read.p95(lastMonth),
      ctx.window ? undefined : read.distinctKeys(recent),
      ctx.window ? undefined : read.distinctKeys(before),
      read.countsByRoute(recent),
      read.perPeriod(comparedDays),
      ctx.window ? read.totalsFor([ctx.window, ctx.window.previous]) : undefined,
      windowed(ctx),
    ]);
  const recentKeys = keysNow ?? inRange![0]!.keys;
  const beforeKeys = keysBefore ?? inRange![1]!.keys;
  // The month buckets of the series hold this month so far and all of last month.
  const monthTotals = series[11]!;
  const lastMonthTotals = series[10]!;

  const lastMonthDailyAverage = sameTimeLastMonth.reduce((sum, d) => sum + d.requests, 0) / sameTimeLastMonth.length;
  const monthErrorPct = errorPct(monthTotals.errors, monthTotals.requests);
  const lastMonthErrorPct = errorPct(lastMonthTotals.errors, lastMonthTotals.requests);
  // With a range, the error rate and p95 are the window's against the window before it.
  const [windowTotals, previousTotals] = inRange ?? [];

  const perGroup = new Map<string, number>();
  for (const r of routes) perGroup.set(routeGroup(r.route), (perGroup.get(routeGroup(r.route)) ?? 0) + r.requests);
  const ranked = [...perGroup].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = ranked.slice(0, NAMED_GROUPS);
  const other = ranked.slice(NAMED_GROUPS).reduce((sum, [, n]) => sum + n, 0);
  const groups = other ? [...named, ['Other', other] as [string, number]] : named;
  const shares = sharesPct(groups.map(([, n]) => n));

  return {
    owner: ctx.principal.user,
    figures: {
      requestsThisMonth: { value: series[11]!.requests, series: { months: months.map((m) => m.month), values: series.map((s) => s.requests) } },
      requestsToday: { value: todayTotals!.requests, changePct: changePct(todayToCutoff!.requests, lastMonthDailyAverage) },
      ...(windowTotals && previousTotals
        ? rangeFigures(windowTotals, previousTotals)
        : {
            errorRate: { valuePct: monthErrorPct, changePct: changePct(monthErrorPct, lastMonthErrorPct) },
            p95Latency: { valueMs: roundMs(monthP95), changePct: changePct(roundMs(monthP95), roundMs(lastMonthP95)) },
          }),
      activeKeys: { value: recentKeys, changePct: changePct(recentKeys, beforeKeys) },
    },
    requestsByEndpoint: groups.map(([group], i) => ({ group, sharePct: shares[i]! })),
    ...ranged,
  };
}

/** Requests, error rate and p95 of the asked window, each against the window before it. */
function rangeFigures(now: Totals, before: Totals) {
  const nowPct = errorPct(now.errors, now.requests);
  const nowP95 = roundMs(now.p95Ms);
  return {
    requests: { value: now.requests, changePct: changePct(now.requests, before.requests) },
    errorRate: { valuePct: nowPct, changePct: changePct(nowPct, errorPct(before.errors, before.requests)) },
    p95Latency: { valueMs: nowP95, changePct: changePct(nowP95, roundMs(before.p95Ms)) },
  };
}
