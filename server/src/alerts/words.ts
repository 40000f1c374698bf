/** A rule's value in words, as notifications and the activity feed say it: "error rate 12.5% over 5m, above 5%". */
import type { AlertRuleRecord } from '../store/types.ts';

type Metric = AlertRuleRecord['metric'] | 'burnRate';

const METRIC_WORDS: Record<Metric, [name: string, unit: (n: number) => string]> = {
  errorRate: ['error rate', (n) => `${n}%`],
  p95: ['P95 latency', (n) => `${n} ms`],
  p99: ['P99 latency', (n) => `${n} ms`],
  requestsAbove: ['requests', (n) => n.toLocaleString('en-US')],
  requestsBelow: ['requests', (n) => n.toLocaleString('en-US')],
  spike: ['requests against the last four weeks', (n) => `${n}×`],
  burnRate: ['error budget burn rate', (n) => `${n}×`],
};

/** What a notification says of the rule (or SLO): its name, metric, window and threshold. */
export interface Described {
  id: string;
  name: string;
  metric: Metric;
  window: string;
  for: string;
  threshold: number;
}

export function metricWords(rule: Pick<Described, 'metric' | 'window' | 'threshold'>, value: number): string {
  const [name, unit] = METRIC_WORDS[rule.metric];
  const side = rule.metric === 'requestsBelow' ? 'below' : 'above';
  return `${name} ${unit(value)} over ${rule.window}, ${side} ${unit(rule.threshold)}`;
}

export function ruleValueWords(
  event: 'firing' | 'resolved' | 'test',
  rule: Pick<Described, 'name' | 'metric' | 'window' | 'threshold'>,
  value: number,
): string {
  if (event === 'test') return `Test notification for “${rule.name}” from Ops Console.`;
  const [name, unit] = METRIC_WORDS[rule.metric];
  return event === 'firing'
    ? `Alert “${rule.name}” is firing: ${metricWords(rule, value)}.`
    : `Alert “${rule.name}” resolved: ${name} ${unit(value)} over ${rule.window}.`;
}
