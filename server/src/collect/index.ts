/** Collectors: measure a Node API's requests and send them to the console server. */
export {
  createCollector,
  type Collector,
  type CollectorOptions,
  type CollectorProblem,
  type CollectorStats,
  type MeasuredRequest,
  type Sink,
} from './collector.ts';
export { closeOnSignals, type CloseOnSignalsOptions } from './signals.ts';
export { CLIENT_CLOSED, type CollectOptions, type Identify, type VersionOption } from './measure.ts';
export { collectHttp, type HttpCollectOptions } from './node-http.ts';
export { collectHono, type HonoCollectOptions } from './hono.ts';
export { collectExpress, type ExpressCollectOptions } from './express.ts';
export { collectFastify, type FastifyCollectOptions } from './fastify.ts';
