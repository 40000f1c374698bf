// Server rendering with @lit-labs/ssr, in a Node process of its own: every element renders its
// declarative shadow DOM with its first state, the package's script-tag entries import in Node
// (their "node" condition), and the process ends by itself: no element leaves a timer behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { ELEMENT_TAGS } from './tags.mjs';

const script = `
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html, unsafeStatic } from 'lit/static-html.js';
// By the package's own name, as a server-rendering app imports it.
const eager = await import('@ops-console/elements/ops-console.all.js');
// A host component written for the on-demand script imports the loader's functions by name.
const { observe, discover, load } = await import('@ops-console/elements/ops-console.js');
observe(globalThis.document)();
await discover();
await load('ops-overview');
const rendered = {};
for (const tag of ${JSON.stringify(ELEMENT_TAGS)}) {
  const name = unsafeStatic(tag);
  rendered[tag] = await collectResult(render(html\`<ops-console api-base="/api/v1"><\${name} customer-id="cus_acme" webhook-id="wh_1" error-id="err_1" request-id="rq_1"></\${name}></ops-console>\`));
}
process.stdout.write(JSON.stringify({ eager: typeof eager.OpsOverview, window: typeof window, rendered }));
`;

test('every element renders on the server, and the Node process then ends by itself', () => {
  // A timer left running would keep the process alive until the bound below.
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.signal, null, 'the process ended by itself');
  assert.equal(run.status, 0, run.stderr);
  const { eager, window, rendered } = JSON.parse(run.stdout);
  assert.equal(eager, 'function', 'ops-console.all.js imports in Node');
  // (ops-console.js with its named imports: the script above would have thrown otherwise)
  assert.equal(window, 'undefined', 'nothing defined a window');
  const loading = {
    'ops-overview': 'Loading the overview…',
    'ops-traffic': 'Loading traffic…',
    'ops-customer': 'Loading this customer…',
    'ops-webhook': 'Loading this webhook…',
    'ops-request-detail': 'Loading this request…',
    'ops-error': 'Loading this error record…',
  };
  for (const tag of ELEMENT_TAGS) {
    const html = rendered[tag];
    assert.match(html, new RegExp(`<${tag}[^>]*><template shadowroot="open" shadowrootmode="open">`), `${tag} renders declarative shadow DOM`);
    assert.match(html, /<style>/, `${tag} carries its styles`);
    if (loading[tag]) assert.ok(html.includes(loading[tag]), `${tag} shows "${loading[tag]}"`);
  }
  assert.ok(rendered['ops-endpoint-table'].includes('All statuses'), 'the table renders its filter');
  assert.ok(rendered['ops-error-form'].includes('Errors'), 'the form renders its breadcrumb');
});
