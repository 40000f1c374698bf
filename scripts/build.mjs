// `npm run build`: dist/ with
//  - dist/src/**.js + .d.ts: unbundled ES modules for bundlers (bare `lit` imports), one
//    define.js per element, the side-effect-free index, the API client and schemas;
//  - dist/mocks/**: the MSW handlers for hosts' own tests;
//  - dist/ops-console.js: the on-demand core for one <script type="module"> (Lit, the base
//    element, the client, the formatting, <ops-console> and a loader) in one file; each other
//    element is one file under dist/chunks/ (ops-request-log-<hash>.js), imported the first time
//    its tag appears;
//  - dist/ops-console.all.js: every element in one file, for hosts that want one request;
//  - both load the chart chunk (ECharts) only when a chart is drawn;
//  - dist/custom-elements.json: the manifest generated from the JSDoc.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, posix, relative, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { minifyHTMLLiterals } from '@lit-labs/rollup-plugin-minify-html-literals/lib/minify-html-literals.js';
import { build } from 'esbuild';
import { staticClosure } from './metafile.mjs';

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
 * The source loads ECharts as three modules (the chart chunk, and the line/bar or pie series),
 * so that a host's bundler cuts it into chunks under 500 kB. The script-tag builds bundle each
 * lazily loaded module on its own, and each of the three would carry its own copy of ECharts:
 * there the chart chunk imports the two series modules itself, and the loader's imports of them
 * resolve to it, one file.
 */
