// What the collector does for delivery, against real servers on loopback: a lost acknowledgement
// is retried and kept once, values over the server's limits are fitted instead of refused,
// batches and the queue are bounded in bytes, a trickling sink cannot hold a send or close()
// forever, failures are heard, and SIGTERM still stops the host.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { collectHttp, createCollector, serve, type CollectorProblem, type MeasuredRequest, type TelemetryStore } from '../src/index.ts';
import { INGEST_LIMITS } from '../src/limits.ts';
import { eventsOfBody } from './column-form.ts';
import { startServer } from './harness.ts';
import { keptRequests } from './kept.ts';

async function listen(listener: RequestListener): Promise<{ server: Server; origin: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** A console server served on loopback, with the collector's events readable from its stores. */
async function consoleOnLoopback(options: Parameters<typeof startServer>[0] = {}) {
  const console = await startServer(options);
  const http = await serve(console, { port: 0 });
  return {
    console,
    url: http.url,
    stored: (pathContains: string) => keptRequests(console.stores.telemetry, 'acct_a', { limit: 1000, pathContains }),
    close: async () => {
      await http.close();
      await console.close();
    },
  };
}

/** An ingest endpoint on loopback that keeps each body it is sent and accepts it. */
async function bodyReceiver() {
  const bodies: string[] = [];
  const receiver = await listen((request, response) => {
    void bodyOf(request).then((body) => {
      bodies.push(body.toString('utf8'));
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":0,"rejected":[]}');
    });
  });
  return { bodies, receiver };
}

const event = (path: string, extra: object = {}) => ({ ts: Date.now() - 1000, method: 'GET', route: '/r', path, status: 200, durationMs: 1, ...extra });

test('an acknowledgement lost after the commit, then the retry: exactly one copy of each event', async () => {
  const sink = await consoleOnLoopback();
  const keys: string[] = [];
  // Forwards to the console server; the first answer is lost on the way back (the socket is cut).
  const proxy = await listen((request, response) => {
    void bodyOf(request).then((body) => {
      keys.push(String(request.headers['idempotency-key']));
      const upstream = httpRequest(`${sink.url}${request.url}`, { method: 'POST', headers: request.headers }, (answer) => {
        void bodyOf(answer).then((answerBody) => {
          if (keys.length === 1) (response.socket as Socket).destroy();
          else response.writeHead(answer.statusCode!, answer.headers).end(answerBody);
        });
      });
      upstream.end(body);
    });
  });
  const collector = createCollector({ sink: { url: proxy.origin, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, onError: () => undefined });
  try {
    for (let i = 0; i < 5; i++) collector.record(event(`/lost/${i}`));
    await collector.close({ timeoutMs: 20_000 });
    assert.equal(keys.length, 2, 'sent, then sent again');
    assert.equal(keys[0], keys[1], 'with the same Idempotency-Key');
    assert.deepEqual((await sink.stored('/lost/')).map((e) => e.path).sort(), ['/lost/0', '/lost/1', '/lost/2', '/lost/3', '/lost/4']);
    assert.equal(collector.stats().sent, 5);
  } finally {
    proxy.server.close();
    await sink.close();
  }
});

test('values over the server’s limits are fitted and kept, other methods recorded as OTHER; a refused event counts as rejected', async () => {
  const sink = await consoleOnLoopback();
  const collector = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000 });
  const host = await listen(
    collectHttp(collector, (_request, response) => response.end('ok'), { route: () => '/fit', headers: ['user-agent'], apiVersion: { header: 'api-version' } }),
  );
  const send = (path: string, method: string, headers: Record<string, string>) =>
    new Promise<void>((resolve, reject) =>
      httpRequest(`${host.origin}${path}`, { method, headers }, (r) => void bodyOf(r).then(() => resolve(), reject)).end(),
    );
  try {
    await send('/fit/propfind', 'PROPFIND', {});
    await send('/fit/version', 'GET', { 'api-version': 'v'.repeat(200) });
    await send('/fit/empty-version', 'GET', { 'api-version': '' });
    await send('/fit/agent', 'GET', { 'user-agent': 'u'.repeat(15_000) });
    await send(`/fit/long/${'p'.repeat(3_000)}`, 'GET', {});
    await collector.flush();
    assert.deepEqual(collector.stats(), { sent: 5, rejected: 0, queued: 0, droppedQueueFull: 0, droppedFailed: 0, droppedAtClose: 0, failedAttempts: 0 });
    const stored = new Map((await sink.stored('/fit/')).map((e) => [e.path.slice(0, 20), e]));
    assert.equal(stored.get('/fit/propfind')!.method, 'OTHER');
    assert.equal(stored.get('/fit/version')!.apiVersion, `${'v'.repeat(INGEST_LIMITS.apiVersion - 1)}…`);
    assert.equal(stored.get('/fit/empty-version')!.apiVersion, null);
    assert.equal(stored.get('/fit/agent')!.headers!['user-agent'], `${'u'.repeat(INGEST_LIMITS.headerValue - 1)}…`);
    const long = [...stored.values()].find((e) => e.path.startsWith('/fit/long/'))!;
    assert.equal(long.path.length, INGEST_LIMITS.path);
    assert.ok(long.path.endsWith('p…'));
  } finally {
    host.server.close();
    await collector.close();
    await sink.close();
  }
  // A console server whose clock is a day behind refuses the events as stamped in the future: its 202 lists them.
  const behind = await consoleOnLoopback({ clock: () => new Date(Date.now() - 86_400_000) });
  const problems: CollectorProblem[] = [];
  const refused = createCollector({ sink: { url: behind.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, onError: (p) => problems.push(p) });
  try {
    for (let i = 0; i < 3; i++) refused.record(event(`/future/${i}`));
    await refused.flush();
    assert.deepEqual([refused.stats().sent, refused.stats().rejected], [0, 3]);
    assert.deepEqual(
      problems.map((p) => [p.kind, p.events]),
      [['rejected-events', 3]],
    );
    assert.match(problems[0]!.message, /future/);
  } finally {
    await refused.close();
    await behind.close();
  }
});

test('values a host’s hook made wrong cost their own event, never the batch', async () => {
  const sink = await consoleOnLoopback();
  const problems: string[] = [];
  const collector = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, onError: (p) => problems.push(p.message) });
  const cyclic: unknown[] = ['/'];
  cyclic.push(cyclic);
  const wrong: unknown[] = [
    event('/hook/nan-ts', { ts: Number.NaN }),
    event('/hook/text-status', { status: '200' }),
    event('/hook/infinite', { durationMs: Number.POSITIVE_INFINITY }),
    event('/hook/number-route', { route: 5 }),
    event('/hook/object-header', { headers: { 'user-agent': { toJSON: () => 'x' } } }),
    event('/hook/number-key', { keyId: 7 }),
    event('/hook/cyclic', { path: cyclic }),
    event('/hook/cyclic-actor', { actor: { id: cyclic, name: 'Lee' } }),
  ];
  try {
    collector.record(event('/hook/good/0'));
    for (const e of wrong) collector.record(e as MeasuredRequest);
    collector.record(event('/hook/good/1'));
    await collector.flush();
    const stored = (await sink.stored('/hook/')).map((e) => e.path).sort();
    // A duration that is not finite is fitted to 0; a route, path, header, key or actor the collector cannot read leaves its
    // event out; the server refuses a time or status that is not a number: each costs its own event only.
    assert.deepEqual(stored, ['/hook/good/0', '/hook/good/1', '/hook/infinite']);
    assert.deepEqual([collector.stats().sent, collector.stats().rejected, collector.stats().droppedFailed], [3, 2, 0]);
    assert.match(problems.join('\n'), /refused 2 event\(s\): ts: /);
  } finally {
    await collector.close();
    await sink.close();
  }
});

