// Builds the console server's container image from the packed packages:
//   npm run image [-- --tag NAME] [-- --build-arg NODE_IMAGE=…]
// Packs the four packages into .packs/ (emptied first: the Dockerfile copies every tarball
// there) with a package.json and the lockfile the image installs from, then runs `docker build` (or `podman build`, in Docker's image format so HEALTHCHECK
// is kept; OPS_CONSOLE_ENGINE picks one) with server/Dockerfile on that folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { tag: { type: 'string', default: 'ops-console' }, 'build-arg': { type: 'string', multiple: true, default: [] } },
});
const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
const engine = process.env.OPS_CONSOLE_ENGINE || (onPath('docker') ? 'docker' : onPath('podman') ? 'podman' : undefined);
if (!engine) {
  console.error('npm run image needs docker or podman (Debian: sudo apt-get install -y podman).');
  process.exit(1);
}

const packs = join(root, '.packs');
rmSync(packs, { recursive: true, force: true });
const tarballs = execFileSync(process.execPath, [join(root, 'scripts/pack.mjs'), '--out', packs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  .trim()
  .split('\n')
  .map((path) => basename(path));
// The image installs from a lockfile (`npm ci`): written here, beside the tarballs, with every
// dependency's exact version and integrity, so each build from this folder installs the same tree.
const named = (prefix) => tarballs.find((file) => file.startsWith(prefix));
writeFileSync(
  join(packs, 'package.json'),
  `${JSON.stringify(
    {
      name: 'ops-console-image',
      private: true,
      dependencies: Object.fromEntries(
        ['contract', 'collect', 'server', 'elements'].map((name) => [`@ops-console/${name}`, `file:./${named(`ops-console-${name}-`)}`]),
      ),
    },
    null,
    2,
  )}\n`,
);
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
execFileSync(npm[0], [...npm.slice(1), 'install', '--package-lock-only', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
  cwd: packs,
  stdio: ['ignore', 'ignore', 'inherit'],
});
// Podman (also behind a `docker` command that is podman-docker's shim) writes OCI images unless
// told otherwise, and OCI images have no HEALTHCHECK.
const isPodman = engine.endsWith('podman') || /podman/i.test(spawnSync(engine, ['--version'], { encoding: 'utf8' }).stdout ?? '');
const build = spawnSync(
  engine,
  [
    'build',
    ...(isPodman ? ['--format', 'docker'] : []),
    ...values['build-arg'].flatMap((arg) => ['--build-arg', arg]),
    '--file',
    join(root, 'server/Dockerfile'),
    '--tag',
    values.tag,
    packs,
  ],
  { stdio: 'inherit' },
);
process.exit(build.status ?? 1);
