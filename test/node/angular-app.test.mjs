// Angular, as docs/embedding/frameworks.md sets it up: a standalone component with CUSTOM_ELEMENTS_SCHEMA compiled
// by the Angular compiler (ngc, strictTemplates and strictDomEventTypes) against the packed
// tarball. The event binding is typed from the package's HTMLElementEventMap: a handler taking
// CustomEvent<NavigateDetail> compiles, one taking a MouseEvent does not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { after, before, test } from 'node:test';
import { createHostApp } from './host-app.mjs';

let dir;
before(() => {
  dir = createHostApp('angular-app', [
    '@angular/core',
    '@angular/common',
    '@angular/compiler',
    '@angular/compiler-cli',
    '@angular/platform-browser',
    'rxjs',
    'tslib',
    'typescript',
  ]);
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs ngc on one of the fixture's projects; Angular 22 needs Node 22 or later, which `npm install` brings. */
const ngc = (project) =>
  spawnSync(process.execPath, [join(dir, 'node_modules/@angular/compiler-cli/bundles/src/bin/ngc.js'), '-p', join(dir, `tsconfig.${project}.json`)], {
    cwd: dir,
    encoding: 'utf8',
  });

test('a standalone component using the elements compiles with strict templates', () => {
  const run = ngc('app');
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test('a handler of the wrong event type is a template error', () => {
  const run = ngc('invalid');
  assert.notEqual(run.status, 0, 'ngc refused the template');
  const output = stripVTControlCharacters(run.stdout + run.stderr); // without its colours
  assert.match(output, /Argument of type 'CustomEvent<NavigateDetail>' is not assignable to parameter of type 'MouseEvent'/);
});
