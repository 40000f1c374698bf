/** A rule's value in words, as notifications and the activity feed say it: "error rate 12.5% over 5m, above 5%". */
import type { AlertRuleRecord } from '../store/types.ts';

const METRIC_WORDS: Record<AlertRuleRecord['metric'], [name: string, unit: (n: number) => string]> = {
  errorRate: ['error rate', (n) => `${n}%`],
  p95: ['P95 latency', (n) => `${n} ms`],
  p99: ['P99 latency', (n) => `${n} ms`],
  requestsAbove: ['requests', (n) => n.toLocaleString('en-US')],
  requestsBelow: ['requests', (n) => n.toLocaleString('en-US')],
  spike: ['requests against the last four weeks', (n) => `${n}×`],
};

export function metricWords(rule: Pick<AlertRuleRecord, 'metric' | 'window' | 'threshold'>, value: number): string {
  const [name, unit] = METRIC_WORDS[rule.metric];
  const side = rule.metric === 'requestsBelow' ? 'below' : 'above';
  return `${name} ${unit(value)} over ${rule.window}, ${side} ${unit(rule.threshold)}`;
}

export function ruleValueWords(
  event: 'firing' | 'resolved' | 'test',
  rule: Pick<AlertRuleRecord, 'name' | 'metric' | 'window' | 'threshold'>,
  value: number,
): string {
  if (event === 'test') return `Test notification for “${rule.name}” from Ops Console.`;
  const [name, unit] = METRIC_WORDS[rule.metric];
  return event === 'firing'
    ? `Alert “${rule.name}” is firing: ${metricWords(rule, value)}.`
    : `Alert “${rule.name}” resolved: ${name} ${unit(value)} over ${rule.window}.`;
}
