/**
 * Collects from a Fastify app: `await app.register(collectFastify(collector))` before the routes
 * records every request with its route template (`/v2/contacts/:id`). Only types come from
 * Fastify: the app brings its own copy.
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { Collector } from './collector.ts';
import { NO_HEADERS, pathOf, readsHeaders, recordSafely, type CollectOptions } from './measure.ts';
import { captureBodies, nodeHeader, nodePayload, watchResponse } from './node-http.ts';

export type FastifyCollectOptions = CollectOptions<FastifyRequest>;

export function collectFastify(collector: Collector, options: FastifyCollectOptions = {}): FastifyPluginCallback {
  const headers = readsHeaders(options);
  const plugin: FastifyPluginCallback = (fastify, _pluginOptions, done) => {
    fastify.addHook('onRequest', (request, reply, next) => {
      watchResponse(
        reply.raw,
        (watched) =>
          recordSafely(collector, options, request, () => {
            const path = pathOf(request.raw.url);
            const { ts, status, bytes, durationMs } = watched;
            return {
              ts,
              method: request.method,
              route: request.routeOptions.url ?? path,
              path,
              status,
              durationMs,
              bytes,
              header: headers ? nodeHeader(request.raw) : NO_HEADERS,
              payload: options.capture ? nodePayload(request.raw, reply.raw, watched, () => reply.getHeaders()) : undefined,
            };
          }),
        captureBodies(request.raw, options),
      );
      next();
    });
    done();
  };
  // What fastify-plugin does: the hook applies to the whole app, not only inside this plugin.
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
