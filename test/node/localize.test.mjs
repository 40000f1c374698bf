// The translations are complete and in step with the source: every msg() in src/ is in the
// committed XLIFF with a German and a Japanese target, and the committed locale modules are what
// `lit-localize build` makes of that XLIFF. Both run the real lit-localize CLI into a scratch folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

const root = resolve(import.meta.dirname, '../..');
const config = JSON.parse(readFileSync(join(root, 'lit-localize.json'), 'utf8'));
const scratch = mkdtempSync(join(tmpdir(), 'ops-localize-'));

/** Runs the lit-localize CLI with the project's config, writing to `overrides` instead. */
function litLocalize(command, overrides) {
  const file = join(root, `.lit-localize.${command}.tmp.json`);
  writeFileSync(file, JSON.stringify({ ...config, ...overrides }));
  try {
    execFileSync(join(root, 'node_modules/.bin/lit-localize'), [command, '--config', file], { cwd: root, stdio: 'pipe' });
  } finally {
    rmSync(file, { force: true });
  }
}

/** `id → { source, target }` of an XLIFF file. */
function units(path) {
  const xml = readFileSync(path, 'utf8');
  const found = new Map();
  for (const [, id, body] of xml.matchAll(/<trans-unit id="([^"]+)">([\s\S]*?)<\/trans-unit>/g)) {
    found.set(id, { source: /<source>([\s\S]*?)<\/source>/.exec(body)?.[1], target: /<target>([\s\S]*?)<\/target>/.exec(body)?.[1] });
  }
  return found;
}

describe('translations', () => {
  before(() => {
    litLocalize('extract', { interchange: { ...config.interchange, xliffDir: join(scratch, 'xliff') } });
    litLocalize('build', {
      output: { ...config.output, outputDir: join(scratch, 'generated'), localeCodesModule: join(scratch, 'generated/locale-codes.ts') },
    });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const locale of config.targetLocales) {
    it(`${locale}: every message in the source is in xliff/${locale}.xlf with a translation, and nothing else is`, () => {
      const extracted = units(join(scratch, 'xliff', `${locale}.xlf`));
      const committed = units(join(root, 'xliff', `${locale}.xlf`));
      assert.ok(extracted.size > 150, `only ${extracted.size} messages found in src/`);
      assert.deepEqual([...committed.keys()].sort(), [...extracted.keys()].sort());
      for (const [id, { source }] of extracted) assert.equal(committed.get(id).source, source, `source of ${id}`);
      const untranslated = [...committed].filter(([, unit]) => !unit.target?.trim()).map(([id, unit]) => `${id}: ${unit.source}`);
      assert.deepEqual(untranslated, []);
    });
  }

  it('the committed locale modules are what lit-localize builds from the committed XLIFF', () => {
    const generated = join(root, 'src/localize/generated');
    const files = readdirSync(join(scratch, 'generated')).sort();
    assert.deepEqual(readdirSync(generated).sort(), files);
    for (const file of files) assert.equal(readFileSync(join(generated, file), 'utf8'), readFileSync(join(scratch, 'generated', file), 'utf8'), file);
  });
});
