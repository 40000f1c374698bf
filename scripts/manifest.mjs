// `npm run analyze`: custom-elements.json from the JSDoc of src/ (attributes, properties,
// events with detail types, parts, CSS properties, slots). `--check` fails when the committed
// file is out of date, so the manifest cannot drift from the code.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'cem-'));
try {
  const cli = new URL('../node_modules/.bin/custom-elements-manifest', import.meta.url).pathname;
  execFileSync(cli, ['analyze', '--config', 'custom-elements-manifest.config.mjs', '--outdir', relative(process.cwd(), dir), '--quiet'], { stdio: 'inherit' });
  // Modules in path order: the analyzer's own order follows the file system and can vary.
  const manifest = JSON.parse(readFileSync(join(dir, 'custom-elements.json'), 'utf8'));
  manifest.modules.sort((a, b) => a.path.localeCompare(b.path));
  // The public API only: private, protected and #private members, and static ones (`define`), are
  // the classes' own business; members marked @internal the analyzer leaves out itself.
  for (const declaration of manifest.modules.flatMap((module) => module.declarations ?? [])) {
    if (declaration.members) declaration.members = declaration.members.filter((m) => !m.privacy && !m.static && !m.name.startsWith('#'));
  }
  const fresh = `${JSON.stringify(manifest, null, 2)}\n`;
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync('custom-elements.json', 'utf8');
    } catch {
      // No committed manifest yet: compared as empty.
    }
    if (committed !== fresh) {
      const at = [...fresh].findIndex((c, i) => c !== committed[i]);
      console.error('custom-elements.json is out of date with the JSDoc in src/: run `npm run analyze` and commit it.');
      console.error(`first difference at ${at}: ${JSON.stringify(fresh.slice(at - 80, at + 80))}`);
      process.exit(1);
    }
    console.log('custom-elements.json matches the source.');
  } else {
    // `--out <file>` (the build) writes elsewhere, so the committed file stays what the check compares.
    const out = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : 'custom-elements.json';
    writeFileSync(out, fresh);
    console.log(`Wrote ${out}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
