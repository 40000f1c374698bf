/**
 * One API the collector bench calls, in a process of its own (so the load generator does not
 * share its event loop, and its CPU time is its alone): the same small JSON handler on
 * `node:http`. `bare`: as it is. `collector <url>`: wrapped by the collector, sending to the
 * console server at `url`. `otel`: as it is, the process started with `--import ./collect-otel.ts`
 * (OpenTelemetry instruments `node:http` itself). `pair <url>`: three servers in this one process,
 * `bare`, `control` (bare again) and `collector`, loaded one at a time, so what the collector adds
 * is measured without what two processes differ by. Prints its port (for `pair`, the three ports
 * as JSON), then, whenever a line arrives on stdin, its CPU time and what its telemetry delivered
 * so far, as one JSON line; for `pair`, after sending what the collector holds, so a batch's CPU
 * counts where its requests did.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectHttp, createCollector } from '../src/collect.ts';

const [kind, sinkUrl] = process.argv.slice(2) as ['bare' | 'collector' | 'otel' | 'pair', string | undefined];

const api: RequestListener = (request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: request.url?.split('/').pop(), name: 'Contact' }));
};
/** The same API for a POST of a JSON body, which it reads and parses as an API does: what `capture` sees pass. */
const postApi: RequestListener = (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const order = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { orderId?: string };
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: order.orderId, status: 'created' }));
  });
};
const collector = kind === 'collector' || kind === 'pair' ? createCollector({ sink: { url: sinkUrl!, ingestKey: 'bench-ingest' } }) : undefined;
// The module the process was started with (--import), not a second copy: same URL, same instance.
const otel = kind === 'otel' ? await import('./collect-otel.ts') : undefined;

const collected = collector && collectHttp(collector, api, { route: () => '/contacts/:id', apiVersion: { fixed: 'v2' } });

function listen(listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}
if (kind === 'pair') {
  const [bare, control, withCollector] = [await listen(api), await listen(api), await listen(collected!)];
  // POSTs of 1 KB JSON bodies: bare, and with the collector capturing both sides' headers and bodies of every request.
  const barePost = await listen(postApi);
  const capture = await listen(
    collectHttp(collector!, postApi, { route: () => '/orders', apiVersion: { fixed: 'v2' }, capture: { headers: true, bodies: true } }),
  );
  console.log(JSON.stringify({ bare, control, collector: withCollector, barePost, capture }));
} else console.log(await listen(collected ?? api));

/** Events or spans the console server took, and those given up on. */
function delivered(): { sent: number; failed: number } {
  if (otel) return otel.exported;
  if (!collector) return { sent: 0, failed: 0 };
  const s = collector.stats();
  return { sent: s.sent, failed: s.rejected + s.droppedQueueFull + s.droppedFailed };
}

// The bench asks between loads: a line in, a line out. Both batches wait up to 5 s for their
// timers, so each is sent first and its CPU counts where its requests did; the collector's for at
// most a second, so a console server that is slow cannot hold the bench.
const sent = () =>
  otel ? otel.flushSpans() : collector ? Promise.race([collector.flush(), new Promise((resolve) => setTimeout(resolve, 1_000))]) : Promise.resolve();
process.stdin.setEncoding('utf8').on('data', () => {
  void sent().then(() => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMicros: user + system, ...delivered() })}\n`);
  });
});
process.on('SIGTERM', () => process.exit(0));
