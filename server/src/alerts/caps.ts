/**
 * What one account may ask of the alert evaluator: how many rules, SLOs and channels it keeps,
 * and how long a window each metric reads. Every rule is read every cycle, so each is a cost the
 * whole server pays; these bound it.
 */
import type { ALERT_METRICS } from '@ops-console/contract/enums';
import { ProblemError, unprocessable } from '../problem.ts';
import { durationMs } from './rules.ts';

export interface AlertCaps {
  /** Alert rules per account (default 100). */
  rules?: number;
  /** SLOs per account (default 50). */
  slos?: number;
  /** Alert channels per account (default 20). */
  channels?: number;
}

export const DEFAULT_ALERT_CAPS = { rules: 100, slos: 50, channels: 20 } as const;

/** The longest window each metric reads: latency quantiles and spikes read raw events, counts read rollups. */
export const MAX_WINDOW: Record<(typeof ALERT_METRICS)[number], string> = {
  errorRate: '7d',
  requestsAbove: '7d',
  requestsBelow: '7d',
  p95: '1d',
  p99: '1d',
  spike: '1d',
};
/** The longest a condition may have to hold before it fires. */
export const MAX_FOR = '1d';

const WORDS = { rules: 'alert rules', slos: 'SLOs', channels: 'alert channels' } as const;

/** Throws the 409 when the account already has as many as it may. */
export function checkCap(kind: keyof typeof WORDS, count: number, caps: AlertCaps | undefined): void {
  const cap = caps?.[kind] ?? DEFAULT_ALERT_CAPS[kind];
  if (count >= cap) throw new ProblemError(409, 'Conflict', `This account has ${count} ${WORDS[kind]}, the most it may have (${cap}): remove one first.`);
}

/** Throws the 422 when a rule's window or `for` is longer than its metric allows. */
export function checkSpans(rule: { metric: string; window: string; for: string }): void {
  const max = (MAX_WINDOW as Partial<Record<string, string>>)[rule.metric];
  if (max !== undefined && durationMs(rule.window) > durationMs(max))
    throw unprocessable(`window must be at most ${max} for ${rule.metric}.`, [{ field: 'window', message: `at most ${max}` }]);
  if (durationMs(rule.for) > durationMs(MAX_FOR)) throw unprocessable(`for must be at most ${MAX_FOR}.`, [{ field: 'for', message: `at most ${MAX_FOR}` }]);
}
