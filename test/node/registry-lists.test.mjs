// Lists of the elements that people read, checked against the registry (src/elements/registry.ts):
// an element added there, or one removed, cannot be missing from them or linger in them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ELEMENTS } from '../../src/elements/registry.ts';

test('the docs’ element table has one row per element of the registry, each with its id attribute', () => {
  const rows = readFileSync(new URL('../../docs/embedding/elements.md', import.meta.url), 'utf8')
    .split('\n')
    .flatMap((line) => {
      const cell = /^\| `<(ops-[a-z0-9-]+)([^>]*)>` \|/.exec(line);
      return cell ? [{ tag: cell[1], attributes: cell[2].trim().split(/\s+/).filter(Boolean) }] : [];
    });
  assert.deepEqual(rows.map((row) => row.tag).sort(), ELEMENTS.map((e) => e.tag).sort());
  for (const element of ELEMENTS) {
    const row = rows.find((r) => r.tag === element.tag);
    const id = element.view?.idAttribute;
    assert.deepEqual(row.attributes, id ? [id] : [], `${element.tag}: its page's id attribute`);
  }
});
