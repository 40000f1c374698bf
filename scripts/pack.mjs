// Packs the four packages as npm would publish them: `node scripts/pack.mjs [--out DIR] [--only contract,collect]`;
// prints the tarballs' paths, one per line.
//
// In the repository, the contract and the server export their TypeScript source, which Node runs
// as is. Node does not strip types under node_modules, so what is packed is JavaScript: each is
// compiled (with its .d.ts) into the dist/ of a staged copy whose package.json points at dist/
// and names only dist/ in `files`, and packed from there. The elements pack from their own folder, built.
// The collector has no dependencies: the contract's modules it imports are compiled into its own
// dist/contract/ and named by relative paths.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, '.packs') }, only: { type: 'string' } } });
const out = resolve(values.out);
mkdirSync(out, { recursive: true });

const tsc = join(root, 'node_modules/.bin/tsc');
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const npmPack = (cwd) => JSON.parse(run(npm[0], [...npm.slice(1), 'pack', '--json', '--pack-destination', out], cwd))[0].filename;

/** `./src/x.ts` → `{ types: './dist/x.d.ts', default: './dist/x.js' }`; anything else as it is. */
function compiled(target) {
  if (typeof target === 'string') {
    const match = /^\.\/src\/(.+)\.ts$/.exec(target);
    return match ? { types: `./dist/${match[1]}.d.ts`, default: `./dist/${match[1]}.js` } : target;
  }
  return Object.fromEntries(Object.entries(target).map(([key, value]) => [key, compiled(value)]));
}

/** Compiles the TypeScript package in `dir` and packs it from a staged copy; returns the tarball's path. */
function packCompiled(dir, { extra = [], bundleContract = false } = {}) {
  const source = join(root, dir);
  const stage = mkdtempSync(join(tmpdir(), 'ops-console-pack-'));
  try {
    // Compiled straight into the staged copy: nothing is written beside the source.
    run(tsc, ['-p', 'tsconfig.build.json', '--outDir', join(stage, 'dist')], source);
    for (const [from, to] of extra) cpSync(join(source, from), join(stage, to), { recursive: true });
    if (bundleContract) inlineContract(join(stage, 'dist'));
    if (existsSync(join(source, 'README.md'))) cpSync(join(source, 'README.md'), join(stage, 'README.md'));
    const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
    delete manifest.scripts;
    delete manifest.devDependencies;
    manifest.exports = compiled(manifest.exports);
    if (manifest.bin)
      manifest.bin = Object.fromEntries(Object.entries(manifest.bin).map(([name, path]) => [name, path.replace(/^\.\/src\/(.+)\.ts$/, './dist/$1.js')]));
    manifest.files = ['dist/'];
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return join(out, npmPack(stage));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Every file under `dir`, recursively. */
const filesUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name));

/**
 * Puts the contract's compiled modules that `dist` imports into `dist/contract/`, and names them
 * there by relative path, so the package needs no @ops-console/contract (nor its zod).
 */
function inlineContract(dist) {
  const compiledContract = mkdtempSync(join(tmpdir(), 'ops-console-contract-'));
  try {
    run(tsc, ['-p', 'tsconfig.build.json', '--outDir', compiledContract], join(root, 'contract'));
    const { exports } = JSON.parse(readFileSync(join(root, 'contract/package.json'), 'utf8'));
    const specifier = /(from |import\()(['"])@ops-console\/contract\/([\w-]+)\2/g;
    const needed = new Set();
    for (const file of filesUnder(dist).filter((f) => /\.(js|d\.ts)$/.test(f))) {
      const text = readFileSync(file, 'utf8').replace(specifier, (_, keyword, quote, name) => {
        const module = /^\.\/src\/(.+)\.ts$/.exec(exports[`./${name}`] ?? '')?.[1];
        if (!module) throw new Error(`${file}: @ops-console/contract/${name} is not a module of the contract`);
        needed.add(module);
        const path = relative(dirname(file), join(dist, 'contract', `${module}.js`));
        return `${keyword}${quote}${path.startsWith('.') ? path : `./${path}`}${quote}`;
      });
      if (text.includes('@ops-console/contract')) throw new Error(`${file} still names @ops-console/contract`);
      writeFileSync(file, text);
    }
    // The modules named, and the ones they import in turn (type-only imports name the .ts).
    mkdirSync(join(dist, 'contract'), { recursive: true });
    for (const module of needed) {
      for (const ext of ['.js', '.d.ts']) {
        const text = readFileSync(join(compiledContract, module + ext), 'utf8').replace(/(from |import\()(['"])\.\/([\w-]+)\.ts\2/g, '$1$2./$3.js$2');
        const bare = /(?:from |import\()['"]((?!node:)[^.'"][^'"]*)['"]/.exec(text);
        if (bare) throw new Error(`contract/src/${module}.ts imports ${bare[1]}: the collector must stay without dependencies`);
        for (const [, imported] of text.matchAll(/(?:from |import\()['"]\.\/([\w-]+)\.js['"]/g)) needed.add(imported);
        writeFileSync(join(dist, 'contract', module + ext), text);
      }
    }
  } finally {
    rmSync(compiledContract, { recursive: true, force: true });
  }
}

/** How each package is packed. */
const PACKAGES = {
  contract: () => packCompiled('contract'),
  collect: () => packCompiled('collect', { bundleContract: true }),
  // Read at run time beside the compiled code: OpenTelemetry's .proto files, and the SQL migrations.
  server: () =>
    packCompiled('server', {
      extra: [
        ['src/otlp/proto', 'dist/otlp/proto'],
        ['src/store/records/migrations', 'dist/store/records/migrations'],
        ['src/store/telemetry/duckdb/migrations', 'dist/store/telemetry/duckdb/migrations'],
      ],
    }),
  elements: () => {
    if (!existsSync(join(root, 'dist/ops-console.js'))) run(npm[0], [...npm.slice(1), 'run', 'build'], root);
    return join(out, npmPack(root));
  },
};
const chosen = values.only ? values.only.split(',') : Object.keys(PACKAGES);
const unknown = chosen.filter((name) => !(name in PACKAGES));
if (unknown.length) throw new Error(`--only: no package ${unknown.join(', ')} (there are ${Object.keys(PACKAGES).join(', ')})`);
process.stdout.write(`${chosen.map((name) => PACKAGES[name]()).join('\n')}\n`);
