// React users get attribute and event checking: a TSX sample using the published JSX types
// compiles, and misuse (a wrong enum value, a wrong event detail) is an error.
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
  </div>
);
// @ts-expect-error: not a sort the API knows
export const badSort = <ops-endpoint-table sort="alphabetical" />;
// @ts-expect-error: ops-navigate's detail has no "url"
export const badDetail = <ops-endpoint-table onops-navigate={(e) => e.detail.url} />;
// @ts-expect-error: theme is light, dark or auto
export const badTheme = <ops-traffic theme="blue" />;
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