test('each event keeps the headers it was recorded with, when the host’s hook reuses one object', async () => {
  const sink = await consoleOnLoopback();
  const collector = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000 });
  const shared: Record<string, string> = {};
  try {
    for (const id of ['req-1', 'req-2', 'req-3']) {
      shared['x-request-id'] = id;
      collector.record(event(`/shared/${id}`, { headers: shared }));
    }
    await collector.flush();
    const stored = await sink.stored('/shared/');
    assert.deepEqual(stored.map((e) => [e.path, e.headers?.['x-request-id']]).sort(), [
      ['/shared/req-1', 'req-1'],
      ['/shared/req-2', 'req-2'],
      ['/shared/req-3', 'req-3'],
    ]);
  } finally {
    await collector.close();
    await sink.close();
  }
});

test('a batch that cannot be written is dropped and counted, never thrown into the host; the next one goes', async () => {
  const sink = await consoleOnLoopback();
  const problems: CollectorProblem[] = [];
  const collector = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, onError: (p) => problems.push(p) });
  const stringify = JSON.stringify;
  try {
    collector.record(event('/unwritable/0'));
    collector.record(event('/unwritable/1'));
    // What no value of a fitted event can do today: the writing itself fails, once.
    JSON.stringify = () => {
      JSON.stringify = stringify;
      throw new RangeError('Invalid string length');
    };
    await collector.flush();
    collector.record(event('/unwritable/2'));
    await collector.flush();
    assert.deepEqual(
      (await sink.stored('/unwritable/')).map((e) => e.path),
      ['/unwritable/2'],
    );
    const { sent, droppedFailed, queued } = collector.stats();
    assert.deepEqual([sent, droppedFailed, queued], [1, 2, 0]);
    assert.match(problems[0]!.message, /could not be written as JSON \(Invalid string length\): 2 event/);
  } finally {
    JSON.stringify = stringify;
    await collector.close();
    await sink.close();
  }
});

