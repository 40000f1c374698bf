/**
 * Alert evaluation: every `everyMs`, the rules that are due are claimed (each by one server of
 * the stores) and evaluated. A rule whose condition holds for its `for` fires; one whose
 * condition stops resolves. The change, the rule's state and the activity item land in one
 * transaction; the notifications go after, and what happened to them is added to the alert.
 * State lives in the records store, so a restart fires nothing twice.
 */
import { randomUUID } from 'node:crypto';
import { BURN_RATE_ALERTS } from '@ops-console/contract/enums';
import type { AlertRecord, AlertRuleRecord, AlertRuleState, Stores, Watched } from '../store/types.ts';
import { accountWork, backgroundWork } from '../fair-share.ts';
import { CONSOLE_ACTOR, recordActivity } from '../domain/activity-log.ts';
import { breaches, durationMs, linkOf, ruleValue } from './rules.ts';
import { payloadOf, type Notifier } from './notify.ts';
import { burning, sloFigures } from './slos.ts';
import { ruleValueWords, type Described } from './words.ts';

export interface AlertingOptions {
  stores: Stores;
  notifier: Notifier;
  clock: () => number;
  /** How often rules are evaluated (ms). */
  everyMs: number;
  /** Rules evaluated at once (default 4). */
  concurrency?: number | undefined;
  onError: (error: unknown) => void;
}

/** What a rule's alert leads to in the activity feed. */
function targetOf(scope: AlertRuleRecord['scope']): { kind: string; id: string } | null {
  if (scope.endpointId) return { kind: 'endpoint', id: scope.endpointId };
  if (scope.keyId) return { kind: 'key', id: scope.keyId };
  if (scope.customerId) return { kind: 'customer', id: scope.customerId };
  return null;
}

/** The items in turn by account: the first of each account, then the second of each, and so on. */
export function inTurn<T extends { accountId: string }>(items: readonly T[]): T[] {
  const byAccount = new Map<string, T[]>();
  for (const item of items) byAccount.set(item.accountId, [...(byAccount.get(item.accountId) ?? []), item]);
  const lists = [...byAccount.values()];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  return Array.from({ length: longest }, (_, i) => lists.flatMap((l) => (i < l.length ? [l[i]!] : []))).flat();
}

