/**
 * A rule's value: its metric over its window, read with the same calls the views make, so an
 * alert's value is what the console shows for that window and scope.
 */
import { ALERT_DURATION } from '@ops-console/contract/schemas';
import { errorPct, roundMs } from '../figures.ts';
import type { AlertRuleRecord, EventFilter, TelemetryStore } from '../store/types.ts';
import { readsOf } from '../domain/reads.ts';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const WEEK_MS = 7 * 86_400_000;

/** `5m` → 300,000. */
export function durationMs(duration: string): number {
  const match = ALERT_DURATION.exec(duration);
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
}

/** A rule as the stores filter events: its scope, with the endpoint it named resolved when it was saved. */
type StoredRule = AlertRuleRecord & { endpoint?: { apiVersion: string; method: string; route: string } };

export function filterOf(rule: StoredRule): EventFilter {
  return {
    ...(rule.endpoint ? { apiVersion: rule.endpoint.apiVersion, method: rule.endpoint.method, route: rule.endpoint.route } : {}),
    ...(rule.scope.customerId ? { customerId: rule.scope.customerId } : {}),
    ...(rule.scope.keyId ? { keyId: rule.scope.keyId } : {}),
  };
}

/** The console page of what a rule watches, below the console's base. */
export function linkOf(scope: AlertRuleRecord['scope']): string {
  if (scope.endpointId) return `/endpoints/${encodeURIComponent(scope.endpointId)}`;
  if (scope.keyId) return `/keys/${encodeURIComponent(scope.keyId)}`;
  if (scope.customerId) return `/customers/${encodeURIComponent(scope.customerId)}`;
  return '/';
}

/**
 * The rule's metric for the window ending at `now`, in its unit; null when it has no value (an
 * error rate or a latency of no requests, a spike without history).
 */
export async function ruleValue(telemetry: TelemetryStore, accountId: string, rule: StoredRule, now: number): Promise<number | null> {
  const read = readsOf(telemetry, accountId);
  const filter = filterOf(rule);
  const span = durationMs(rule.window);
  // The window's last `span`, its end included: at 09:15 a 5m window holds 09:10:00 to 09:15:00.
  const window = { from: now - span, to: now + 1 };
  switch (rule.metric) {
    case 'errorRate': {
      const [counts] = await read.perPeriod([window], filter);
      return counts!.requests ? errorPct(counts!.errors, counts!.requests) : null;
    }
    case 'p95':
    case 'p99': {
      const [found] = await telemetry.latency(accountId, { periods: [window], filter, quantiles: [rule.metric === 'p95' ? 0.95 : 0.99] });
      return found && found.requests[0] ? roundMs(found.quantiles[0]![0]!) : null;
    }
    case 'requestsAbove':
    case 'requestsBelow':
      return (await read.perPeriod([window], filter))[0]!.requests;
    case 'spike': {
      // Against the same window at the same time on each of the four weeks before.
      const weeks = [4, 3, 2, 1].map((n) => ({ from: window.from - n * WEEK_MS, to: window.to - n * WEEK_MS }));
      const [then, ...before] = (await read.perPeriod([...weeks, window], filter)).reverse();
      const baseline = before.reduce((sum, c) => sum + c.requests, 0) / before.length;
      return baseline ? Math.round((then!.requests / baseline) * 100) / 100 : null;
    }
  }
}

/** Whether the value breaks the rule's threshold. */
export function breaches(rule: AlertRuleRecord, value: number | null): boolean {
  if (value === null) return false;
  return rule.metric === 'requestsBelow' ? value < rule.threshold : value > rule.threshold;
}