test('the body sent holds every event as measured, whatever its text, in the column form', async () => {
  const { bodies, receiver } = await bodyReceiver();
  const collector = createCollector({ sink: { url: receiver.origin, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000 });
  const ts = Date.now();
  const identified = { ts, method: 'PUT', route: '/who', path: '/who', status: 201, durationMs: 3, apiVersion: 'v2', keyId: 'key_1', customerId: 'cus_ü' };
  const events = [
    { ts, method: 'GET', route: '/plain', path: '/plain', status: 200, durationMs: 1.25 },
    { ts: ts + 1_000, method: 'GET', route: '/plain', path: '/plain', status: 200, durationMs: 0.001 },
    // A request that started before the one recorded first (it finished after it).
    { ts: ts - 5, method: 'GET', route: '/plain', path: '/plain', status: 200, durationMs: 12.3456789 },
    { ts, method: 'GET', route: '/plain', path: '/plain?', status: 404, durationMs: 0, bytes: 0, apiVersion: null, keyId: null },
    { ts, method: 'POST', route: '/q"uo\\te/\u0001', path: '/lone/\ud800/pair/😀/\u2028', status: 500, durationMs: 86_400_000, bytes: 2 ** 40 },
    { ...identified, actor: { id: 'u_1', name: 'Zoë "Z"' } },
    { ...identified, headers: { 'user-agent': 'agent/1 "x"' } },
  ];
  try {
    for (const e of events) collector.record(e);
    await collector.flush();
    assert.equal(bodies.length, 1);
    // Optional fields that are null are left out; every text and number arrives as it was.
    const expected = events.map((e) => Object.fromEntries(Object.entries(e).filter(([, value]) => value !== null)));
    assert.deepEqual(eventsOfBody(bodies[0]!), expected);
    // Texts as JSON.stringify writes them: a lone surrogate escaped, not made invalid UTF-8.
    assert.ok(bodies[0]!.includes(JSON.stringify(events[4]!.path)), bodies[0]);
  } finally {
    receiver.server.close();
    await collector.close();
  }
});

test('batches stay under the server’s body limit and the queue under its byte bound', async () => {
  const sink = await consoleOnLoopback({ limits: { maxBodyBytes: 200_000 } });
  const collector = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, maxBatchBytes: 100_000 });
  try {
    // 300 requests of about 1.2 KB: one batch of them would be a 413 and every one of them lost.
    for (let i = 0; i < 300; i++) collector.record(event(`/bytes/${i}`, { headers: { 'user-agent': 'a'.repeat(1_000) } }));
    await collector.flush();
    assert.deepEqual([collector.stats().sent, collector.stats().droppedFailed], [300, 0]);
    assert.equal((await sink.stored('/bytes/')).length, 300);
  } finally {
    await collector.close();
    await sink.close();
  }
  const held = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, maxQueueBytes: 50_000, onError: () => undefined });
  for (let i = 0; i < 300; i++) held.record(event(`/queue/${i}`, { headers: { 'user-agent': 'a'.repeat(1_000) } }));
  const { queued, droppedQueueFull } = held.stats();
  assert.ok(queued * 1_000 <= 50_000, `${queued} events of over 1 KB fit 50,000 bytes`);
  assert.equal(queued + droppedQueueFull, 300);
  await held.close({ timeoutMs: 0 });
});

