/**
 * Console reads admitted by fair share, not only by rate: the server runs a few reads at once,
 * one account at most `perAccount` of them and one customer of an account at most `perCustomer`,
 * and when a read ends the next waiting one is taken from the accounts in turn. A tenant whose
 * reads are heavy but within its rate then waits behind its own reads, not in front of another
 * tenant's. A page's burst of panels waits its turn; beyond `queue` waiting reads an account gets
 * 429 with Retry-After.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { ProblemError } from './problem.ts';
import type { TelemetryStore } from './store/types.ts';

export interface FairShareLimits {
  /** Reads run at once, in all (default 4). */
  total?: number;
  /** Reads of one account run at once (default 2). */
  perAccount?: number;
  /** Reads of one customer's console (embed sessions, customer tokens) run at once (default 1). */
  perCustomer?: number;
  /** Reads of one account waiting, at most (default 64). */
  queue?: number;
}

export const DEFAULT_FAIR_SHARE = { total: 4, perAccount: 2, perCustomer: 1, queue: 64 } as const;

/**
 * The database's share, query by query: as many queries at once as the machine has cores, one
 * of them per account (each query uses every core it can). The queue is the requests' to bound.
 */
export const QUERY_SHARE = { total: Math.max(2, availableParallelism()), perAccount: 1, queue: Number.MAX_SAFE_INTEGER } as const;

interface Waiter {
  customerId: string | undefined;
  start: () => void;
}

interface Account {
  running: number;
  customers: Map<string, number>;
  waiting: Waiter[];
}

/** Admits a read of the account (and customer); the answer ends its turn. */
export type Admit = (accountId: string, customerId: string | undefined) => Promise<() => void>;

export function createFairShare(limits: FairShareLimits = {}): Admit {
  const { total, perAccount, perCustomer, queue } = { ...DEFAULT_FAIR_SHARE, ...limits };
  let running = 0;
  const accounts = new Map<string, Account>();
  /** Accounts with reads waiting, in the order they are served. */
  const turns: string[] = [];

  const fits = (account: Account, customerId: string | undefined) =>
    running < total && account.running < perAccount && (customerId === undefined || (account.customers.get(customerId) ?? 0) < perCustomer);

  const take = (accountId: string, account: Account, customerId: string | undefined): (() => void) => {
    running++;
    account.running++;
    if (customerId !== undefined) account.customers.set(customerId, (account.customers.get(customerId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      running--;
      account.running--;
      if (customerId !== undefined) {
        const left = account.customers.get(customerId)! - 1;
        if (left) account.customers.set(customerId, left);
        else account.customers.delete(customerId);
      }
      if (!account.running && !account.waiting.length) accounts.delete(accountId);
      serveWaiting();
    };
  };

  /** Starts waiting reads while they fit, one account at a time in turn, until a whole turn starts none. */
  const serveWaiting = () => {
    let idle = 0;
    while (running < total && turns.length && idle < turns.length) {
      const accountId = turns.shift()!;
      const account = accounts.get(accountId)!;
      const next = account.waiting.findIndex((w) => fits(account, w.customerId));
      if (next === -1) idle++;
      else {
        account.waiting.splice(next, 1)[0]!.start();
        idle = 0;
      }
      if (account.waiting.length) turns.push(accountId);
    }
  };

  return (accountId, customerId) => {
    let account = accounts.get(accountId);
    if (!account) accounts.set(accountId, (account = { running: 0, customers: new Map(), waiting: [] }));
    const ours = account;
    if (!ours.waiting.length && fits(ours, customerId)) return Promise.resolve(take(accountId, ours, customerId));
    if (ours.waiting.length >= queue) {
      if (!ours.running) accounts.delete(accountId);
      return Promise.reject(
        new ProblemError(429, 'Too many requests', 'This account has too many console reads waiting. Retry in 1 s.', undefined, { 'retry-after': '1' }),
      );
    }
    return new Promise((resolve) => {
      ours.waiting.push({ customerId, start: () => resolve(take(accountId, ours, customerId)) });
      if (!turns.includes(accountId)) turns.push(accountId);
      serveWaiting();
    });
  };
}

/** The telemetry store's reads, by their account: the reads a fair share admits one query at a time. */
const READS = ['counts', 'latency', 'keys', 'busiestMinute', 'lastUsed', 'requests', 'deliveries', 'payload'] as const;

/**
 * The telemetry store with each read admitted by its account's fair share of the database: a
 * console read asks several queries at once, and an alert cycle many, so requests alone do not
 * say what a tenant costs. Writes pass as they are (one writer takes them in turn).
 */
export function fairTelemetry(telemetry: TelemetryStore, admit: Admit, { yieldAtMostMs = YIELD_AT_MOST_MS } = {}): TelemetryStore {
  const fair = Object.create(telemetry) as TelemetryStore;
  /** Queries of requests (not of background work) asked for and not yet answered. */
  let foreground = 0;
  let paused: PromiseWithResolvers<undefined> | undefined;
  /** Until the requests' queries pause, or `yieldAtMostMs`, so background work is late, never starved. */
  const requestsPause = async () => {
    if (!foreground) return;
    paused ??= Promise.withResolvers<undefined>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([paused.promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, yieldAtMostMs)))]);
    clearTimeout(timer);
  };
  for (const name of READS) {
    const read = (telemetry[name] as (accountId: string, ...rest: unknown[]) => Promise<unknown>).bind(telemetry);
    Object.assign(fair, {
      [name]: async (accountId: string, ...rest: unknown[]) => {
        const background = backgroundWork.getStore() === true;
        if (background) await requestsPause();
        else foreground++;
        try {
          const done = await admit(accountId, undefined);
          try {
            return await read(accountId, ...rest);
          } finally {
            done();
          }
        } finally {
          if (!background && !--foreground) {
            paused?.resolve(undefined);
            paused = undefined;
          }
        }
      },
    });
  }
  return fair;
}

/** How long a background query waits for the requests' queries to pause, at most. */
const YIELD_AT_MOST_MS = 250;

/**
 * Work no request waits for (alert evaluation): its queries start when the requests' queries
 * pause, as each query takes every core it can, and a request's read of several queries would
 * otherwise share the cores with a background query at each of them.
 */
export const backgroundWork = new AsyncLocalStorage<true>();

/**
 * Whose work is under way (its account), for what is shared below the handlers, where the
 * account is not passed along: the embedded store's one writer serves accounts in turn by it.
 */
export const accountWork = new AsyncLocalStorage<string>();
