// Each route is declared once, in the contract's table (contract/src/routes.ts). The console
// server, the mock API, the contract's docs and the OpenAPI document are held to it here (the
// client takes its paths from the table, and src/api/client.test.ts calls every console route).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ROUTES, fullPath } from '@ops-console/contract/routes';
import { createConsoleServer } from '../../server/src/index.ts';
import { createMockApi } from '../../dist/mocks/index.js';

const all = Object.values(ROUTES);
const consoleRoutes = all.filter((route) => route.group === 'console');
const named = (routes, path = fullPath) => routes.map((route) => `${route.method} ${path(route)}`).sort();

test('the console server answers exactly the routes of the table', async () => {
  const server = await createConsoleServer({ store: ':memory:' });
  try {
    assert.deepEqual([...server.routes].sort(), named(all));
  } finally {
    await server.close();
  }
});

test('the mock API answers exactly the console routes of the table', () => {
  const base = 'http://mock.test/api/v1';
  const handlers = createMockApi({ base }).handlers.map(
    (handler) =>
      `${handler.info.method} ${String(handler.info.path)
        .slice(base.length)
        .replace(/:(\w+)/g, '{$1}')}`,
  );
  assert.deepEqual(
    [...new Set(handlers)].sort(),
    named(consoleRoutes, (route) => route.path),
  );
});

test('docs/console-api.md describes each console route under a heading of its own, and no other', () => {
  const headings = [...readFileSync('docs/console-api.md', 'utf8').matchAll(/^### ((?:GET|POST|PUT|PATCH|DELETE) \/.*)$/gm)].flatMap(([, heading]) =>
    heading.split(', '),
  );
  assert.deepEqual(
    headings.sort(),
    named(consoleRoutes, (route) => route.path),
  );
});

test('openapi.json has each console route of the table, with its success status and schemas', () => {
  const doc = JSON.parse(readFileSync('openapi.json', 'utf8'));
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  assert.deepEqual(
    operations.sort(),
    named(consoleRoutes, (route) => route.path),
  );
  for (const route of consoleRoutes) {
    const operation = doc.paths[route.path][route.method.toLowerCase()];
    const answer = operation.responses[route.status ?? 200];
    assert.ok(answer, `${route.method} ${route.path} answers ${route.status ?? 200}`);
    assert.equal(answer.content['application/json'].schema.$ref.toLowerCase(), `#/components/schemas/${route.response}`.toLowerCase());
    assert.equal(Boolean(operation.requestBody), Boolean(route.body), `${route.method} ${route.path} has a body exactly when the table says`);
  }
});
