// Spans as each language's OpenTelemetry SDK and HTTP server instrumentation sends them, with
// none of Ops Console's own attributes: route, method, status, path, version and user come from
// the semantic conventions (old and stable), whatever the stack's habits (ASP.NET Core's routes
// without a leading slash, Rails' `(.:format)`). docs/server/collecting.md has each stack's setup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ConsoleServer } from '../src/index.ts';
import { startServer } from './harness.ts';
import { keptRequests } from './kept.ts';

const NOW = Date.parse('2026-09-14T09:45:00Z');
let server: ConsoleServer;
before(async () => {
  server = await startServer({ clock: () => new Date(NOW) });
});
after(() => server.close());

type Value = string | number;
const attributes = (values: Record<string, Value>) =>
  Object.entries(values).map(([key, value]) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } }));

/** One export as an SDK sends it: its resource, its instrumentation scope, one SERVER span. */
function exportOf(resource: Record<string, Value>, scope: string, name: string, span: Record<string, Value>, durationMs: number) {
  const start = BigInt(NOW - 60_000) * 1_000_000n;
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes(resource) },
        scopeSpans: [
          {
            scope: { name: scope, version: '0.49b0' },
            spans: [
              {
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId: 'eee19b7ec3c1b174',
                name,
                kind: 2,
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + BigInt(durationMs) * 1_000_000n),
                attributes: attributes(span),
                status: {},
              },
            ],
          },
        ],
      },
    ],
  };
}

const STACKS = {
  'Python (FastAPI instrumentation, older conventions)': exportOf(
    { 'service.name': 'contacts-py', 'telemetry.sdk.language': 'python', 'ops.api_version': 'v2' },
    'opentelemetry.instrumentation.fastapi',
    'GET /contacts/{id}',
    {
      'http.scheme': 'http',
      'http.host': '127.0.0.1:8000',
      'http.flavor': '1.1',
      'http.target': '/contacts/c_py?expand=1',
      'http.url': 'http://127.0.0.1:8000/contacts/c_py?expand=1',
      'http.method': 'GET',
      'http.route': '/contacts/{id}',
      'http.status_code': 200,
      'user.id': 'u_py',
    },
    12,
  ),
  'Go (otelhttp, stable conventions)': exportOf(
    { 'service.name': 'contacts-go', 'telemetry.sdk.language': 'go', 'ops.api_version': 'v2' },
    'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp',
    'GET /contacts/{id}',
    {
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'server.address': 'api.example',
      'url.path': '/contacts/c_go',
      'http.route': '/contacts/{id}',
      'http.response.status_code': 404,
      'http.response.body.size': 19,
      'user_agent.original': 'curl/8.0',
      'user.id': 'u_go',
    },
    3,
  ),
  'Java (Spring Boot, the Java agent)': exportOf(
    { 'service.name': 'contacts-java', 'telemetry.sdk.language': 'java', 'ops.api_version': 'v2' },
    'io.opentelemetry.spring-webmvc-6.0',
    'POST /contacts',
    {
      'http.request.method': 'POST',
      'url.scheme': 'https',
      'url.path': '/contacts',
      'url.query': 'dry_run=1',
      'http.route': '/contacts',
      'http.response.status_code': 201,
      'network.protocol.version': '1.1',
      'client.address': '10.0.0.7',
      'user.id': 'u_java',
    },
    40,
  ),
  '.NET (ASP.NET Core)': exportOf(
    { 'service.name': 'contacts-dotnet', 'telemetry.sdk.language': 'dotnet', 'ops.api_version': 'v2' },
    'Microsoft.AspNetCore',
    'DELETE contacts/{id}',
    {
      'http.request.method': 'DELETE',
      'url.scheme': 'https',
      'url.path': '/contacts/c_net',
      'http.route': 'contacts/{id}',
      'http.response.status_code': 500,
      'user.id': 'u_net',
    },
    7,
  ),
  'Ruby (Rails)': exportOf(
    { 'service.name': 'contacts-rb', 'telemetry.sdk.language': 'ruby', 'ops.api_version': 'v2' },
    'OpenTelemetry::Instrumentation::Rack',
    'GET /contacts/:id(.:format)',
    {
      'http.method': 'GET',
      'http.host': 'api.example',
      'http.scheme': 'https',
      'http.target': '/contacts/c_rb.json',
      'http.route': '/contacts/:id(.:format)',
      'http.status_code': 200,
      'enduser.id': 'u_rb',
    },
    25,
  ),
};

const EXPECTED = {
  'Python (FastAPI instrumentation, older conventions)': ['GET', '/contacts/{id}', '/contacts/c_py', 200, 12, 'u_py'],
  'Go (otelhttp, stable conventions)': ['GET', '/contacts/{id}', '/contacts/c_go', 404, 3, 'u_go'],
  'Java (Spring Boot, the Java agent)': ['POST', '/contacts', '/contacts', 201, 40, 'u_java'],
  '.NET (ASP.NET Core)': ['DELETE', '/contacts/{id}', '/contacts/c_net', 500, 7, 'u_net'],
  'Ruby (Rails)': ['GET', '/contacts/:id', '/contacts/c_rb.json', 200, 25, 'u_rb'],
} as const;

for (const [stack, body] of Object.entries(STACKS)) {
  test(`${stack}: its span is a request, with route, method, status, path, version and user from the conventions alone`, async () => {
    const answer = await server.fetch(
      new Request('http://console.test/v1/traces', {
        method: 'POST',
        headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), {}, 'nothing refused');
    const expected = EXPECTED[stack as keyof typeof EXPECTED];
    const mine = (await keptRequests(server.stores.telemetry, 'acct_a', { limit: 100 })).filter((r) => r.actor?.id === expected[5]);
    assert.equal(mine.length, 1, 'one request');
    const [r] = mine;
    assert.deepEqual([r!.method, r!.route, r!.path, r!.status, r!.durationMs, r!.actor?.id, r!.apiVersion], [...expected, 'v2']);
  });
}

test('an http.route that is no template (a wildcard, a URL, an optional segment) is refused with the reason, as before', async () => {
  for (const route of ['*', 'https://api.example/contacts/{id}', '(/:locale)/contacts(.:format)']) {
    const body = exportOf(
      { 'service.name': 'odd' },
      'odd',
      'GET odd',
      { 'http.request.method': 'GET', 'url.path': '/odd', 'http.route': route, 'http.response.status_code': 200 },
      1,
    );
    const answer = await server.fetch(
      new Request('http://console.test/v1/traces', {
        method: 'POST',
        headers: { authorization: 'Bearer ingest-a', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const { partialSuccess } = (await answer.json()) as { partialSuccess?: { rejectedSpans: number; errorMessage: string } };
    assert.equal(partialSuccess?.rejectedSpans, 1, route);
    assert.match(partialSuccess.errorMessage, /http\.route: expected a route such as \/contacts\/\{id\}/, route);
  }
});
