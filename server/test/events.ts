/** A known set of events around a fixed "now", used by the figure and conformance tests. */
import type { EventInput } from './harness.ts';

export const NOW = '2026-09-14T09:45:00Z';

const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

export function knownEvents(): EventInput[] {
  const events: EventInput[] = [];
  for (let i = 0; i < 20; i++) {
    events.push({
      ts: at('2026-09-10T10:00:00Z', i),
      method: 'POST',
      route: '/messages',
      path: `/messages`,
      status: i === 3 || i === 7 ? 500 : 201,
      durationMs: 10 * (i + 1),
      apiVersion: 'v1',
      keyId: `key_${i % 4}`,
      customerId: i % 2 === 0 ? 'cus_acme' : 'cus_globex',
      actor: { id: 'u_lee', name: 'Lee Park' },
      bytes: 1000,
    });
  }
  [5, 9, 1, 300, 7, 8, 2].forEach((durationMs, i) =>
    events.push({
      ts: at('2026-09-12T08:00:00Z', i),
      method: 'GET',
      route: '/contacts/{id}',
      path: `/contacts/c_${i}`,
      status: 200,
      durationMs,
      apiVersion: 'v1',
      keyId: 'key_9',
    }),
  );
  [50, 60, 70].forEach((durationMs, i) =>
    events.push({
      ts: at('2026-09-13T08:00:00Z', i),
      method: 'GET',
      route: '/contacts/{id}',
      path: `/contacts/c_${i}`,
      status: 404,
      durationMs,
      apiVersion: 'v2',
      customerId: 'cus_acme',
    }),
  );
  [100, 120].forEach((durationMs, i) =>
    events.push({ ts: at('2026-08-20T12:00:00Z', i), method: 'DELETE', route: '/usage', status: 503, durationMs, keyId: 'key_old' }),
  );
  // Either side of the end of August in UTC; both in September in Auckland (UTC+12).
  events.push({ ts: '2026-08-31T23:30:00Z', method: 'POST', route: '/webhooks', status: 200, durationMs: 40 });
  events.push({ ts: '2026-09-01T00:10:00Z', method: 'POST', route: '/webhooks', status: 500, durationMs: 45 });
  for (let i = 0; i < 4; i++)
    events.push({ ts: at('2026-09-14T09:00:00Z', i), method: 'POST', route: '/auth/token', status: 200, durationMs: 30 + i, keyId: 'key_1' });
  // A year earlier, for the traffic page's "Last year".
  for (let i = 0; i < 5; i++)
    events.push({ ts: at('2025-09-14T09:00:00Z', i), method: 'POST', route: '/messages', status: 201, durationMs: 20, apiVersion: 'v1' });
  // Earlier this year, several months back.
  for (let i = 0; i < 3; i++)
    events.push({
      ts: at('2026-02-27T22:00:00Z', i * 90),
      method: 'GET',
      route: '/contacts/{id}',
      path: '/contacts/c_1',
      status: 200,
      durationMs: 15,
      apiVersion: 'v1',
    });
  return events;
}
