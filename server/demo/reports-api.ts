/**
 * A second small API, on plain node:http, that knows nothing of the console: the OpenTelemetry
 * SDK (preloaded from otel.ts) turns each request into a SERVER span and exports it over
 * OTLP/HTTP to the console server's /v1/traces. The handler names its route and caller on the
 * span, as instrumented services do.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CUSTOMERS } from './traffic.ts';

const OWNERS = new Map(CUSTOMERS.flatMap((c) => c.keys.map((key) => [key, c.id] as const)));
const tracer = trace.getTracer('reports-api');
const port = Number(process.env['REPORTS_PORT'] ?? 8789);

const server = createServer((request, response) => {
  const span = trace.getActiveSpan();
  const path = (request.url ?? '/').split('?')[0]!;
  const key = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (key && OWNERS.has(key)) span?.setAttributes({ 'ops.key_id': key, 'ops.customer_id': OWNERS.get(key)! });
  const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (!key || !OWNERS.has(key)) return answer(401, { error: 'unknown API key' });

  const one = /^\/v3\/reports\/(r_\d+)$/.exec(path);
  if (request.method === 'GET' && one) {
    span?.setAttribute('http.route', '/v3/reports/:id');
    // Work inside the request shows as an internal span, which the console counts and leaves out.
    void tracer.startActiveSpan('render report', { kind: SpanKind.INTERNAL }, async (inner) => {
      await sleep(20 + Math.random() * 80);
      inner.end();
      const id = one[1]!;
      if (Number(id.slice(2)) >= 450) answer(404, { error: 'no such report' });
      else answer(200, { id, rows: 120 });
    });
    return;
  }
  if (request.method === 'POST' && path === '/v3/reports') {
    span?.setAttribute('http.route', '/v3/reports');
    setTimeout(() => answer(202, { id: `r_${Math.floor(Math.random() * 500)}`, status: 'queued' }), 40 + Math.random() * 200);
    return;
  }
  answer(404, { error: 'not found' });
});

server.listen(port, '127.0.0.1', () => console.log(`reports API on http://127.0.0.1:${port}`));
process.on('SIGTERM', () => server.close());
