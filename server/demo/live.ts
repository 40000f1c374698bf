/**
 * Live traffic for the demo, over real HTTP: every second a handful of calls to the sample API
 * (measured by its collector) and to the OpenTelemetry-instrumented reports API (sent as
 * traces), with now and then a bad key, an unknown path, and a burst of failing webhooks.
 */
import type { SampleApi } from './sample-api.ts';
import { pickCall, random } from './traffic.ts';

export interface LiveTargets {
  /** The sample API (collector) and its handle, to turn its webhook failures up for a while. */
  sample: { origin: string; api: SampleApi };
  /** The reports API (OpenTelemetry), when it runs. */
  reports?: { origin: string };
}

export function liveTraffic({ sample, reports }: LiveTargets): () => void {
  const rand = random(Date.now());
  let tick = 0;
  const normalRate = sample.api.webhookFailureRate;
  // A target that is down (the reports API still starting, say) is reported once, not every second.
  const reported = new Set<string>();
  const call = (url: string, init: RequestInit) =>
    fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
      .then((response) => response.body?.cancel())
      .catch((error: unknown) => {
        const message = `${new URL(url).origin}: ${error instanceof Error ? error.message : String(error)}`;
        if (!reported.has(message)) console.error('[demo traffic]', message);
        reported.add(message);
      });
  const timer = setInterval(() => {
    tick++;
    // Every ten minutes (the first after 30 s), half a minute of failing webhooks: a spike to see.
    sample.api.webhookFailureRate = tick % 600 >= 30 && tick % 600 < 60 ? 0.7 : normalRate;
    const count = 5 + Math.floor(rand() * 20);
    for (let i = 0; i < count; i++) {
      const { model, key } = pickCall(rand);
      const odd = rand();
      const path = odd < 0.005 ? `/${model.apiVersion}/nowhere` : `/${model.apiVersion}${model.route}`;
      const authorization = odd > 0.995 ? 'Bearer key_revoked' : `Bearer ${key}`;
      const body = model.method === 'POST' ? JSON.stringify(requestBodyOf(model.route, rand)) : undefined;
      // Spread over the second, as real callers are.
      setTimeout(
        () => void call(`${sample.origin}${path}`, { method: model.method, headers: { authorization, 'content-type': 'application/json' }, body }),
        Math.floor(rand() * 1000),
      );
    }
    if (reports && tick % 2 === 0) {
      const { key } = pickCall(rand);
      const path = rand() < 0.7 ? `/v3/reports/r_${Math.floor(rand() * 500)}` : '/v3/reports';
      void call(`${reports.origin}${path}`, { method: path === '/v3/reports' ? 'POST' : 'GET', headers: { authorization: `Bearer ${key}` } });
    }
  }, 1000);
  return () => clearInterval(timer);
}

/** What a caller sends to a route: an order-like body, with the secrets real callers send too (masked before they are kept). */
function requestBodyOf(route: string, rand: () => number): unknown {
  const n = Math.floor(rand() * 1e6);
  if (route === '/auth/token') return { grant_type: 'client_credentials', client_id: `cli_${n % 97}`, client_secret: `cs_live_${n}` };
  if (route === '/webhooks') return { url: `https://hooks.example.com/${n % 13}`, events: ['invoice.paid'], secret: `whsec_${n}` };
  return { to: `+1555${String(n).padStart(7, '0')}`, text: `Your order ord_${n} has shipped.`, metadata: { orderId: `ord_${n}`, card: '4242 4242 4242 4242' } };
}
