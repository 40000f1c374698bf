// serve(): a busy port is a rejected promise, not a crashed process; a client that sends its
// headers slowly is cut off, and connections beyond the bound are closed.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { serve } from '../src/index.ts';
import { startServer } from './harness.ts';

const portOf = (url: string) => Number(new URL(url).port);

/** Everything the server sends on a raw connection until it closes it. */
async function untilClosed(socket: Socket): Promise<string> {
  let said = '';
  socket.on('data', (chunk: Buffer) => (said += chunk.toString()));
  await once(socket, 'close');
  return said;
}

test('serving on a busy port rejects with EADDRINUSE and the first server goes on answering', async () => {
  const server = await startServer();
  const first = await serve(server, { port: 0 });
  try {
    await assert.rejects(serve(server, { port: portOf(first.url) }), { code: 'EADDRINUSE' });
    assert.equal((await fetch(`${first.url}/console/v1/overview`)).status, 401);
  } finally {
    await first.close();
    await server.close();
  }
});

test('a client that never finishes its headers is answered 408 and cut off; connections beyond maxConnections are closed', async () => {
  const server = await startServer();
  const http = await serve(server, { port: 0, headersTimeoutMs: 300, maxConnections: 1 });
  try {
    const slow = connect(portOf(http.url), '127.0.0.1');
    await once(slow, 'connect');
    slow.write('GET /console/v1/overview HTTP/1.1\r\nHost: x\r\n');
    const extra = connect(portOf(http.url), '127.0.0.1');
    assert.equal(await untilClosed(extra), '', 'the second connection is closed without an answer');
    assert.match(await untilClosed(slow), /^HTTP\/1\.1 408/);
  } finally {
    await http.close();
    await server.close();
  }
});
