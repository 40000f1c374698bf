/**
 * A customer-scoped token's telemetry: every question about events is narrowed to the one
 * customer, here and not in each view, so no view can forget it. Deliveries carry no customer:
 * the webhook views check the webhook's record instead.
 */
import { notFound } from '../problem.ts';
import type { EventFilter, TelemetryStore } from './types.ts';

export function customerTelemetry(telemetry: TelemetryStore, customerId: string): TelemetryStore {
  const narrowed = <F extends EventFilter>(filter: F | undefined): F => {
    // The route guard already answers 404 for another customer's id in a query; a view asking for one is refused the same way.
    if (filter?.customerId !== undefined && filter.customerId !== customerId) throw notFound(`No customer ${filter.customerId} in this account.`);
    return { ...filter, customerId } as F;
  };
  return {
    append: (events) => telemetry.append(events),
    appendDeliveries: (deliveries) => telemetry.appendDeliveries(deliveries),
    deliveries: (accountId, question) => telemetry.deliveries(accountId, question),
    counts: (accountId, question) => telemetry.counts(accountId, { ...question, filter: narrowed(question.filter) }),
    latency: (accountId, question) => telemetry.latency(accountId, { ...question, filter: narrowed(question.filter) }),
    keys: (accountId, question) => telemetry.keys(accountId, { ...question, filter: narrowed(question.filter) }),
    busiestMinute: (accountId, filter) => telemetry.busiestMinute(accountId, narrowed(filter)),
    requests: (accountId, query) => telemetry.requests(accountId, narrowed(query)),
    // Another customer's request has no payload here: the request itself is looked up within the customer first.
    async payload(accountId, place) {
      const [own] = await telemetry.requests(accountId, narrowed({ limit: 1, seq: place.seq, from: place.ts, to: place.ts + 1 }));
      return own ? telemetry.payload(accountId, place) : null;
    },
    erasePayloads: (accountId, customer) => telemetry.erasePayloads(accountId, narrowed({ customerId: customer }).customerId),
    expirePayloads: () => Promise.reject(notFound('Retention is the account’s, not a customer’s.')),
    // The stores keep each key's newest request across customers; the customer's own come from its events.
    async lastUsed(accountId, filter) {
      const rows = await telemetry.latency(accountId, {
        periods: [{ from: 0, to: Number.MAX_SAFE_INTEGER }],
        filter: { customerId, ...(filter?.keyId ? { keyId: filter.keyId } : {}) },
        by: ['keyId'],
        quantiles: [],
        newest: true,
      });
      return new Map(rows.filter((row) => row.group.keyId && row.requests[0]! > 0).map((row) => [row.group.keyId!, row.newest![0]!]));
    },
  };
}
