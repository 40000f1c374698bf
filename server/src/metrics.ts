/**
 * The server's own metrics for Prometheus (`GET /metrics`, text format): HTTP requests by route
 * template and status with a duration histogram (`@hono/prometheus`), what ingest and the OTLP
 * receiver took and refused, store errors, and the ingest bytes being read, plus the process
 * metrics prom-client collects. Each console server has a registry of its own.
 */
import { prometheus } from '@hono/prometheus';
import type { Context, MiddlewareHandler } from 'hono';
import { Counter, Gauge, Registry } from 'prom-client';

export interface MetricsOptions {
  /** A bearer token `/metrics` requires (`Authorization: Bearer <token>`). */
  token?: string;
  /** Serve `/metrics` to anyone who can reach the port (inside a private network only). */
  public?: boolean;
}

export interface ServerMetrics {
  /** Times every request; mount before the routes. */
  measure: MiddlewareHandler;
  /** Answers the scrape. */
  print: (c: Context) => Promise<Response>;
  ingestEvents: Counter<'outcome'>;
  otlpSpans: Counter<'outcome'>;
  storeErrors: Counter<'kind'>;
  ingestBytesInFlight: Gauge;
}

export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  const { registerMetrics } = prometheus({ registry, collectDefaultMetrics: true });
  const registers = [registry];
  return {
    measure: registerMetrics,
    // With the exposition format's own content type (text/plain; version=0.0.4), which scrapers read.
    print: async (c) => c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }),
    ingestEvents: new Counter({
      name: 'ops_console_ingest_events_total',
      help: 'Request events sent to POST /ingest/v1/requests and /v1/traces, by outcome (accepted, rejected).',
      labelNames: ['outcome'],
      registers,
    }),
    otlpSpans: new Counter({
      name: 'ops_console_otlp_spans_total',
      help: 'Spans sent to POST /v1/traces, by outcome (accepted: HTTP server spans kept; ignored: other spans; rejected).',
      labelNames: ['outcome'],
      registers,
    }),
    storeErrors: new Counter({
      name: 'ops_console_store_errors_total',
      help: 'Requests answered with a server error, by kind (unavailable: a database could not be reached, 503; failed: any other unexpected error, 500).',
      labelNames: ['kind'],
      registers,
    }),
    ingestBytesInFlight: new Gauge({
      name: 'ops_console_ingest_bytes_in_flight',
      help: 'Bytes of ingest and OTLP bodies (by Content-Length) being read or stored now.',
      registers,
    }),
  };
}
