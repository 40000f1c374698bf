// The OTLP/HTTP traces receiver, fed by the real OpenTelemetry SDK: spans made through the
// tracer API and sent by the official OTLP exporters (JSON and protobuf) arrive as requests;
// client, internal and non-HTTP spans are ignored and counted; broken bodies get 400 with a reason.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { SpanKind, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import protobuf from 'protobufjs';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { serve, type ConsoleServer } from '../src/index.ts';
import { ExportRequest, decodeExport } from '../src/otlp/decode.ts';
import { call, goodEvent, startServer } from './harness.ts';
import { keptRequests, type KeptRequest } from './kept.ts';

const NOW = Date.parse('2026-09-14T09:45:00Z');

interface Exchange {
  status: number;
  contentType: string | null;
  body: Uint8Array;
}

describe('OTLP/HTTP traces receiver', () => {
  let server: ConsoleServer;
  let http: { url: string; close(): Promise<void> };
  const exchanges: Exchange[] = [];

  before(async () => {
    server = await startServer({ clock: () => new Date(NOW), otlpAttributes: { customerId: ['tenant.id'] } });
    // The receiver's answers, as the exporter got them.
    const recording = {
      ...server,
      fetch: async (request: Request) => {
        const response = await server.fetch(request);
        const copy = response.clone();
        exchanges.push({ status: copy.status, contentType: copy.headers.get('content-type'), body: new Uint8Array(await copy.arrayBuffer()) });
        return response;
      },
    };
    http = await serve(recording, { port: 0 });
  });
  after(async () => {
    await http.close();
    await server.close();
  });

  /** Sends spans through a real SDK tracer and exporter; answers what the store then holds for the routes under `prefix`. */
  async function export_(
    exporter: SpanExporter,
    prefix: string,
    spans: { name: string; kind: SpanKind; attributes: Attributes; start: number; durationMs: number }[],
  ) {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'contacts-api', 'ops.key_id': 'key_resource' }),
      // One export for all the spans, sent by forceFlush.
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 60_000 })],
    });
    const tracer = provider.getTracer('otlp.test');
    for (const s of spans) tracer.startSpan(s.name, { kind: s.kind, attributes: s.attributes, startTime: s.start }).end(s.start + s.durationMs);
    await provider.forceFlush();
    await provider.shutdown();
    const stored = await keptRequests(server.stores.telemetry, 'acct_a', { limit: 100, pathContains: prefix });
    return stored.reverse();
  }

  const spans = (prefix: string) => [
    {
      name: 'GET /v2/contacts/:id',
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/v2/contacts/:id',
        'url.path': `/v2${prefix}/c_1`,
        'url.query': 'token=secret',
        'http.response.status_code': 200,
        'http.response.body.size': 512,
        'tenant.id': 'cus_acme',
        'user.id': 'u_lee',
        'user.name': 'Lee Park',
        'http.request.header.user-agent': ['curl/8.5'],
        'http.request.header.authorization': ['Bearer sk_otlp_secret'],
        'http.request.header.x-card': ['4242 4242 4242 4242'],
        'http.request.header.accept': ['text/html', 'application/json'],
        'http.response.header.set-cookie': ['sid=otlp_cookie_secret'],
        'http.response.header.content-type': ['application/json'],
      },
      start: NOW - 60_000,
      durationMs: 12.5,
    },
    {
      // The older names (semantic conventions before 1.23).
      name: 'POST',
      kind: SpanKind.SERVER,
      attributes: { 'http.method': 'POST', 'http.target': `${prefix}/messages?draft=1`, 'http.status_code': 503, 'ops.key_id': 'key_span' },
      start: NOW - 30_000,
      durationMs: 1_240,
    },
    {
      name: 'GET upstream',
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 },
      start: NOW - 20_000,
      durationMs: 5,
    },
    { name: 'load contact', kind: SpanKind.INTERNAL, attributes: {}, start: NOW - 20_000, durationMs: 2 },
    { name: 'grpc Contacts/Get', kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc' }, start: NOW - 20_000, durationMs: 3 },
    {
      name: 'GET no status',
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'GET', 'url.path': `${prefix}/broken` },
      start: NOW - 10_000,
      durationMs: 1,
    },
  ];

  for (const [name, make, encoding] of [
    ['JSON', (url: string) => new JsonExporter({ url, headers: { authorization: 'Bearer ingest-a' } }), 'application/json'],
    ['protobuf', (url: string) => new ProtoExporter({ url, headers: { authorization: 'Bearer ingest-a' } }), 'application/x-protobuf'],
  ] as const) {
    test(`${name} from the SDK exporter: HTTP server spans become requests, the rest is counted, the answer is a partial success`, async () => {
      const prefix = `/otlp-${name.toLowerCase()}`;
      const from = exchanges.length;
      const stored = await export_(make(`${http.url}/v1/traces`), prefix, spans(prefix));
      const rows = stored.map((e: KeptRequest) => [
        e.method,
        e.route,
        e.path,
        e.status,
        e.durationMs,
        e.ts,
        e.apiVersion,
        e.keyId,
        e.customerId,
        e.actor,
        e.bytes,
        e.headers,
      ]);
      // The captured headers as they are kept: credentials and card numbers masked, repeated values joined.
      const headers = { 'user-agent': 'curl/8.5', authorization: '[masked]', 'x-card': '[masked]', accept: 'text/html, application/json' };
      assert.deepEqual(rows, [
        [
          'GET',
          '/contacts/:id',
          `/v2${prefix}/c_1`,
          200,
          12.5,
          NOW - 60_000,
          'v2',
          'key_resource',
          'cus_acme',
          { id: 'u_lee', name: 'Lee Park' },
          512,
          headers,
        ],
        ['POST', `${prefix}/messages`, `${prefix}/messages`, 503, 1240, NOW - 30_000, null, 'key_span', null, null, null, null],
      ]);
      const [withHeaders] = await server.stores.telemetry.requests('acct_a', { limit: 1, pathContains: `/v2${prefix}/c_1` });
      assert.deepEqual((await server.stores.telemetry.payload('acct_a', withHeaders!))?.responseHeaders, {
        'set-cookie': '[masked]',
        'content-type': 'application/json',
      });
      const answers = exchanges.slice(from);
      assert.deepEqual(
        answers.map((a) => [a.status, a.contentType]),
        [[200, encoding]],
      );
      const body = answers[0]!.body;
      const partial =
        encoding === 'application/json'
          ? (JSON.parse(new TextDecoder().decode(body)) as { partialSuccess: { rejectedSpans: number | string; errorMessage: string } }).partialSuccess
          : decodeResponse(body);
      assert.equal(Number(partial.rejectedSpans), 1, 'the server span without a status code');
      assert.match(partial.errorMessage, /1 HTTP server span rejected \(span "GET no status": no http\.response\.status_code\)/);
      assert.match(partial.errorMessage, /3 spans ignored: not HTTP server spans/, 'the client, internal and gRPC spans');
    });
  }

  test('gzip bodies (as the OpenTelemetry Collector sends them) are read', async () => {
    const body = JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  name: 'GET',
                  kind: 2,
                  startTimeUnixNano: String(BigInt(NOW - 5_000) * 1_000_000n),
                  endTimeUnixNano: String(BigInt(NOW - 5_000) * 1_000_000n + 7_250_000n),
                  attributes: [
                    { key: 'http.request.method', value: { stringValue: 'GET' } },
                    { key: 'url.path', value: { stringValue: '/otlp-gzip/usage' } },
                    { key: 'http.response.status_code', value: { intValue: '200' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const response = await fetch(`${http.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(body),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {});
    const [stored] = await keptRequests(server.stores.telemetry, 'acct_a', { limit: 1, pathContains: '/otlp-gzip/' });
    assert.deepEqual([stored?.route, stored?.status, stored?.durationMs], ['/otlp-gzip/usage', 200, 7.25]);
  });

  test('malformed bodies get 400 with the reason, in the encoding that was sent; a wrong key 401; another type 415', async () => {
    const post = (body: string | Uint8Array, contentType: string, key = 'ingest-a') =>
      fetch(`${http.url}/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body });
    const cases: [string | Uint8Array, string, RegExp][] = [
      ['<html>Bad gateway</html>', 'application/json', /not JSON/],
      ['{"resourceSpans":{"oops":1}}', 'application/json', /resourceSpans: .*array/],
      ['{"hello":1}', 'application/json', /Not an OTLP traces export: expected resourceSpans, got hello/],
      ['{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"soon"}]}]}]}', 'application/json', /startTimeUnixNano/],
      [new Uint8Array([0xff, 0xff, 0xff, 0xff]), 'application/x-protobuf', /not an OTLP ExportTraceServiceRequest/],
    ];
    for (const [body, type, reason] of cases) {
      const response = await post(body, type);
      assert.equal(response.status, 400, String(body));
      const status =
        type === 'application/json'
          ? ((await response.json()) as { code: number; message: string })
          : decodeStatus(new Uint8Array(await response.arrayBuffer()));
      assert.equal(status.code, 3);
      assert.match(status.message, reason);
    }
    assert.equal((await post('{}', 'application/json', 'nope')).status, 401);
    assert.equal((await post('{}', 'text/plain')).status, 415);
    assert.equal((await post(gzipSync('{}'), 'application/json')).status, 400, 'gzip without Content-Encoding is not JSON');
  });

  test('spans that are only ignored get a plain success; a refused one is named, with the attribute and the rule in words', async () => {
    const span = (name: string, kind: number, attributes: Record<string, string | number>) => ({
      name,
      kind,
      startTimeUnixNano: String(BigInt(NOW - 5_000) * 1_000_000n),
      endTimeUnixNano: String(BigInt(NOW - 4_000) * 1_000_000n),
      attributes: Object.entries(attributes).map(([key, value]) => ({ key, value: typeof value === 'number' ? { intValue: value } : { stringValue: value } })),
    });
    const send = async (spans: unknown[]) => {
      const response = await fetch(`${http.url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json' },
        body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
      });
      return { status: response.status, body: (await response.json()) as { partialSuccess?: { rejectedSpans: number; errorMessage: string } } };
    };
    const client = span('GET upstream', 3, { 'http.request.method': 'GET', 'url.full': 'https://up.example/x' });
    const internal = span('work', 1, {});
    assert.deepEqual(await send([client, internal]), { status: 200, body: {} }, 'no partial success for ignored spans');
    const big = span('GET big', 2, { 'http.request.method': 'GET', 'url.path': '/otlp-big', 'http.response.status_code': 700 });
    const { body } = await send([big, client]);
    assert.equal(body.partialSuccess!.rejectedSpans, 1);
    assert.match(body.partialSuccess!.errorMessage, /span "GET big": http\.response\.status_code: must be an HTTP status from 100 to 599/);
    assert.doesNotMatch(body.partialSuccess!.errorMessage, /Too big|expected number/);
  });

  test('an empty export is accepted with nothing to report', async () => {
    const response = await fetch(`${http.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {});
    assert.ok('request' in decodeExport(new Uint8Array(), 'protobuf', 100), 'an empty protobuf message is an empty export');
  });
});

// Protobuf answers read with protobufjs, independently of the receiver's encoder.

function decodeResponse(bytes: Uint8Array): { rejectedSpans: number; errorMessage: string } {
  const Partial = new protobuf.Type('Partial').add(new protobuf.Field('rejectedSpans', 1, 'int64')).add(new protobuf.Field('errorMessage', 2, 'string'));
  const Response = new protobuf.Type('Response').add(new protobuf.Field('partialSuccess', 1, 'Partial')).add(Partial);
  new protobuf.Root().add(Response);
  const object = Response.toObject(Response.decode(bytes), { longs: Number }) as { partialSuccess: { rejectedSpans: number; errorMessage: string } };
  return object.partialSuccess;
}

function decodeStatus(bytes: Uint8Array): { code: number; message: string } {
  const Status = new protobuf.Type('Status').add(new protobuf.Field('code', 1, 'int32')).add(new protobuf.Field('message', 2, 'string'));
  new protobuf.Root().add(Status);
  return Status.toObject(Status.decode(bytes)) as { code: number; message: string };
}

describe('OTLP bodies cost what they carry', () => {
  let server: ConsoleServer;
  before(async () => {
    server = await startServer({ clock: () => new Date(NOW) });
  });
  after(() => server.close());

  const post = (body: Uint8Array, headers: Record<string, string> = {}) =>
    server.fetch(
      new Request('http://console.test/v1/traces', {
        method: 'POST',
        headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/x-protobuf', ...headers },
        body,
      }),
    );
  /** An export of `count` empty spans, written field by field (ExportTraceServiceRequest → ResourceSpans → ScopeSpans → Span). */
  const emptySpans = (count: number) => {
    const scope = protobuf.Writer.create();
    for (let i = 0; i < count; i++) scope.uint32((2 << 3) | 2).uint32(0);
    const scopeBytes = scope.finish();
    const resource = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(scopeBytes)
      .finish();
    return protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .bytes(resource)
      .finish();
  };
  const status = async (response: Response) => decodeStatus(new Uint8Array(await response.arrayBuffer()));
  const serverSpan = (name: string, path: string) => ({
    name,
    kind: 2,
    startTimeUnixNano: String(BigInt(NOW - 5_000) * 1_000_000n),
    endTimeUnixNano: String(BigInt(NOW - 5_000) * 1_000_000n + 3_000_000n),
    attributes: [
      { key: 'http.request.method', value: { stringValue: 'GET' } },
      { key: 'url.path', value: { stringValue: path } },
      { key: 'http.response.status_code', value: { intValue: 200 } },
    ],
  });

  test('a gzip bomb (millions of empty spans in a few KB) is a 413 that names the unpacking limit, and another tenant still ingests', async () => {
    const bomb = gzipSync(emptySpans(5_000_000), { level: 9 });
    assert.ok(bomb.length < 64 * 1024, `the bomb is small (${bomb.length} bytes)`);
    const response = await post(bomb, { 'content-encoding': 'gzip' });
    assert.equal(response.status, 413);
    const { code, message } = await status(response);
    assert.equal(code, 8, 'RESOURCE_EXHAUSTED');
    assert.match(message, /unpacks to more than .* bytes \(100 times its packed size/);
    const other = await call(server, '/ingest/v1/requests', { token: 'ingest-b', body: { events: [goodEvent(1)] } });
    assert.deepEqual([other.status, other.json.accepted], [202, 1]);
  });

  test('spans are counted before they are decoded: over the limit is a 413 that names it, and nothing is kept', async () => {
    const before = (await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10 })).length;
    const response = await post(emptySpans(50_001));
    assert.equal(response.status, 413);
    assert.match((await status(response)).message, /at most 50,000 spans per export/);
    assert.equal((await post(emptySpans(50_000))).status, 200, 'at the limit: taken (and ignored, as spans of no kind)');
    assert.equal((await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10 })).length, before);
  });

  test('invalid UTF-8 in one span becomes U+FFFD in that span; the export and its other spans are kept', async () => {
    const message = ExportRequest.fromObject({
      resourceSpans: [{ scopeSpans: [{ spans: [serverSpan('GET', '/utf8/XXXX'), serverSpan('GET', '/utf8/fine')] }] }],
    });
    const bytes = ExportRequest.encode(message).finish();
    const at = Buffer.from(bytes).indexOf('XXXX');
    bytes.set([0xff, 0xc3], at); // a byte that never starts UTF-8, then a lead byte with no continuation
    const response = await post(bytes);
    assert.equal(response.status, 200);
    const stored = await keptRequests(server.stores.telemetry, 'acct_a', { limit: 10, pathContains: '/utf8/' });
    assert.deepEqual(stored.map((r) => r.path).sort(), ['/utf8/fine', '/utf8/\ufffd\ufffdXX']);
  });
});
