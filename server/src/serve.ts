/** Serves a console server over HTTP on Node. */
import { serve as serveNode } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { ConsoleServer } from './server.ts';

export function serve(server: ConsoleServer, { port = 8787, hostname = '127.0.0.1' } = {}): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const http = serveNode({ fetch: (request) => server.fetch(request), port, hostname }, (info: AddressInfo) => {
      resolve({
        url: `http://${hostname}:${info.port}`,
        close: () => new Promise<void>((done) => http.close(() => done())),
      });
    });
  });
}