test('a batch whose JSON outgrows its byte bound (texts JSON escapes) is split before it is sent, never refused', async () => {
  const sink = await consoleOnLoopback({ limits: { maxBodyBytes: 150_000 } });
  const collector = createCollector({ sink: { url: sink.url, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, maxBatchBytes: 100_000 });
  try {
    // Each quote is two bytes in JSON: a batch bounded by the events' own length is twice as long written, over the server's limit.
    for (let i = 0; i < 150; i++) collector.record(event(`/quotes/${i}`, { headers: { 'user-agent': '"'.repeat(1_000) } }));
    await collector.flush();
    assert.deepEqual([collector.stats().sent, collector.stats().droppedFailed], [150, 0]);
    const stored = await sink.stored('/quotes/');
    assert.deepEqual(stored.map((e) => e.path).sort(), Array.from({ length: 150 }, (_, i) => `/quotes/${i}`).sort());
    assert.ok(stored.every((e) => e.headers?.['user-agent'] === '"'.repeat(1_000)));
  } finally {
    await collector.close();
    await sink.close();
  }
});

test('the parts of a split batch each carry their own texts only', async () => {
  const { bodies, receiver } = await bodyReceiver();
  const collector = createCollector({ sink: { url: receiver.origin, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, maxBatchBytes: 100_000 });
  try {
    // Paths as routes, each of 300 quotes: two bytes each in JSON, so the batch is split before it is sent.
    const recorded = Array.from({ length: 300 }, (_, i) => event(`/${'"'.repeat(300)}/${i}`, { route: `/${'"'.repeat(300)}/${i}` }));
    for (const e of recorded) collector.record(e);
    await collector.flush();
    assert.ok(bodies.length > 2, `${bodies.length} bodies`);
    for (const body of bodies) {
      assert.ok(Buffer.byteLength(body) <= 100_000, `${Buffer.byteLength(body)} bytes`);
      const { columns } = JSON.parse(body) as { columns: { strings: string[]; route: number[]; method: number[] } };
      const used = new Set([...columns.route, ...columns.method]);
      assert.deepEqual(
        columns.strings.filter((_, i) => !used.has(i)),
        [],
        'no text the part’s events do not use',
      );
    }
    const sent = bodies.flatMap((body) => eventsOfBody(body));
    assert.deepEqual(sent.map((e) => e['route']).sort(), recorded.map((e) => e.route).sort());
  } finally {
    receiver.server.close();
    await collector.close();
  }
});

test('a sink that trickles its answer cannot hold a send or close() forever', async () => {
  const sockets = new Set<Socket>();
  // Reads the batch, then sends its answer's header byte by byte, never finishing.
  const trickle = await listen((request, response) => {
    sockets.add(response.socket as Socket);
    void bodyOf(request).then(() => {
      (response.socket as Socket).write('HTTP/1.1 202 Accepted\r\nx-slow: ');
      const timer = setInterval(() => (response.socket as Socket).write('a'), 100);
      response.socket!.once('close', () => clearInterval(timer));
    });
  });
  const problems: CollectorProblem[] = [];
  const collector = createCollector({
    sink: { url: trickle.origin, ingestKey: 'ingest-a' },
    flushIntervalMs: 60_000,
    sendTimeoutMs: 500,
    onError: (p) => problems.push(p),
  });
  try {
    for (let i = 0; i < 4; i++) collector.record(event(`/slow/${i}`));
    await collector.flush();
    assert.equal(collector.stats().failedAttempts, 1, 'the send gave up at its deadline');
    assert.match(problems[0]!.message, /no answer within 500 ms/);
    await collector.close({ timeoutMs: 1_000 });
    assert.deepEqual([collector.stats().queued, collector.stats().droppedAtClose], [0, 4]);
    assert.equal(problems.at(-1)!.kind, 'dropped-at-close');
  } finally {
    for (const socket of sockets) socket.destroy();
    trickle.server.close();
  }
});

test('a wrong key, a wrong sink path and a missing key are heard: warned once by default, refused when the collector is made', async () => {
  const sink = await consoleOnLoopback();
  const problems: CollectorProblem[] = [];
  const wrongKey = createCollector({ sink: { url: sink.url, ingestKey: 'nope' }, flushIntervalMs: 60_000, onError: (p) => problems.push(p) });
  const wrongPath = createCollector({ sink: { url: `${sink.url}/ops`, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000, onError: (p) => problems.push(p) });
  const fullUrl = createCollector({ sink: { url: `${sink.url}/ingest/v1/requests`, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000 });
  const warnings: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
  const quiet = createCollector({ sink: { url: sink.url, ingestKey: 'nope' }, flushIntervalMs: 60_000, batchSize: 1 });
  try {
    for (const collector of [wrongKey, wrongPath, fullUrl]) {
      collector.record(event('/heard'));
      await collector.flush();
    }
    assert.deepEqual(
      problems.map((p) => [p.kind, p.status, p.events]),
      [
        ['unauthorized', 401, 1],
        ['not-found', 404, 1],
      ],
    );
    assert.match(problems[1]!.message, /\/ops\/ingest\/v1\/requests/);
    assert.equal(fullUrl.stats().sent, 1, 'the ingest URL itself works as the sink');
    quiet.record(event('/quiet/1'));
    quiet.record(event('/quiet/2'));
    await quiet.flush();
    assert.equal(quiet.stats().droppedFailed, 2);
    assert.equal(warnings.length, 1, 'one warning for one kind of failure');
    assert.match(String(warnings[0]), /refused the ingest key/);
  } finally {
    console.warn = warn;
    await Promise.all([wrongKey, wrongPath, fullUrl, quiet].map((c) => c.close()));
    await sink.close();
  }
  for (const ingestKey of [undefined, '', 'undefined', 'null'])
    assert.throws(() => createCollector({ sink: { url: 'http://127.0.0.1:1', ingestKey: ingestKey as unknown as string } }), /ingestKey is missing/);
});

test('SIGTERM sends what waits, then the host exits as it would without the collector', async () => {
  const sink = await consoleOnLoopback();
  const host = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/signal-host.ts', import.meta.url)), sink.url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(host.stdout, 'data')) as [Buffer];
    const origin = line.toString().trim();
    for (let i = 0; i < 3; i++) await (await fetch(`${origin}/signal/${i}`)).text();
    const exited = once(host, 'exit');
    host.kill('SIGTERM');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    assert.deepEqual([code, signal], [null, 'SIGTERM'], 'ended by the signal, as Node does by default');
    assert.equal((await sink.stored('/signal/')).length, 3);
  } finally {
    host.kill('SIGKILL');
    await sink.close();
  }
});

test('while backing off the open batch stays open: an outage makes one batch, not one per tick', async () => {
  let clock = 0;
  let away = true;
  const batches: number[] = [];
  const sink = await listen((request, response) => {
    void bodyOf(request).then((body) => {
      if (away) return void response.writeHead(503, { 'retry-after': '30' }).end();
      batches.push(eventsOfBody(body.toString()).length);
      response.writeHead(202).end('{"accepted":0,"rejected":[]}');
    });
  });
  const collector = createCollector({ sink: { url: sink.origin, ingestKey: 'k' }, flushIntervalMs: 5, now: () => clock, onError: () => undefined });
  try {
    collector.record(event('/outage/0'));
    await collector.flush();
    assert.equal(collector.stats().failedAttempts, 1);
    // Timer ticks pass while the server asked to wait 30 s: none may seal a batch of its own.
    for (let i = 1; i < 5; i++) {
      collector.record(event(`/outage/${i}`));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    away = false;
    clock += 31_000;
    await collector.flush();
    assert.deepEqual(batches, [1, 4]);
  } finally {
    await collector.close();
    sink.server.close();
  }
});

test('a store that keeps failing one batch drops it after five tries; the next batch goes through', async () => {
  const stored: string[] = [];
  const store = {
    append: async (events: readonly { path: string }[]) => {
      if (events.some((e) => e.path === '/poison')) throw new Error('cannot store this');
      stored.push(...events.map((e) => e.path));
      return Promise.resolve();
    },
  } as unknown as TelemetryStore;
  const collector = createCollector({ sink: { store, accountId: 'acct_a' }, flushIntervalMs: 60_000, onError: () => undefined });
  try {
    collector.record(event('/poison'));
    for (let i = 0; i < 5; i++) await collector.flush();
    collector.record(event('/fine'));
    await collector.flush();
    assert.deepEqual(stored, ['/fine']);
    assert.deepEqual([collector.stats().droppedFailed, collector.stats().sent, collector.stats().queued], [1, 1, 0]);
  } finally {
    await collector.close();
  }
});

test('close() counts a batch once: a store append that ends after the deadline is not also counted as sent', async () => {
  let finish!: () => void;
  const store = { append: () => new Promise<void>((resolve) => (finish = resolve)) } as unknown as TelemetryStore;
  const collector = createCollector({ sink: { store, accountId: 'acct_a' }, flushIntervalMs: 60_000, onError: () => undefined });
  for (let i = 0; i < 3; i++) collector.record(event(`/late/${i}`));
  await collector.close({ timeoutMs: 50 });
  finish();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual([collector.stats().sent, collector.stats().droppedAtClose], [0, 3]);
});

test('close() sends at once when the server is back, not after the backoff of its absence', async () => {
  let away = true;
  const sink = await listen((request, response) => {
    void bodyOf(request).then(() => (away ? response.writeHead(503).end() : response.writeHead(202).end('{"accepted":2,"rejected":[]}')));
  });
  const collector = createCollector({ sink: { url: sink.origin, ingestKey: 'k' }, flushIntervalMs: 60_000, now: () => 0, onError: () => undefined });
  try {
    collector.record(event('/back/1'));
    collector.record(event('/back/2'));
    await collector.flush();
    assert.equal(collector.stats().failedAttempts, 1, 'the server was away: a backoff began');
    away = false;
    await collector.close({ timeoutMs: 2_000 });
    assert.deepEqual([collector.stats().sent, collector.stats().droppedAtClose], [2, 0]);
  } finally {
    sink.server.close();
  }
});
