// Whichever way a captured body leaves the collector (the ingest API's column form, a store in
// the same process, a host's hook), what leaves is masked: every secret of 40 requests' bodies
// and headers, the rest of each body as it was sent.
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { collectHttp, createCollector, openDuckDbStores, type MeasuredRequest } from '../src/index.ts';
import { eventsOfBody } from './column-form.ts';
import { keptRequests } from './kept.ts';

const CARD = '4242424242424242';
const orderOf = (i: number) => ({ orderId: `ord_${i}`, password: `pw_secret_${i}`, card: CARD, note: `order number ${i}` });

/** An API that reads its JSON body and answers with an id and a token. */
const api: RequestListener = (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const order = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { orderId: string };
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: order.orderId, token: `tok_${order.orderId}` }));
  });
};

async function listen(listener: RequestListener): Promise<{ server: Server; origin: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const postOrders = async (origin: string, count: number) => {
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${origin}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer sk_live_order_${i}` },
      body: JSON.stringify(orderOf(i)),
    });
    assert.equal(response.status, 201);
    await response.arrayBuffer();
  }
};

const secretsOf = (count: number) => [CARD, ...Array.from({ length: count }, (_, i) => [`pw_secret_${i}`, `tok_ord_${i}`, `sk_live_order_${i}`]).flat()];

test('40 captured requests sent to the ingest API: each body arrives masked, and the rest of it as sent', async () => {
  const sent: string[] = [];
  const receiver = await listen((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      sent.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":0,"rejectedCount":0,"rejected":[]}');
    });
  });
  const collector = createCollector({ sink: { url: receiver.origin, ingestKey: 'ingest-a' }, flushIntervalMs: 60_000 });
  const app = await listen(collectHttp(collector, api, { route: () => '/orders', capture: { headers: true, bodies: true } }));
  try {
    await postOrders(app.origin, 40);
    await collector.flush();
    const wire = sent.join('\n');
    for (const secret of secretsOf(40)) assert.ok(!wire.includes(secret), `${secret} was sent`);
    const events = sent.flatMap((body) => eventsOfBody(body));
    assert.equal(events.length, 40);
    const byOrder = new Map(events.map((e) => [JSON.parse((e['requestBody'] as { text: string }).text).orderId as string, e]));
    for (let i = 0; i < 40; i++) {
      const e = byOrder.get(`ord_${i}`)!;
      assert.deepEqual(JSON.parse((e['requestBody'] as { text: string }).text), { ...orderOf(i), password: '[masked]', card: '[masked]' });
      assert.deepEqual(JSON.parse((e['responseBody'] as { text: string }).text), { id: `ord_${i}`, token: '[masked]' });
      assert.equal((e['requestBody'] as { size: number }).size, Buffer.byteLength(JSON.stringify(orderOf(i))));
      assert.equal((e['headers'] as Record<string, string>)['authorization'], '[masked]');
    }
  } finally {
    app.server.close();
    receiver.server.close();
    await collector.close();
  }
});

test('into a store in the same process, and through a host’s hook: bodies are masked before either sees them', async () => {
  const stores = await openDuckDbStores(':memory:');
  const collector = createCollector({ sink: { store: stores.telemetry, accountId: 'acct_a' }, flushIntervalMs: 60_000 });
  const seen: MeasuredRequest[] = [];
  const plain = await listen(collectHttp(collector, api, { route: () => '/orders', capture: { bodies: true } }));
  const hooked = await listen(
    collectHttp(collector, api, { route: () => '/hooked', capture: { bodies: true }, redact: (request) => (seen.push(request), request) }),
  );
  try {
    await postOrders(plain.origin, 3);
    await postOrders(hooked.origin, 2);
    await collector.flush();
    assert.deepEqual(
      seen.map((request) => JSON.parse(request.requestBody!.text!)),
      [0, 1].map((i) => ({ ...orderOf(i), password: '[masked]', card: '[masked]' })),
      'the hook reads the bodies as they will be kept',
    );
    const events = await keptRequests(stores.telemetry, 'acct_a', { limit: 10 });
    assert.equal(events.length, 5);
    const payloads = await Promise.all(events.map((e) => stores.telemetry.payload('acct_a', e as { ts: number; seq: number })));
    const stored = JSON.stringify(payloads);
    for (const secret of secretsOf(3)) assert.ok(!stored.includes(secret), `${secret} was stored`);
    assert.deepEqual(payloads.map((p) => JSON.parse(p!.requestBody!.text!).orderId as string).sort(), ['ord_0', 'ord_0', 'ord_1', 'ord_1', 'ord_2']);
  } finally {
    plain.server.close();
    hooked.server.close();
    await collector.close();
    await stores.close();
  }
});
