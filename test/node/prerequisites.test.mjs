// `npm test` checks what it needs from the system before running anything: with something
// missing (and no installing), it names it and the one command that installs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const check = (env) => spawnSync(process.execPath, ['scripts/prerequisites.mjs'], { encoding: 'utf8', env: { ...process.env, ...env } });

test('with everything there it says nothing and lets the tests run', () => {
  const result = check({});
  assert.deepEqual([result.status, result.stdout, result.stderr], [0, '', '']);
});

test('a missing Chromium is named with the command that installs it, before any test runs', () => {
  const result = check({ CHROMIUM_PATH: '/nowhere/chromium', OPS_CONSOLE_NO_INSTALL: '1' });
  assert.equal(result.status, 1);
  assert.equal(
    result.stderr,
    'npm test needs, and cannot find:\n  - Chromium (/nowhere/chromium; or set CHROMIUM_PATH)\nInstall them with:\n  sudo apt-get install -y chromium\nthen run npm test again.\n',
  );
});
