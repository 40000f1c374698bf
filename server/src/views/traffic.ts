/** GET /traffic: the window's metrics against the same months a year earlier, by month and by route. */
import { lastMonths } from '../calendar.ts';
import type { ViewContext } from '../context.ts';
import { changePct, errorPct, sharesPct } from '../figures.ts';
import { badRequest } from '../problem.ts';

const RANGES: Record<string, number> = { '1m': 1, '3m': 3, '6m': 6, '12m': 12 };

export async function traffic(ctx: ViewContext, range = '12m') {
  const count = RANGES[range];
  if (!count) throw badRequest(`range must be one of ${Object.keys(RANGES).join(', ')}.`);
  const { telemetry } = ctx.stores;
  const months = lastMonths(ctx.now, ctx.timeZone, count);
  const yearBefore = lastMonths(ctx.now, ctx.timeZone, count, 12);
  const window = { from: months[0]!.from, to: ctx.now + 1 };
  const earlier = { from: yearBefore[0]!.from, to: yearBefore[count - 1]!.to };

  const [thisYear, lastYear, now, then, routes, routesThen] = await Promise.all([
    telemetry.perPeriod(ctx.accountId, months),
    telemetry.perPeriod(ctx.accountId, yearBefore),
    telemetry.totals(ctx.accountId, window),
    telemetry.totals(ctx.accountId, earlier),
    telemetry.byRoute(ctx.accountId, window),
    telemetry.byRoute(ctx.accountId, earlier),
  ]);

  const nowErrorPct = errorPct(now.errors, now.requests);
  const perLabel = (rows: typeof routes) => {
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

  return {
    metrics: {
      requests: { value: now.requests, unit: 'count', changePct: changePct(now.requests, then.requests) },
      errorRate: { value: nowErrorPct, unit: 'percent', changePct: changePct(nowErrorPct, errorPct(then.errors, then.requests)) },
      latency: { value: now.p95Ms, unit: 'ms', changePct: changePct(now.p95Ms, then.p95Ms) },
      bandwidth: { value: now.bytes, unit: 'bytes', changePct: changePct(now.bytes, then.bytes) },
    },
    requestsOverTime: { months: months.map((m) => m.month), thisYear: thisYear.map((m) => m.requests), lastYear: lastYear.map((m) => m.requests) },
    errorRateByMonth: { months: months.map((m) => m.month), valuesPct: thisYear.map((m) => errorPct(m.errors, m.requests)) },
    breakdown: current.map((r, i) => ({
      method: r.method,
      path: r.path,
      value: r.value,
      unit: 'count',
      changePct: changePct(r.value, previous.get(`${r.method} ${r.path}`)?.value ?? 0),
      sharePct: shares[i]!,
    })),
  };
}
