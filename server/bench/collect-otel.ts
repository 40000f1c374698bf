/**
 * Preloaded into the collector bench's OpenTelemetry API (`node --import ./collect-otel.ts
 * collect-api.ts otel`): the OpenTelemetry Node SDK with the HTTP instrumentation, a batch span
 * processor and the OTLP/HTTP protobuf exporter, all at their default settings, exporting to
 * the console server's /v1/traces (BENCH_OTLP_URL, with the bench's ingest key). Only the span
 * count the exporter reports and a flush for the bench's CPU readings are added.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { register } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';

// Without the loader hook the instrumentation never sees an ES module's `node:http`: no span, and no error either.
// OpenTelemetry's documented ESM hook is an async loader (module.register); it has no registerHooks form yet.
// eslint-disable-next-line @typescript-eslint/no-deprecated
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];

/** Spans the exporter got through to the console server, and those it could not. */
export const exported = { sent: 0, failed: 0 };

const otlp = new OTLPTraceExporter({ url: `${process.env['BENCH_OTLP_URL']}/v1/traces`, headers: { authorization: 'Bearer bench-ingest' } });
// Counts what each export achieved: a failing exporter (a wrong key, a wrong URL) costs less CPU and would flatter OpenTelemetry silently.
const counting: SpanExporter = {
  export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
    otlp.export(spans, (result) => {
      // The OTLP exporters give every failed export its error; a success has none.
      exported[result.error ? 'failed' : 'sent'] += spans.length;
      done(result);
    });
  },
  shutdown: () => otlp.shutdown(),
  forceFlush: () => otlp.forceFlush(),
};
const processor = new BatchSpanProcessor(counting);
// Traces only: by default the SDK would also export metrics and logs (to localhost:4318), which the other variants do not pay for.
const sdk = new NodeSDK({ instrumentations: [new HttpInstrumentation()], spanProcessors: [processor], metricReaders: [], logRecordProcessors: [] });
sdk.start();

/** Exports the spans waiting for the batch processor's timer (5 s by default), so a load's last batch counts as its own. */
export const flushSpans = () => processor.forceFlush().catch(() => undefined);
