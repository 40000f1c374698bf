/** Serves a console server over HTTP on Node. */
import { serve as serveNode } from '@hono/node-server';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsoleServer } from './server.ts';

export interface ServeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (this machine only). */
  hostname?: string;
  /** Connections held at once (default 1,024); beyond it new ones are closed at once. */
  maxConnections?: number;
  /** How long a client may take to send its request headers (default 10 s): a slow-headers client cannot hold a connection. */
  headersTimeoutMs?: number;
  /** How long a client may take to send its whole request (default 60 s). */
  requestTimeoutMs?: number;
}

/** Resolves once listening; rejects (a busy port, a name that does not resolve) instead of crashing the process. */
export function serve(
  server: ConsoleServer,
  { port = 8787, hostname = '127.0.0.1', maxConnections = 1_024, headersTimeoutMs = 10_000, requestTimeoutMs = 60_000 }: ServeOptions = {},
): Promise<{ url: string; close(options?: { timeoutMs?: number }): Promise<void> }> {
  return new Promise((resolve, reject) => {
    // Node checks the timeouts every connectionsCheckingInterval (30 s by default): often enough that they hold.
    const serverOptions = { connectionsCheckingInterval: headersTimeoutMs > 0 ? Math.min(1_000, headersTimeoutMs) : 30_000 };
    const http = serveNode({
      fetch: (request, env: HttpBindings | Http2Bindings) => server.fetch(request, { remoteAddress: env.incoming.socket.remoteAddress }),
      port,
      hostname,
      serverOptions,
    }) as Server;
    Object.assign(http, { maxConnections, headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs });
    http.once('error', reject);
    http.once('listening', () => {
      http.off('error', reject);
      http.on('error', (error) => console.error('[ops-console server] http', error));
      resolve({
        url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${(http.address() as AddressInfo).port}`,
        close: ({ timeoutMs = 10_000 } = {}) =>
          new Promise<void>((done) => {
            // Stops accepting; requests under way finish, idle kept-alive connections go now, and
            // whatever is still open at the deadline is cut.
            const deadline = setTimeout(() => http.closeAllConnections(), timeoutMs);
            http.close(() => {
              clearTimeout(deadline);
              done();
            });
            http.closeIdleConnections();
          }),
      });
    });
  });
}
