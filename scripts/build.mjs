// `npm run build`: dist/ with
//  - dist/src/**.js + .d.ts: unbundled ES modules for bundlers (bare `lit` imports), one
//    define.js per element, the side-effect-free index, the API client and schemas;
//  - dist/mocks/**: the MSW handlers for hosts' own tests;
//  - dist/ops-console.js: the all-in, self-contained bundle for one <script type="module">;
//  - dist/custom-elements.json: the manifest generated from the JSDoc.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

rmSync('dist', { recursive: true, force: true });
run('tsc', ['-p', 'tsconfig.build.json']);

await build({
  entryPoints: { 'ops-console': 'src/all.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  tsconfig: 'tsconfig.json',
  legalComments: 'eof',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

run('node', ['scripts/manifest.mjs', '--out', 'dist/custom-elements.json']);
copyFileSync('openapi.json', 'dist/openapi.json');
run('node', ['scripts/jsx-types.mjs']);
console.log('Built dist/: modules, types, dist/ops-console.js and dist/custom-elements.json');
