/**
 * Preloaded into the reports API (`node --import ./otel.ts reports-api.ts`): the OpenTelemetry
 * Node SDK with the HTTP instrumentation, configured by the standard OTEL_* environment
 * variables (endpoint, headers, protocol, service name), as any instrumented service would be.
 */
import { register } from 'node:module';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

// Lets the instrumentation patch `node:http` for ES modules too.
// OpenTelemetry's documented ESM hook is an async loader (module.register); it has no registerHooks form yet.
// eslint-disable-next-line @typescript-eslint/no-deprecated
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

const sdk = new NodeSDK({ instrumentations: [new HttpInstrumentation()] });
sdk.start();
const stop = () => void sdk.shutdown().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
