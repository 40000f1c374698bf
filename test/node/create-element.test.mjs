// `npm run create <name>` in a copy of the project: the element it writes is laid out like the
// others, is in every list the registry generates and in the docs' element table, and passes the
// type check, lint and format check as it stands.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';

const node = process.execPath;
const bin = (name) => resolve('node_modules/.bin', name);
let copy;

before(() => {
  copy = mkdtempSync(join(tmpdir(), 'ops-create-'));
  for (const dir of ['src', 'mocks', 'stories', 'demo', '.storybook', 'scripts'])
    cpSync(dir, join(copy, dir), { recursive: true, filter: (path) => !path.includes('/generated-') });
  // The tests' helpers, not their pictures or host apps.
  cpSync('test', join(copy, 'test'), { recursive: true, filter: (path) => !/\/test\/(visual|fixtures)(\/|$)/.test(path) });
  for (const file of [
    'package.json',
    'tsconfig.json',
    '.prettierrc.json',
    '.prettierignore',
    'custom-elements-manifest.config.mjs',
    'custom-elements.json',
    'eslint.config.mjs',
  ])
    cpSync(file, join(copy, file));
  cpSync('docs/embedding/elements.md', join(copy, 'docs/embedding/elements.md'));
  cpSync('xliff', join(copy, 'xliff'), { recursive: true });
  cpSync('lit-localize.json', join(copy, 'lit-localize.json'));
  for (const linked of ['node_modules', 'contract', 'server']) symlinkSync(resolve(linked), join(copy, linked));
  execFileSync(node, ['scripts/create-element.mjs', 'usage-note', '--view=/usage-notes', '--section=Usage notes'], { cwd: copy, stdio: 'pipe' });
});
after(() => rmSync(copy, { recursive: true, force: true }));

const read = (path) => readFileSync(join(copy, path), 'utf8');

test('create writes an element folder like the others, and its story', () => {
  for (const file of ['ops-usage-note.ts', 'ops-usage-note.styles.ts', 'define.ts', 'ops-usage-note.test.ts'])
    assert.ok(existsSync(join(copy, 'src/elements/usage-note', file)), `src/elements/usage-note/${file}`);
  assert.ok(existsSync(join(copy, 'stories/ops-usage-note.stories.ts')));
  assert.match(read('src/elements/usage-note/define.ts'), /OpsUsageNote\.define\('ops-usage-note'\)/);
});

test('the new element is in every list the registry makes, and in the index and manifest', () => {
  assert.match(read('src/elements/registry.ts'), /tag: 'ops-usage-note',\s+className: 'OpsUsageNote'/);
  assert.match(read('src/all.ts'), /^import '\.\/elements\/usage-note\/define\.ts';$/m);
  assert.match(read('src/autoload/element-chunks.ts'), /'ops-usage-note': \(\) => import\('\.\.\/elements\/usage-note\/define\.ts'\)/);
  assert.match(read('src/react/ops-usage-note.ts'), /export const OpsUsageNote = wrap\('ops-usage-note', Element\);/);
  assert.match(read('src/react/index.ts'), /export \{ OpsUsageNote \} from '\.\/ops-usage-note\.ts';/);
  assert.match(read('src/index.ts'), /^export \{ OpsUsageNote \} from '\.\/elements\/usage-note\/ops-usage-note\.ts';$/m);
  assert.deepEqual(JSON.parse(read('package.json')).exports['./ops-usage-note.js'], {
    types: './dist/src/elements/usage-note/define.d.ts',
    default: './dist/src/elements/usage-note/define.js',
  });
  const manifest = JSON.parse(read('custom-elements.json'));
  const declared = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'ops-usage-note');
  assert.equal(declared?.name, 'OpsUsageNote');
  execFileSync(node, ['scripts/elements.mjs', '--check'], { cwd: copy, stdio: 'pipe' });
  assert.match(read('docs/embedding/elements.md'), /^\| `<ops-usage-note>` \| Usage note: .* \| new \|$/m);
  execFileSync(node, ['--test', 'test/node/registry-lists.test.mjs'], { cwd: copy, stdio: 'pipe' });
});

test('with --view and --section, the new element is a page of the routed console with a link in its navigation', () => {
  assert.match(read('src/elements/console/views.ts'), /\{ path: '\/usage-notes', render: \(\) => html`<ops-usage-note><\/ops-usage-note>` \}/);
  assert.match(read('src/elements/console/views.ts'), /\{ path: '\/usage-notes', label: \(\) => msg\('Usage notes'\) \},\n\] as const;/);
  assert.match(read('src/elements/console/app.ts'), /^import '\.\.\/usage-note\/define\.ts';$/m);
});

test('the navigation label is a message of every locale, its English standing in, and in the built locale modules', () => {
  for (const locale of ['de', 'ja']) {
    const xliff = read(`xliff/${locale}.xlf`);
    assert.match(xliff, /<source>Usage notes<\/source>\n {2}<target>Usage notes<\/target>\n<\/trans-unit>/, locale);
    assert.equal(
      xliff.match(/<trans-unit /g).length,
      readFileSync(`xliff/${locale}.xlf`, 'utf8').match(/<trans-unit /g).length + 1,
      `${locale}: one unit more`,
    );
    assert.equal(xliff.match(/<trans-unit /g).length, xliff.match(/<target>/g).length, `${locale}: every unit has a target`);
    assert.match(read(`src/localize/generated/${locale}.ts`), /: `Usage notes`,/);
  }
});

test('what create wrote passes the type check, lint and the format check', () => {
  const written = [
    'src/elements/usage-note',
    'stories/ops-usage-note.stories.ts',
    'src/elements/registry.ts',
    'src/index.ts',
    'src/all.ts',
    'src/react',
    'src/autoload',
    'src/elements/console',
    'package.json',
  ];
  execFileSync(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { cwd: copy, stdio: 'pipe' });
  execFileSync(bin('eslint'), ['src/elements/usage-note', 'stories/ops-usage-note.stories.ts', 'src/react/ops-usage-note.ts'], { cwd: copy, stdio: 'pipe' });
  execFileSync(bin('prettier'), ['--check', ...written], { cwd: copy, stdio: 'pipe' });
});

test('create refuses a name that is not kebab case, or an element that exists', () => {
  for (const name of ['UsageNote', 'usage_note', 'overview', 'console', '']) {
    assert.throws(() => execFileSync(node, ['scripts/create-element.mjs', name], { cwd: copy, stdio: 'pipe' }), { status: 2 }, name);
  }
  // A page at a path the router cannot take, or a section with no page, is refused before anything is written.
  for (const options of [['--view=usage'], ['--view=/Usage Notes'], ['--section=Usage']]) {
    assert.throws(
      () => execFileSync(node, ['scripts/create-element.mjs', 'usage-chart', ...options], { cwd: copy, stdio: 'pipe' }),
      { status: 2 },
      options.join(' '),
    );
    assert.ok(!existsSync(join(copy, 'src/elements/usage-chart')), options.join(' '));
  }
});
