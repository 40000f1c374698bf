// React users get attribute, property and event checking: a TSX sample using the published JSX
// types compiles, and misuse (a wrong enum value, a wrong event detail, a string for a function
// property) is an error. (A typo in a hyphenated attribute, `api-bse`, cannot be caught: TSX
// accepts every hyphenated name on any element.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

for (const framework of ['react', 'preact'])
  test(`dist/jsx-${framework}.d.ts types every element for ${framework} JSX`, () => {
    const dir = resolve(`.jsx-check-${framework}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(
        join(dir, 'app.tsx'),
        `import type {} from '../dist/jsx-${framework}.js';
export const ok = (
  <div>
    <ops-endpoint-table api-base="/console/v1" limit={5} sort="-requests" status="Failing" hide-filter onops-navigate={(e) => console.log(e.detail.kind, e.detail.id)} />
    <ops-overview view-all-href="/endpoints" theme="dark" onops-load-error={(e) => console.log(e.detail.error.message)} />
    <ops-error-form onops-error-created={(e) => console.log(e.detail.record.code)} onops-cancel={(e) => e.detail.dirty && e.preventDefault()} />
    <ops-request-log view="summary" live refresh-interval={5} />
    <ops-activity-feed kind="key-created" /><ops-traffic range="12m" /><ops-customer customer-id="c" /><ops-webhook webhook-id="w" /><ops-error error-id="e" />
    <ops-console api-base="/console/v1" credentials="include" getToken={async () => 'token'} routes={{ endpoint: '/endpoints/{id}' }} fetch={globalThis.fetch} onops-navigate={(e) => e.detail.id} onops-load-error={(e) => e.detail.error.kind}>
      <ops-request-log method="GET" clock={() => new Date()} />
    </ops-console>
  </div>
);
// @ts-expect-error: not a sort the API knows
export const badSort = <ops-endpoint-table sort="alphabetical" />;
// @ts-expect-error: ops-navigate's detail has no "url"
export const badDetail = <ops-endpoint-table onops-navigate={(e) => e.detail.url} />;
// @ts-expect-error: theme is light, dark or auto
export const badTheme = <ops-traffic theme="blue" />;
// @ts-expect-error: the endpoint statuses are Healthy, Failing and Slow
export const badStatus = <ops-endpoint-table status="Broken" />;
// @ts-expect-error: the views are timeline and summary
export const badView = <ops-request-log view="grid" />;
// @ts-expect-error: not a fetch credentials mode
export const badCredentials = <ops-console credentials="bogus" />;
// @ts-expect-error: not an HTTP method the API lists
export const badMethod = <ops-request-log method="FETCH" />;
// @ts-expect-error: getToken is a function, never a string in the markup
export const badToken = <ops-console getToken="secret" />;
// @ts-expect-error: the clock is a function
export const badClock = <ops-overview clock={new Date()} />;
`,
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            jsx: 'react-jsx',
            jsxImportSource: framework,
            module: 'esnext',
            moduleResolution: 'bundler',
            target: 'es2022',
            noEmit: true,
            // In the repository the types reach @ops-console/contract's TypeScript source (packed,
            // its .d.ts: test/node/packed-install.test.mjs), whose imports name .ts files.
            allowImportingTsExtensions: true,
            skipLibCheck: true,
            types: framework === 'react' ? ['react'] : [],
            lib: ['es2022', 'dom'],
          },
          files: ['app.tsx'],
        }),
      );
      try {
        execFileSync(resolve('node_modules/.bin/tsc'), ['-p', dir], { encoding: 'utf8' });
      } catch (error) {
        assert.fail(`the ${framework} TSX sample did not type-check:\n${error.stdout}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