export function createAlerting({ stores, notifier, clock, everyMs, onError, concurrency = 4 }: AlertingOptions) {
  /** The evaluation under way (or the last one): cycles run one after another, never side by side. */
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  let timer: NodeJS.Timeout | undefined;

  /**
   * The condition of a rule or an SLO now: its value, whether it holds, how a notification
   * describes it, and how it reads once resolved (an SLO's alert by the tier it fired on).
   */
  async function condition(accountId: string, watched: Watched, now: number) {
    if (watched.rule) {
      const { rule } = watched;
      const value = await ruleValue(stores.telemetry, accountId, rule, now);
      const described = rule as Described;
      return { value, holding: breaches(rule, value), forMs: durationMs(rule.for), described, scope: rule.scope, resolvedAs: () => ({ described, value }) };
    }
    const { slo } = watched;
    const { burnRates } = await sloFigures(stores.telemetry, accountId, slo, now);
    const hot = burning(burnRates);
    const describe = (tier: (typeof BURN_RATE_ALERTS)[number]): Described => ({
      id: slo.id,
      name: slo.name,
      metric: 'burnRate',
      window: `${tier.long} and ${tier.short}`,
      for: '0m',
      threshold: tier.rate,
    });
    const tierOf = (rate: number) => BURN_RATE_ALERTS.find((a) => a.rate === rate) ?? BURN_RATE_ALERTS[0];
    const window = hot ?? BURN_RATE_ALERTS[0];
    return {
      value: burnRates[window.long],
      holding: hot !== undefined,
      forMs: 0,
      described: describe(window),
      scope: slo.scope as AlertRuleRecord['scope'],
      resolvedAs: (firedAtRate: number) => ({ described: describe(tierOf(firedAtRate)), value: burnRates[tierOf(firedAtRate).long] }),
    };
  }

  async function evaluate(accountId: string, watched: Watched, state: AlertRuleState, now: number, claimedUntil: number): Promise<void> {
    const found = await condition(accountId, watched, now);
    const { value, holding, forMs, scope } = found;
    let { described } = found;
    const holdingSince = holding ? (state.holdingSince ?? now) : null;
    const next: AlertRuleState = { holdingSince, value, evaluatedAt: now, alertId: state.alertId };
    let changed: { event: 'firing' | 'resolved'; alert: AlertRecord } | undefined;
    if (holding && !state.alertId && now - holdingSince! >= forMs) {
      const alert: AlertRecord = {
        id: `alert_${randomUUID().slice(0, 12)}`,
        ruleId: described.id,
        ruleName: described.name,
        metric: described.metric,
        scope,
        state: 'firing',
        value: value!,
        threshold: described.threshold,
        startedAt: now,
        endedAt: null,
        notifications: [],
      };
      changed = { event: 'firing', alert };
      next.alertId = alert.id;
    } else if (!holding && state.alertId) {
      const open = await stores.records.alert(accountId, state.alertId);
      next.alertId = null;
      if (open?.state === 'firing') {
        const resolved = found.resolvedAs(open.threshold);
        described = resolved.described;
        changed = { event: 'resolved', alert: { ...open, state: 'resolved', endedAt: now, value: resolved.value ?? open.value } };
      }
    }
    // Only while the claim holds: a rule changed, removed or claimed again meanwhile keeps what that did.
    const saved = await stores.records.atomically(async (records) => {
      if (!(await records.saveAlertRuleState(accountId, described.id, next, claimedUntil))) return false;
      if (!changed) return true;
      await records.saveAlert(accountId, changed.alert);
      await recordActivity({ ...stores, records }, accountId, {
        kind: changed.event === 'firing' ? 'alert-firing' : 'alert-resolved',
        actor: CONSOLE_ACTOR,
        text: ruleValueWords(changed.event, described, changed.alert.value),
        ts: now,
        subject: changed.alert.id,
        target: targetOf(scope),
      });
      return true;
    });
    if (!saved || !changed) return;
    const { channelIds, silencedUntil } = watched.rule ?? watched.slo;
    const channels = (await stores.records.alertChannels(accountId)).filter((c) => channelIds.includes(c.id));
    if (!channels.length) return;
    // Silenced: the alert fires and resolves as ever, and its history says whom it did not tell.
    const event = changed.event;
    const outcomes =
      silencedUntil != null && silencedUntil > now
        ? channels.map((c) => ({ channelId: c.id, event, status: 'silenced' as const, attempts: 0, at: now, error: null }))
        : await notifier.send(channels, payloadOf(event, changed.alert, described, notifier.link(linkOf(scope))));
    // Under the row's lock: a resolve saved while this was being delivered stays resolved.
    const alertId = changed.alert.id;
    await stores.records.atomically((records) => records.appendNotifications(accountId, alertId, outcomes));
  }

  /**
   * One evaluation of the due rules, at `now`: `concurrency` at a time, taken from the accounts in
   * turn, and none started once half the cycle's interval is spent. What is left keeps its claim
   * only until then, and is due again at the next cycle: one account's thousand rules cannot hold
   * the server, nor keep another account's few from being read.
   */
  async function cycle(now = clock()): Promise<void> {
    // Claimed for half a cycle: with several servers, whichever comes next takes each rule.
    const budgetMs = Math.max(1, Math.floor(everyMs / 2));
    const until = now + budgetMs;
    // Those waiting longest first (never evaluated before all), so what a cycle's budget leaves is another's next time.
    const claimed = await stores.records.claimDueRules(now, until);
    const due = inTurn(claimed.toSorted((a, b) => (a.state.evaluatedAt ?? -Infinity) - (b.state.evaluatedAt ?? -Infinity)));
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < due.length && performance.now() - started < budgetMs) {
        const { accountId, state, ...watched } = due[next++]!;
        await backgroundWork
          .run(true, () => accountWork.run(accountId, () => evaluate(accountId, watched, state, now, until)))
          .catch((error: unknown) => onError(error));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  /** Evaluates after the cycle under way; errors go to `onError`. */
  function queue(now?: number): Promise<void> {
    running = running.then(() => cycle(now)).catch(onError);
    return running;
  }

  return {
    /** Evaluates every due rule at `now` (the clock's by default), after any evaluation under way. */
    runOnce: (now?: number) => queue(now),
    start() {
      timer = setInterval(() => {
        // A cycle slower than the interval is not piled up behind.
        if (queued) return;
        queued = true;
        void queue().finally(() => (queued = false));
      }, everyMs);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await running;
      await notifier.close();
    },
  };
}

export type Alerting = ReturnType<typeof createAlerting>;