const oneChartChunk = {
  name: 'one-chart-chunk',
  setup(build) {
    build.onResolve({ filter: /^\.\/echarts-(cartesian|pie)\.ts$/ }, ({ importer }) =>
      importer.endsWith('/load-charts.ts') ? { path: resolve(dirname(importer), 'echarts-chunk.ts') } : undefined,
    );
    build.onLoad({ filter: /\/src\/shared\/chart\/echarts-chunk\.ts$/ }, async ({ path }) => ({
      contents: `${await readFile(path, 'utf8')}\nimport './echarts-cartesian.ts';\nimport './echarts-pie.ts';\n`,
      loader: 'ts',
    }));
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

/** The built-in locales' modules (`src/localize/generated/de.ts` …) by path, and the file each was built to. */
const localeChunks = new Map();

/**
 * Each built-in locale is one file under `dist/chunks/`, built on its own and shared by both
 * bundles: an element imports it the first time it shows that language. lit-localize writes them
 * importing `str` from the package's index, which re-exports its whole runtime; they get the one
 * small module that defines `str`. `from` is the folder of the file that imports them.
 */
const localeModules = (from) => ({
  name: 'locale-modules',
  setup(build) {
    build.onResolve({ filter: /^@lit\/localize$/ }, (args) =>
      build.resolve('@lit/localize/internal/str-tag.js', { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir }),
    );
    build.onResolve({ filter: /\/generated\/[\w-]+\.ts$/ }, (args) => {
      const chunk = args.kind === 'entry-point' ? undefined : localeChunks.get(resolve(args.resolveDir, args.path));
      return chunk ? { path: `./${posix.relative(from, chunk)}`, external: true } : undefined;
    });
  },
});

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
  plugins: [oneChartChunk, minifyTemplates, localeModules('dist')],
};
/**
 * The on-demand build: `dist/ops-console.js` is the core in one file (behind a one-line stub),
 * and each module the core
 * or an element imports later (an element's define file, the chart chunk, the validation, the
 * virtual scroller) is one file of its own under `dist/chunks/`, importing what it shares with
 * the core from `../ops-console.js`.
 *
 * Why not esbuild's code splitting: it cuts the modules reached by different sets of entries
 * into separate chunks, and gzip starts afresh in each one. The core came in 7 files and the
 * request log in 7 more, 1.3 and 1.9 KB gz more than the same code in one file each. The price
 * of one file per element: helpers several elements use (the data task, the list states) are in
 * each of their files, so a page that shows several elements downloads those once per element
 * (the bench reports the overview with the children it loads).
 *
 * Four steps: find the entries and the core's modules (an in-memory split build); read which
 * names each entry imports from the core's modules; build the entries, those imported by others
 * first, with the core's modules replaced by imports from the core under short export names;
 * then build the core, exporting those names and importing the entries' hashed file names, and
 * the stub that re-exports it.
 */
async function buildOnDemand() {
  mkdirSync('dist/chunks', { recursive: true });
  const coreEntry = 'src/ops-console.ts';
  const inMemory = {
    ...script,
    write: false,
    sourcemap: false,
    plugins: [childrenThroughLoader, oneChartChunk, minifyTemplates, localeModules('dist/chunks')],
  };
  const analysis = (await build({ ...inMemory, entryPoints: [coreEntry] })).metafile.outputs;
  const coreOutput = Object.keys(analysis).find((output) => analysis[output].entryPoint === coreEntry);
  const coreModules = new Set(
    [...staticClosure(analysis, coreOutput)].flatMap((output) => Object.keys(analysis[output].inputs)).map((input) => resolve(input)),
  );
  const entries = Object.values(analysis)
    .map((output) => output.entryPoint)
    .filter((entry) => entry && entry !== coreEntry)
    .map((entry) => resolve(entry));

  // Imports of core modules and of other entries, resolved the way esbuild would.
  const redirect = (onCore, onEntry) => ({
    name: 'core-and-entries',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === 'resolving') return undefined;
        if (args.namespace === 'core-import') return { path: args.path, external: true };
        const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (onCore && coreModules.has(resolved.path)) return onCore(resolved.path);
        if (entries.includes(resolved.path)) return onEntry(resolved.path);
        return resolved;
      });
    },
  });

  const exportsOf = async (path) =>
    Object.values((await build({ ...inMemory, entryPoints: [path], splitting: false, minify: false })).metafile.outputs)[0].exports;
  // Which names each entry imports from which core module, read from its unminified bundle.
  const namesByModule = new Map();
  const entryDeps = new Map();
  for (const entry of entries) {
    const deps = new Set();
    const scanned = await build({
      ...inMemory,
      minify: false,
      entryPoints: [entry],
      splitting: false,
      plugins: [
        redirect(
          (path) => ({ path: `core:${path}`, external: true }),
          (path) => (deps.add(path), { path: `entry:${path}`, external: true }),
        ),
        childrenThroughLoader,
        oneChartChunk,
        minifyTemplates,
        localeModules('dist/chunks'),
      ],
    });
    entryDeps.set(entry, deps);
    const bundled = scanned.outputFiles.find((file) => file.path.endsWith('.js')).text;
    if (/^export\s[^;]*"core:/m.test(bundled)) throw new Error(`${relative('.', entry)} re-exports a core module: import what it needs by name`);
    // The eager bundle loads the same chart chunk, and has no core for it to import from.
    if (entry.endsWith('/echarts-chunk.ts') && bundled.includes('"core:')) throw new Error('The chart chunk must not import from the core');
    for (const statement of bundled.matchAll(/^import\s+([^"]*?)\s*(?:from\s*)?"core:([^"]+)";$/gms)) {
      const [, clause, path] = statement;
      const names = namesByModule.get(path) ?? new Map();
      namesByModule.set(path, names);
      // A namespace import (`export * from` a core module, re-exported by the schemas) takes every name.
      const imported = clause.startsWith('* as ') ? await exportsOf(path) : (clause ?? '').replace(/^\{|\}$/g, '').split(',');
      for (const name of imported.map((part) => part.trim().split(/\s+as\s+/)[0]).filter(Boolean)) names.set(name, null);
    }
  }
  let next = 0;
  for (const names of namesByModule.values()) for (const name of names.keys()) names.set(name, `$${(next++).toString(36)}`);

  const coreExports = [...namesByModule]
    .map(([path, names]) => `export { ${[...names].map(([name, short]) => `${name} as ${short}`).join(', ')} } from ${JSON.stringify(path)};`)
    .join('\n');
  const withCoreExports = {
    name: 'core-exports',
    setup(b) {
      b.onLoad({ filter: /\/src\/ops-console\.ts$/ }, async ({ path }) => ({
        contents: `${await readFile(path, 'utf8')}\n// For the files under chunks/, which import these instead of their own copies.\n${coreExports}\n`,
        loader: 'ts',
      }));
    },
  };
  // The core's file name hashes its code with the entries' file names left out: those hash the
  // core's name in turn. Every file that names the core then agrees on its code and export names.
  const placeholder = await build({
    ...inMemory,
    splitting: false,
    entryPoints: [coreEntry],
    plugins: [
      redirect(null, (path) => ({ path: `./${relative('.', path)}`, external: true })),
      withCoreExports,
      childrenThroughLoader,
      oneChartChunk,
      minifyTemplates,
      localeModules('dist/chunks'),
    ],
  });
  const coreName = `core-${createHash('sha256')
    .update(placeholder.outputFiles.find((file) => file.path.endsWith('.js')).contents)
    .digest('hex')
    .slice(0, 8)
    .toUpperCase()}`;

  const metafile = { inputs: {}, outputs: {} };
  const outputOf = new Map();
  const record = (result) => {
    Object.assign(metafile.inputs, result.metafile.inputs);
    for (const [output, info] of Object.entries(result.metafile.outputs)) {
      // External imports are written as relative URLs; the merged metafile names the files.
      const imports = info.imports.map((i) =>
        i.external && i.path.startsWith('.') ? { ...i, path: posix.join(dirname(output), i.path), external: undefined } : i,
      );
      metafile.outputs[output] = { ...info, imports };
      if (info.entryPoint) outputOf.set(resolve(info.entryPoint), output);
    }
  };
  const fromChunks = (path) => `./${relative('dist/chunks', outputOf.get(path))}`;
  const pending = [...entries];
  while (pending.length) {
    const entry = pending.find((candidate) => [...entryDeps.get(candidate)].every((dep) => outputOf.has(dep) || dep === candidate));
    if (!entry) throw new Error(`The lazily loaded modules import each other in a cycle: ${pending.map((p) => relative('.', p)).join(', ')}`);
    pending.splice(pending.indexOf(entry), 1);
    const coreImport = {
      name: 'core-import',
      setup(b) {
        b.onLoad({ filter: /.*/, namespace: 'core-import' }, ({ path }) => ({
          contents: `export { ${[...(namesByModule.get(resolve(path)) ?? new Map())].map(([name, short]) => `${short} as ${name}`).join(', ')} } from './${coreName}.js';`,
          loader: 'js',
        }));
      },
    };
    record(
      await build({
        ...script,
        splitting: false,
        // Named after the element it defines (ops-request-log-3KX….js), which the network panel shows.
        entryPoints: { [entry.endsWith('/define.ts') ? `ops-${basename(dirname(entry))}` : basename(entry, '.ts')]: entry },
        entryNames: 'chunks/[name]-[hash]',
        plugins: [
          redirect(
            // Relative, so the source maps name no path of the machine that built them.
            (path) => ({ path: relative('.', path), namespace: 'core-import' }),
            (path) => ({ path: fromChunks(path), external: true }),
          ),
          coreImport,
          childrenThroughLoader,
          oneChartChunk,
          minifyTemplates,
          localeModules('dist/chunks'),
        ],
      }),
    );
  }

  record(
    await build({
      ...script,
      splitting: false,
      entryPoints: { [coreName]: coreEntry },
      entryNames: 'chunks/[name]',
      plugins: [
        redirect(null, (path) => ({ path: fromChunks(path), external: true })),
        withCoreExports,
        childrenThroughLoader,
        oneChartChunk,
        minifyTemplates,
        localeModules('dist/chunks'),
      ],
    }),
  );
  // dist/ops-console.js only re-exports the core. The element files import the core by its hashed
  // name beside them, so a page that reached the stub by another URL (a CDN's redirect from a
  // version range, a query string) still runs one core, and a stale cached stub cannot pair an
  // old core with new element files.
  const coreChunk = outputOf.get(resolve(coreEntry));
  const stub = `export * from "./${relative('dist', coreChunk)}";\n`;
  writeFileSync('dist/ops-console.js', stub);
  metafile.outputs['dist/ops-console.js'] = { imports: [{ path: coreChunk, kind: 'import-statement' }], exports: [], inputs: {}, bytes: stub.length };
  return { metafile };
}

const { targetLocales } = JSON.parse(await readFile('lit-localize.json', 'utf8'));
const locales = await build({
  ...script,
  splitting: false,
  plugins: [localeModules('dist/chunks')],
  entryPoints: Object.fromEntries(targetLocales.map((locale) => [`locale-${locale}`, `src/localize/generated/${locale}.ts`])),
  entryNames: 'chunks/[name]-[hash]',
});
for (const [output, { entryPoint }] of Object.entries(locales.metafile.outputs)) if (entryPoint) localeChunks.set(resolve(entryPoint), output);

const core = await buildOnDemand();
const chartChunk = Object.keys(core.metafile.outputs).find((path) => core.metafile.outputs[path].entryPoint === 'src/shared/chart/echarts-chunk.ts');
const sharedChartChunk = {
  name: 'shared-chart-chunk',
  setup(build) {
    build.onResolve({ filter: /\/echarts-(chunk|cartesian|pie)\.ts$/ }, () => ({ path: `./${relative('dist', chartChunk)}`, external: true }));
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
  plugins: [sharedChartChunk, eagerValidation, minifyTemplates, localeModules('dist')],
  entryPoints: { 'ops-console.all': 'src/all.ts' },
});
mkdirSync('.bench', { recursive: true });
writeFileSync('.bench/meta-core.json', JSON.stringify(core.metafile));
writeFileSync('.bench/meta-all.json', JSON.stringify(all.metafile));

run('node', ['scripts/manifest.mjs', '--out', 'dist/custom-elements.json']);
copyFileSync('openapi.json', 'dist/openapi.json');
run('node', ['scripts/jsx-types.mjs']);
console.log('Built dist/: modules, types, dist/ops-console.js (on demand), dist/ops-console.all.js and dist/custom-elements.json');
