/**
 * `@ops-console/collect`: measures a Node API's requests and sends them to the console server,
 * with adapters for `node:http`, Express, Fastify (each also NestJS's platform) and Koa (with
 * @koa/router). Hono's adapter is
 * `@ops-console/collect/hono`, so a host without Hono never loads it.
 */
export {
  createCollector,
  type Collector,
  type CollectorOptions,
  type CollectorProblem,
  type CollectorStats,
  type MeasuredRequest,
  type RequestEvent,
  type EventStore,
  type Sink,
} from './collector.ts';
export { closeOnSignals, type CloseOnSignalsOptions } from './signals.ts';
export type { CaptureOptions, SampleOptions } from './capture.ts';
export type { CapturedBody } from '@ops-console/contract/captured-body';
export type { MaskOptions } from '@ops-console/contract/masking';
export { CLIENT_CLOSED, type CollectOptions, type Identify, type VersionOption } from './measure.ts';
export { collectHttp, type HttpCollectOptions } from './node-http.ts';
export { collectExpress, type ExpressCollectOptions } from './express.ts';
export { collectFastify, type FastifyCollectOptions } from './fastify.ts';
export { collectKoa, type KoaCollectOptions } from './koa.ts';
