/**
 * GET /keys and GET /keys/{id} of the mock API: the registered keys of the fixtures and the
 * unregistered ones the generated request log names, each making its part of its customer's
 * requests at a steady rate, as the console server reports them.
 */
import type { ApiKey, Endpoint, KeySummary } from '../src/api/schemas.ts';
import { isoSeconds, windowOf, type ResolvedWindow } from '@ops-console/contract/time-window';
import { apiKeys, customers } from './fixtures.ts';
import { hash, keyOf, requestAt, requestPage } from './generate.ts';
import { scaledToWindow, windowedMock } from './windows.ts';

const DAY_MS = 86_400_000;
const MONTH_MS = 30 * DAY_MS;
/** How far back the log is searched for a key's latest request. */
const LOOK_BACK = 4_000;

interface MockKey {
  id: string;
  name: string | null;
  customerId: string;
  createdAt: string | null;
  revokedAt: string | null;
  part: number;
  /** Its requests in 30 days, for a key whose customer's record counts none (Hooli's, named only by the log). */
  perMonth?: number;
  lastUsedAt?: string;
}

/** The registered keys, and Hooli's three, which only the log names. */
const KEYS: MockKey[] = [
  ...apiKeys,
  ...[4_200, 1_300, 600].map((perMonth, n) => ({
    id: `key_live_hooli_${n}`,
    name: null,
    customerId: 'cus_hooli',
    createdAt: null,
    revokedAt: null,
    part: 0,
    perMonth,
  })),
];

/** Each key's newest request in the generated log (the log's newest entry is at `anchor`). */
function lastUsed(anchor: Date): Map<string, string> {
  const found = new Map<string, string>();
  for (let i = 0; i < LOOK_BACK && found.size < KEYS.length; i++) {
    const entry = requestAt(i, anchor);
    const key = keyOf(entry);
    if (!found.has(key)) found.set(key, entry.time);
  }
  return found;
}

function summaryOf(key: MockKey, window: ResolvedWindow, now: Date, used: Map<string, string>): KeySummary {
  const customer = customers.find((c) => c.id === key.customerId)!;
  const perMonth = key.perMonth ?? Math.round(customer.requests * key.part);
  const lastUsedAt = key.lastUsedAt ?? used.get(key.id) ?? null;
  const requests = lastUsedAt ? scaledToWindow(perMonth, window) : 0;
  const revoked = key.revokedAt !== null && Date.parse(key.revokedAt) <= now.getTime();
  const active = lastUsedAt !== null && Date.parse(lastUsedAt) >= now.getTime() - 30 * DAY_MS;
  return {
    id: key.id,
    name: key.name,
    customer: key.name === null ? null : { id: customer.id, name: customer.name },
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
    lastUsedAt,
    requests,
    errorPct: requests ? customer.errorPct || 0.8 : 0,
    p95Ms: requests ? 120 + (hash(key.id.length, key.part * 1000) % 180) : null,
    throttled: Math.round((customer.throttled ?? 0) * key.part * (requests / Math.max(1, perMonth))),
    status: key.name === null ? 'Unregistered' : revoked ? 'Revoked' : active ? 'Active' : 'Idle',
  };
}

/** Every key's row over the window. */
export function keyRows(window: ResolvedWindow, now: Date, anchor: Date): KeySummary[] {
  const used = lastUsed(anchor);
  return KEYS.map((key) => summaryOf(key, window, now, used));
}

/** One key's page, or `undefined` for a key the mock API does not know. */
export function keyDetail(
  id: string,
  window: ResolvedWindow,
  now: Date,
  anchor: Date,
  endpoints: readonly Endpoint[],
  requestCount: number,
): ApiKey | undefined {
  const key = KEYS.find((k) => k.id === id);
  if (!key) return undefined;
  const row = summaryOf(key, window, now, lastUsed(anchor));
  const perMonth = (row.requests * MONTH_MS) / (window.to - window.from);
  const { total, previousTotal: _, ...ranged } = windowedMock(window, { perMonth, errorPct: row.errorPct, p95Ms: row.p95Ms ?? 0 }, 30 + key.id.length);
  // The key calls the log's busiest v3 endpoints, each in proportion to its requests.
  const called = total ? endpoints.filter((e) => e.apiVersion === 'v3').slice(0, 4) : [];
  const endpointCounts = splitBy(
    total,
    called.map((e) => e.requests),
  );
  const versionCounts = total ? splitBy(total, [0.8, 0.2]) : [];
  const revokedAt = key.revokedAt === null ? null : Date.parse(key.revokedAt);
  const latest = row.lastUsedAt ? requestPage(requestCount, anchor, 0, 10, { keyId: id }).items : [];
  const afterRevocation =
    revokedAt === null
      ? 0
      : Math.round((Math.round(key.part * customers.find((c) => c.id === key.customerId)!.requests) * (now.getTime() - revokedAt)) / MONTH_MS);
  return {
    ...row,
    requests: total,
    window: windowOf(window),
    overTime: ranged.overTime,
    // Busiest first, as the server lists them.
    endpoints: called
      .map((e, i) => ({ id: e.id, label: `${e.method} ${e.path}`, apiVersion: e.apiVersion ?? null, requests: endpointCounts[i]!, sharePct: 0 }))
      .sort((a, b) => b.requests - a.requests)
      .map((e, i, all) => ({ ...e, sharePct: sharesOf(all.map((x) => x.requests))[i]! })),
    versions: versionCounts.map((requests, i) => ({ version: ['v3', 'v2'][i]!, requests, sharePct: sharesOf(versionCounts)[i]! })),
    latestRequests: latest.map((r) => ({ ...r, afterRevocation: revokedAt !== null && Date.parse(r.time) >= revokedAt })),
    afterRevocation: revokedAt === null ? null : { requests: afterRevocation, lastAt: afterRevocation ? (row.lastUsedAt ?? isoSeconds(now.getTime())) : null },
  };
}

/** `total` split in proportion to `weights`, adding up to `total` (the rest to the first). */
function splitBy(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => (sum ? Math.floor((total * w) / sum) : 0));
  if (parts.length) parts[0]! += total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/** Shares in percent with one decimal adding up to exactly 100.0 (largest remainder, as the server). */
export function sharesOf(values: readonly number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  const tenths = values.map((v) => (total ? (v / total) * 1000 : 0));
  const shares = tenths.map(Math.floor);
  const order = tenths.map((t, i) => ({ i, rest: t - shares[i]! })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let left = total ? 1000 - shares.reduce((a, b) => a + b, 0) : 0, k = 0; left > 0; left--, k++) shares[order[k]!.i]!++;
  return shares.map((t) => t / 10);
}
