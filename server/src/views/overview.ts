/** GET /overview: this month, today, error rate, p95, active keys, and requests by endpoint group. */
import { lastMonths, today, zonedDate, zonedInstant } from '../calendar.ts';
import { DAY_MS, RECENT_DAYS, type ViewContext } from '../context.ts';
import { changePct, errorPct, routeGroup, sharesPct } from '../figures.ts';

/** The busiest groups shown by name; the rest add up to "Other". */
const NAMED_GROUPS = 4;

export async function overview(ctx: ViewContext) {
  const { telemetry } = ctx.stores;
  const months = lastMonths(ctx.now, ctx.timeZone, 12);
  const thisMonth = { from: months[11]!.from, to: ctx.now + 1 };
  const lastMonth = months[10]!;
  const days = today(ctx.now, ctx.timeZone);
  const recent = { from: ctx.now - RECENT_DAYS * DAY_MS, to: ctx.now + 1 };
  const before = { from: recent.from - RECENT_DAYS * DAY_MS, to: recent.from };

  // Today so far is compared with the same part of the day (midnight until now) on each day of last month.
  const elapsed = ctx.now - days.today.from;
  const lastMonthDays: { from: number; to: number }[] = [];
  const first = zonedDate(lastMonth.from, ctx.timeZone);
  for (let day = 1; ; day++) {
    const from = zonedInstant(first.year, first.month, day, ctx.timeZone);
    if (from >= lastMonth.to) break;
    lastMonthDays.push({ from, to: from + elapsed + 1 });
  }

  const [series, todayTotals, monthTotals, lastMonthTotals, recentTotals, beforeTotals, routes, sameTimeLastMonth] = await Promise.all([
    telemetry.perPeriod(ctx.accountId, months),
    telemetry.totals(ctx.accountId, days.today),
    telemetry.totals(ctx.accountId, thisMonth),
    telemetry.totals(ctx.accountId, lastMonth),
    telemetry.totals(ctx.accountId, recent),
    telemetry.totals(ctx.accountId, before),
    telemetry.byRoute(ctx.accountId, recent),
    telemetry.perPeriod(ctx.accountId, lastMonthDays),
  ]);

  const lastMonthDailyAverage = sameTimeLastMonth.reduce((sum, d) => sum + d.requests, 0) / lastMonthDays.length;
  const monthErrorPct = errorPct(monthTotals.errors, monthTotals.requests);
  const lastMonthErrorPct = errorPct(lastMonthTotals.errors, lastMonthTotals.requests);

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
      requestsToday: { value: todayTotals.requests, changePct: changePct(todayTotals.requests, lastMonthDailyAverage) },
      errorRate: { valuePct: monthErrorPct, changePct: changePct(monthErrorPct, lastMonthErrorPct) },
      p95Latency: { valueMs: monthTotals.p95Ms, changePct: changePct(monthTotals.p95Ms, lastMonthTotals.p95Ms) },
      activeKeys: { value: recentTotals.keys, changePct: changePct(recentTotals.keys, beforeTotals.keys) },
    },
    requestsByEndpoint: groups.map(([group], i) => ({ group, sharePct: shares[i]! })),
  };
}
