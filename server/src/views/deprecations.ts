/**
 * Deprecated endpoints: the notice an endpoint row carries, who still calls one (for GET
 * /versions), and the "turned off" item the server records once a sunset has passed.
 */
import type { Period } from '../calendar.ts';
import { DAY_MS, endpointLabel, isoSeconds, type ViewContext } from '../context.ts';
import type { DeprecationRecord, Stores } from '../store/types.ts';
import { recordActivity } from '../domain/activity-log.ts';
import { reads, type Caller } from '../domain/reads.ts';

/** How many customers, and how many keys, a deprecation lists: the busiest. */
export const CALLERS_LISTED = 100;

/** How many deprecations GET /versions reads callers for: those still to come first, then the latest turned off. */
export const DEPRECATIONS_LISTED = 50;

/** `DELETE /contacts`, and the version when only one is deprecated. */
export const deprecatedEndpoint = (d: Pick<DeprecationRecord, 'method' | 'route' | 'apiVersion'>) =>
  `${endpointLabel(d.method, d.route)}${d.apiVersion ? ` in version ${d.apiVersion}` : ''}`;

/** What an endpoint row shows of its deprecation: the sunset counts as passed from its instant, whether or not its item is recorded yet. */
export const noticeOf = (d: DeprecationRecord, now: number) => ({
  id: d.id,
  sunsetAt: isoSeconds(d.sunsetAt),
  turnedOff: d.sunsetAt <= now,
  replacement: d.replacement,
  docsUrl: d.docsUrl,
});

/** The deprecation that covers a row (method, route and its version, or every version); the soonest sunset when several do. */
export const deprecationOf = (deprecations: readonly DeprecationRecord[], row: { apiVersion: string; method: string; route: string }) =>
  deprecations.find((d) => d.method === row.method && d.route === row.route && (d.apiVersion === null || d.apiVersion === row.apiVersion));

/**
 * Records "turned off the deprecated endpoint …" for each sunset that has passed, at the sunset's
 * own time. Each is claimed in the same transaction as its item, so servers sharing the records
 * record it once.
 */
export async function turnOffDue(stores: Stores, accountId: string, now: number): Promise<void> {
  const due = (await stores.records.deprecations(accountId)).filter((d) => d.turnedOffAt === null && d.sunsetAt <= now);
  for (const d of due)
    await stores.records.atomically(async (records) => {
      if (!(await records.turnOff(accountId, d.id, now))) return;
      await recordActivity({ ...stores, records }, accountId, {
        kind: 'endpoint-deprecated',
        actor: d.actor,
        text: `turned off the deprecated endpoint ${deprecatedEndpoint(d)}`,
        ts: d.sunsetAt,
        subject: d.id,
      });
    });
}

/** Each deprecation with its requests in `window`, and the customers and keys that made them, busiest first. */
export async function deprecationFigures(ctx: ViewContext, window: Period) {
  const [all, customers] = await Promise.all([ctx.stores.records.deprecations(ctx.accountId), ctx.stores.records.customers(ctx.accountId)]);
  // Each costs three reads of the events: the ones people act on, not every sunset of years past.
  const coming = all.filter((d) => d.sunsetAt > ctx.now);
  const past = all.filter((d) => d.sunsetAt <= ctx.now).reverse();
  const deprecations = [...coming, ...past].slice(0, DEPRECATIONS_LISTED);
  const names = new Map(customers.map((c) => [c.id, c.name]));
  const callersOf = (rows: Caller[], named: boolean) =>
    rows
      .sort((a, b) => b.requests - a.requests || b.lastTs - a.lastTs || (a.id < b.id ? -1 : 1))
      .slice(0, CALLERS_LISTED)
      .map((c) => {
        const name = named ? names.get(c.id) : undefined;
        return { id: c.id, ...(name === undefined ? {} : { name }), requests: c.requests, lastCallAt: isoSeconds(c.lastTs) };
      });
  return Promise.all(
    deprecations.map(async (d) => {
      const narrowing = { method: d.method, route: d.route, ...(d.apiVersion === null ? {} : { apiVersion: d.apiVersion }) };
      const filter = { from: window.from, to: window.to, ...narrowing };
      const [[counts], callers] = await Promise.all([reads(ctx).perPeriod([{ from: window.from, to: window.to }], narrowing), reads(ctx).callers(filter)]);
      return {
        ...noticeOf(d, ctx.now),
        endpoint: endpointLabel(d.method, d.route),
        apiVersion: d.apiVersion,
        daysToSunset: Math.max(0, Math.ceil((d.sunsetAt - ctx.now) / DAY_MS)),
        requests: counts!.requests,
        customers: callersOf(callers.customers, true),
        keys: callersOf(callers.keys, false),
      };
    }),
  );
}
