/**
 * The sample API's shape: the seed's routes under /v2 and /v3 with their usual mix of methods,
 * statuses and durations, per customer and key. The live demo serves these routes for real
 * (sample-api.ts, measured by the collector); the 12-month history is drawn from the same model.
 */

export interface DemoEvent {
  ts: string;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  apiVersion: string;
  keyId: string;
  customerId: string;
  actor: { id: string; name: string };
  bytes: number;
}

export interface RouteModel {
  method: string;
  route: string;
  apiVersion: string;
  weight: number;
  okStatus: number;
  /** Typical duration in ms (the median) and how much slower the tail gets. */
  medianMs: number;
  tail: number;
  errorRate: number;
  bytes: number;
  /** Only these customers call it (a deprecated route few still use); every customer without. */
  callers?: readonly string[];
}

export const ROUTES: RouteModel[] = [
  { method: 'POST', route: '/messages', apiVersion: 'v2', weight: 40, okStatus: 201, medianMs: 150, tail: 0.35, errorRate: 0.004, bytes: 2_400 },
  { method: 'POST', route: '/messages', apiVersion: 'v3', weight: 2, okStatus: 201, medianMs: 420, tail: 0.6, errorRate: 0.03, bytes: 2_400 },
  { method: 'GET', route: '/contacts', apiVersion: 'v2', weight: 22, okStatus: 200, medianMs: 60, tail: 0.3, errorRate: 0.001, bytes: 1_100 },
  // Deprecated by the demo: two customers still call it.
  {
    method: 'DELETE',
    route: '/contacts',
    apiVersion: 'v2',
    weight: 1,
    okStatus: 204,
    medianMs: 90,
    tail: 0.3,
    errorRate: 0.0,
    bytes: 80,
    callers: ['cus_acme', 'cus_initech'],
  },
  { method: 'POST', route: '/webhooks', apiVersion: 'v2', weight: 12, okStatus: 200, medianMs: 600, tail: 0.55, errorRate: 0.06, bytes: 900 },
  { method: 'POST', route: '/auth/token', apiVersion: 'v2', weight: 9, okStatus: 200, medianMs: 200, tail: 0.3, errorRate: 0.002, bytes: 600 },
  { method: 'GET', route: '/usage', apiVersion: 'v2', weight: 5, okStatus: 200, medianMs: 70, tail: 0.3, errorRate: 0.003, bytes: 3_200 },
  { method: 'GET', route: '/usage', apiVersion: 'v3', weight: 3, okStatus: 200, medianMs: 380, tail: 0.5, errorRate: 0.02, bytes: 3_200 },
];
const TOTAL_WEIGHT = ROUTES.reduce((sum, r) => sum + r.weight, 0);

/**
 * The sample API's customers: their keys, their share of the calls, and the rate limit the API
 * holds them to (requests a minute). Globex's live calls come near its limit, so it is refused
 * now and then.
 */
export const CUSTOMERS = [
  { id: 'cus_acme', name: 'Acme Ltd', keys: ['key_acme_1', 'key_acme_2', 'key_acme_ci'], weight: 5, requestsPerMinute: 1_200 },
  { id: 'cus_globex', name: 'Globex Corp', keys: ['key_globex_1', 'key_globex_2'], weight: 3, requestsPerMinute: 250 },
  { id: 'cus_initech', name: 'Initech', keys: ['key_initech_1', 'key_initech_2', 'key_initech_3'], weight: 2, requestsPerMinute: 600 },
  { id: 'cus_umbrella', name: 'Umbrella Co', keys: ['key_umbrella_1', 'key_umbrella_2'], weight: 1, requestsPerMinute: 600 },
];

/**
 * The keys the demo registers, with their names: all the callers' but Umbrella's second (which
 * the console lists as Unregistered), Initech's third revoked five days ago and still called, and
 * two old keys nobody calls (Idle).
 */
