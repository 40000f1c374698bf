// `npm run build`: dist/ with
//  - dist/src/**.js + .d.ts: unbundled ES modules for bundlers (bare `lit` imports), one
//    define.js per element, the side-effect-free index, the API client and schemas;
//  - dist/mocks/**: the MSW handlers for hosts' own tests;
//  - dist/ops-console.js: the on-demand core for one <script type="module"> (Lit, the base
//    element, the client, the formatting, <ops-console> and a loader); each other element is a
//    chunk under dist/chunks/, imported the first time its tag appears;
//  - dist/ops-console.all.js: every element in one file, for hosts that want one request;
//  - both load the chart chunk (ECharts) only when a chart is drawn;
//  - dist/custom-elements.json: the manifest generated from the JSDoc.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { minifyHTMLLiterals } from '@lit-labs/rollup-plugin-minify-html-literals/lib/minify-html-literals.js';
import { build } from 'esbuild';

const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

rmSync('dist', { recursive: true, force: true });
run('tsc', ['-p', 'tsconfig.build.json']);

/**
 * The script-tag bundles carry the elements' html`` and css`` templates with their whitespace and
 * comments, which esbuild leaves alone: Lit's own minifier for template literals (HTML through
 * html-minifier-next, CSS through Lightning CSS) shortens them first.
 */
const minifyTemplates = {
  name: 'minify-templates',
  setup(build) {
    build.onLoad({ filter: /\/src\/.*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const minified = await minifyHTMLLiterals(source, {
        fileName: path,
        generateSourceMap: false,
        // Whitespace between inline elements stays one space; an empty attribute (alt="", value="") means something.
        minifyOptions: { conservativeCollapse: true, removeEmptyAttributes: false },
      });
      return { contents: minified?.code ?? source, loader: 'ts' };
    });
  },
};

/**
 * In the on-demand build an element that shows others (the overview shows the endpoint table,
 * the activity feed and charts) asks the loader for them instead of carrying them in its chunk:
 * each element's code is one chunk, downloaded once whichever page needs it first. The define
 * file's `import '../activity-feed/define.ts'` becomes `load('ops-activity-feed')`, started as
 * the chunk runs.
 */
const childrenThroughLoader = {
  name: 'children-through-loader',
  setup(build) {
    build.onLoad({ filter: /\/src\/(elements\/[\w-]+|shared\/chart)\/define\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const children = /^import '(?:\.\.\/)+(?:shared\/)?([\w-]+)\/define\.ts';$/gm;
      if (!children.test(source)) return undefined;
      const loader = `import { load as loadElement } from ${JSON.stringify(resolve('src/autoload/autoload.ts'))};\n`;
      return { contents: loader + source.replace(children, (_, folder) => `void loadElement('ops-${folder}');`), loader: 'ts' };
    });
  },
};

const script = {
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  tsconfig: 'tsconfig.json',
  // Licence texts in a .LEGAL.txt file beside each bundle, linked from it, rather than repeated in every chunk a page downloads.
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  metafile: true,
  plugins: [minifyTemplates],
};
// Two builds. The core's chunks are shared by the elements it loads. The eager bundle is one
// file (the validation code inlined, not split off) that loads the core build's chart chunk.
const core = await build({ ...script, plugins: [childrenThroughLoader, minifyTemplates], entryPoints: { 'ops-console': 'src/ops-console.ts' } });
const chartChunk = Object.keys(core.metafile.outputs).find((path) => core.metafile.outputs[path].entryPoint === 'src/shared/chart/echarts-chunk.ts');
const sharedChartChunk = {
  name: 'shared-chart-chunk',
  setup(build) {
    build.onResolve({ filter: /\/echarts-chunk\.ts$/ }, () => ({ path: `./${relative('dist', chartChunk)}`, external: true }));
  },
};
const eagerValidation = {
  name: 'eager-validation',
  setup(build) {
    build.onResolve({ filter: /\/load-validation\.ts$/ }, () => ({ path: resolve('src/api/load-validation.eager.ts') }));
  },
};
const all = await build({
  ...script,
  splitting: false,
  plugins: [sharedChartChunk, eagerValidation, minifyTemplates],
  entryPoints: { 'ops-console.all': 'src/all.ts' },
});
mkdirSync('.bench', { recursive: true });
writeFileSync('.bench/meta-core.json', JSON.stringify(core.metafile));
writeFileSync('.bench/meta-all.json', JSON.stringify(all.metafile));

run('node', ['scripts/manifest.mjs', '--out', 'dist/custom-elements.json']);
copyFileSync('openapi.json', 'dist/openapi.json');
run('node', ['scripts/jsx-types.mjs']);
console.log('Built dist/: modules, types, dist/ops-console.js (on demand), dist/ops-console.all.js and dist/custom-elements.json');
