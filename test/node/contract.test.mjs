// The published descriptions cannot drift from the code: the OpenAPI document from the zod
// schemas, custom-elements.json from the JSDoc, and the element lists from the registry.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ELEMENT_TAGS } from './tags.mjs';

const node = process.execPath;

test('openapi.json is generated from the current schemas', () => {
  execFileSync(node, ['scripts/openapi.mjs', '--check'], { stdio: 'pipe' });
});

test('the files made from the element registry are up to date', () => {
  execFileSync(node, ['scripts/elements.mjs', '--check'], { stdio: 'pipe' });
});

test('openapi.json has every route and schema of the contract', () => {
  const doc = JSON.parse(readFileSync('openapi.json', 'utf8'));
  assert.equal(doc.openapi, '3.1.0');
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  assert.deepEqual(operations.sort(), [
    'DELETE /alert-channels/{id}',
    'DELETE /alert-rules/{id}',
    'DELETE /slos/{id}',
    'GET /activity',
    'GET /alert-channels',
    'GET /alert-rules',
    'GET /alerts',
    'GET /customers',
    'GET /customers/{id}',
    'GET /endpoints',
    'GET /endpoints/{id}',
    'GET /errors',
    'GET /errors/options',
    'GET /errors/{id}',
    'GET /keys',
    'GET /keys/{id}',
    'GET /overview',
    'GET /requests',
    'GET /requests/summary',
    'GET /requests/{id}',
    'GET /slos',
    'GET /slos/{id}',
    'GET /traffic',
    'GET /versions',
    'GET /webhooks',
    'GET /webhooks/{id}',
    'PATCH /alert-channels/{id}',
    'PATCH /alert-rules/{id}',
    'PATCH /errors/{id}',
    'PATCH /slos/{id}',
    'POST /alert-channels',
    'POST /alert-channels/{id}/test',
    'POST /alert-rules',
    'POST /customers/{id}/notes',
    'POST /errors',
    'POST /slos',
  ]);
  const endpoint = doc.components.schemas.Endpoint;
  assert.deepEqual(endpoint.required, ['id', 'method', 'path', 'requests', 'p95Ms', 'errorPct', 'status']);
  assert.equal(endpoint.additionalProperties, undefined, 'servers may add fields');
  assert.deepEqual(endpoint.properties.status.anyOf[0].enum, ['Healthy', 'Failing', 'Slow']);
  assert.deepEqual(
    doc.paths['/errors'].post.parameters.map((p) => p.name),
    ['Idempotency-Key'],
  );
});

test('custom-elements.json is generated from the current JSDoc', () => {
  execFileSync(node, ['scripts/manifest.mjs', '--check'], { stdio: 'pipe' });
});

test('custom-elements.json describes every element with attributes, events, parts and tokens', () => {
  const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
  const elements = Object.fromEntries(
    manifest.modules
      .flatMap((m) => m.declarations ?? [])
      .filter((d) => d.tagName)
      .map((d) => [d.tagName, d]),
  );
  for (const tag of ELEMENT_TAGS) {
    const el = elements[tag];
    assert.ok(el, `${tag} is in the manifest`);
    assert.ok(
      el.attributes.some((a) => a.name === 'api-base'),
      `${tag} has api-base`,
    );
    // The time range control loads nothing: what it fires is the range chosen.
    const [event, detail] = tag === 'ops-time-range' ? ['ops-range-change', 'CustomEvent<RangeDetail>'] : ['ops-load-error', 'CustomEvent<LoadErrorDetail>'];
    assert.ok(
      el.events.some((e) => e.name === event && e.type?.text === detail),
      `${tag} declares ${event} with its detail type`,
    );
    assert.ok(el.cssParts.length > 0, `${tag} has parts`);
    assert.ok(
      el.cssProperties.some((p) => p.name === '--ops-color-accent'),
      `${tag} lists the tokens`,
    );
    assert.ok(el.summary, `${tag} has a summary`);
  }
  assert.ok(elements['ops-console'].slots.length === 1);
});

test('docs/console-api.md names every route and every field of the schemas', async () => {
  const doc = readFileSync('docs/console-api.md', 'utf8');
  const api = JSON.parse(readFileSync('openapi.json', 'utf8'));
  for (const [path, ops] of Object.entries(api.paths)) {
    for (const method of Object.keys(ops)) assert.ok(doc.includes(`${method.toUpperCase()} ${path}`), `${method.toUpperCase()} ${path} is documented`);
  }
  const fields = new Set();
  const walk = (schema) => {
    if (!schema || typeof schema !== 'object') return;
    for (const [name, value] of Object.entries(schema.properties ?? {})) {
      fields.add(name);
      walk(value);
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) [schema[key]].flat().forEach(walk);
  };
  Object.values(api.components.schemas).forEach(walk);
  const missing = [...fields].filter((name) => !new RegExp(`\\b${name}\\b`).test(doc));
  assert.deepEqual(missing, [], 'fields of the zod schemas missing from the contract document');
});