export const REGISTERED_KEYS = [
  { id: 'key_acme_1', name: 'Production', customerId: 'cus_acme', createdDaysAgo: 380 },
  { id: 'key_acme_2', name: 'Billing service', customerId: 'cus_acme', createdDaysAgo: 200 },
  { id: 'key_acme_ci', name: 'CI', customerId: 'cus_acme', createdDaysAgo: 90 },
  { id: 'key_acme_old', name: 'Old laptop', customerId: 'cus_acme', createdDaysAgo: 420 },
  { id: 'key_globex_1', name: 'Production', customerId: 'cus_globex', createdDaysAgo: 70 },
  { id: 'key_globex_2', name: 'Sync worker', customerId: 'cus_globex', createdDaysAgo: 0.01 },
  { id: 'key_initech_1', name: 'Production', customerId: 'cus_initech', createdDaysAgo: 300 },
  { id: 'key_initech_2', name: 'Reporting', customerId: 'cus_initech', createdDaysAgo: 250 },
  { id: 'key_initech_3', name: 'Contractor', customerId: 'cus_initech', createdDaysAgo: 120, revokedDaysAgo: 5 },
  { id: 'key_initech_test', name: 'Test', customerId: 'cus_initech', createdDaysAgo: 330 },
  { id: 'key_umbrella_1', name: 'Production', customerId: 'cus_umbrella', createdDaysAgo: 150 },
  { id: 'key_umbrella_staging', name: 'Staging', customerId: 'cus_umbrella', createdDaysAgo: 140 },
];

/** A customer that calls the route, drawn by their weights. */
function pickCustomer(model: RouteModel, r: number) {
  const callers = model.callers ? CUSTOMERS.filter((c) => model.callers!.includes(c.id)) : CUSTOMERS;
  return pick(
    callers,
    callers.reduce((sum, c) => sum + c.weight, 0),
    r,
  );
}

/** A small seeded generator, so a backfill is the same every time it is made. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

const pick = <T extends { weight: number }>(items: readonly T[], total: number, r: number): T => {
  let left = r * total;
  for (const item of items) if ((left -= item.weight) < 0) return item;
  return items[items.length - 1]!;
};

/** A route and a customer's key, drawn by their weights. */
export function pickCall(rand: () => number): { model: RouteModel; key: string } {
  const model = pick(ROUTES, TOTAL_WEIGHT, rand());
  const customer = pickCustomer(model, rand());
  return { model, key: customer.keys[Math.floor(rand() * customer.keys.length)]! };
}

/** A log-normal duration: most near the route's median, a long tail; failures slower. */
export function durationOf(model: RouteModel, rand: () => number, failed = false): number {
  const normal = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Math.max(1, Math.round(model.medianMs * Math.exp(model.tail * normal) * (failed ? 1.8 : 1)));
}

/** One request at `ts`; `errorBoost` multiplies the error rate (for a live spike). */
export function demoEvent(rand: () => number, ts: number, errorBoost = 1, only?: { method: string; route: string }): DemoEvent {
  const model = only ? ROUTES.find((r) => r.method === only.method && r.route === only.route)! : pick(ROUTES, TOTAL_WEIGHT, rand());
  const customer = pickCustomer(model, rand());
  const failed = rand() < Math.min(1, model.errorRate * errorBoost);
  const clientError = !failed && rand() < 0.01;
  const durationMs = durationOf(model, rand, failed);
  return {
    ts: new Date(ts).toISOString(),
    method: model.method,
    route: model.route,
    path: `/${model.apiVersion}${model.route}`,
    status: failed ? [500, 502, 503][Math.floor(rand() * 3)]! : clientError ? [400, 401, 404, 429][Math.floor(rand() * 4)]! : model.okStatus,
    durationMs,
    apiVersion: model.apiVersion,
    keyId: customer.keys[Math.floor(rand() * customer.keys.length)]!,
    customerId: customer.id,
    actor: { id: customer.id, name: customer.name },
    bytes: Math.round(model.bytes * (0.5 + rand())),
  };
}

/** Requests on a day `daysAgo` back: growing over the year, quieter at weekends. */
export function requestsOnDay(day: Date, daysAgo: number, perDay: number): number {
  const growth = 1 - daysAgo / 730;
  const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6 ? 0.6 : 1;
  return Math.round(perDay * growth * weekend);
}
