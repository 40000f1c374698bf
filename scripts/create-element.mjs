// `npm run create <name>`: a new element, `ops-<name>`, laid out like the others: its folder
// (element, styles, define file, test), its story, its line in the element registry and its row
// in the docs' element table, and then
// what the registry generates (all.ts, the autoloader's map, the React component, the export).
// The element starts as an empty panel; give it data with DataTask or ListController as the
// others do, and a `sample` in its registry line. `--view=/usage` gives it a page in the routed
// console at that path, and `--section="Usage"` a link in its navigation too (start.test checks
// that every element but the controls has a page).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (key) => args.find((arg) => arg.startsWith(`--${key}=`))?.slice(key.length + 3);
const name = args.find((arg) => !arg.startsWith('--')) ?? '';
const viewPath = option('view');
const section = option('section');
if (viewPath !== undefined && !/^\/[a-z0-9-]*(\/[a-z0-9-]+)*(\/:id)?$/.test(viewPath)) {
  console.error("--view=<path>: the page's path below the console's base, in lower case (/usage, or /usage/:id for one of a kind).");
  process.exit(2);
}
if (section !== undefined && (!viewPath || !/^[\p{L}\p{N} ]+$/u.test(section))) {
  console.error('--section=<name> names the navigation link of a page: it needs --view, and is words (Usage notes).');
  process.exit(2);
}
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name === 'console' || name === 'chart') {
  console.error('npm run create <name>: a lower-case name in kebab case (usage-chart), which makes the tag ops-<name>.');
  process.exit(2);
}
const tag = `ops-${name}`;
const folder = `src/elements/${name}`;
if (existsSync(folder)) {
  console.error(`${folder} exists already.`);
  process.exit(2);
}
const className = `Ops${name.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase())}`;
const title = name.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());

const files = {
  [`${folder}/${tag}.ts`]: `import { html } from 'lit';
import { OpsElement } from '../../shared/ops-element.ts';
import { styles } from './${tag}.styles.ts';

/**
 * ${title}: what it shows, for whom, and what a person can do with it.
 *
 * @summary ${title}.
 *
 * @csspart base - The panel.
 *
 * @customElement ${tag}
 */
export class ${className} extends OpsElement {
  static override styles = [...OpsElement.styles, ...styles];

  override render() {
    return html\`<div part="base" class="base"><slot></slot></div>\`;
  }
}
`,
  [`${folder}/${tag}.styles.ts`]: `import { css } from 'lit';

export const styles = [
  css\`
    .base {
      display: block;
    }
  \`,
];
`,
  [`${folder}/define.ts`]: `import { ${className} } from './${tag}.ts';

${className}.define('${tag}');

declare global {
  interface HTMLElementTagNameMap {
    '${tag}': ${className};
  }
}
`,
  [`${folder}/${tag}.test.ts`]: `import { expect } from '@open-wc/testing';
import { $ } from '../../../test/dom.ts';
import { mount } from '../../../test/harness.ts';
import './define.ts';
import { ${className} } from './${tag}.ts';

describe('${tag}', () => {
  it('is defined and renders its panel', async () => {
    const el = await mount<${className}>('${tag}');
    expect(el).to.be.instanceOf(${className});
    expect($(el, '[part="base"]')).to.exist;
  });
});
`,
  [`stories/${tag}.stories.ts`]: `import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { renderElement, type FrameArgs } from './support/element.ts';

interface Args extends FrameArgs {
  apiBase: string;
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
}

const meta: Meta<Args> = {
  title: 'Elements/${tag}',
  component: '${tag}',
  args: { apiBase: '/api/v1', width: '40rem' },
  render: (args) => renderElement('${tag}', { timeZone: 'UTC', ...args }),
};
export default meta;

type Story = StoryObj<Args>;

export const Default: Story = {};
export const Dark: Story = { args: { theme: 'dark' }, globals: { theme: 'dark' } };
`,
};

mkdirSync(folder, { recursive: true });
for (const [path, text] of Object.entries(files)) writeFileSync(path, text);

// The registry line, last in the list.
const registry = 'src/elements/registry.ts';
const source = readFileSync(registry, 'utf8');
const end = '] as const satisfies readonly ElementEntry[];';
if (!source.includes(end)) throw new Error(`${registry} no longer ends its list with "${end}"`);
const view = viewPath === undefined ? '' : `\n    view: { path: '${viewPath}'${section ? `, section: '${section}'` : ''} },`;
const entry = `  {\n    tag: '${tag}',\n    className: '${className}',\n    summary: '${title}.',\n    events: [],${view}\n  },\n`;
writeFileSync(registry, source.replace(end, `${entry}${end}`));

// Its class in the package's index, after the other elements'.
const index = 'src/index.ts';
const lines = readFileSync(index, 'utf8').split('\n');
const lastElement = lines.findLastIndex((line) => /^export \{ Ops\w+.* \} from '\.\/elements\//.test(line));
lines.splice(lastElement + 1, 0, `export { ${className} } from './elements/${name}/${tag}.ts';`);
writeFileSync(index, lines.join('\n'));

// Its row in the docs' element table (test/node/registry-lists.test.mjs holds the table to the registry), after the last.
const table = 'docs/embedding/elements.md';
const rows = readFileSync(table, 'utf8').split('\n');
const lastRow = rows.findLastIndex((line) => line.startsWith('| `<ops-'));
if (lastRow === -1) throw new Error(`${table} no longer has its table of elements (rows starting "| \`<ops-")`);
rows.splice(lastRow + 1, 0, `| \`<${tag}>\` | ${title}: what it shows, for whom, and what a person can do with it | new |`);
writeFileSync(table, rows.join('\n'));

execFileSync(process.execPath, ['scripts/elements.mjs'], { stdio: 'inherit' });
execFileSync(process.execPath, ['scripts/manifest.mjs'], { stdio: 'inherit' });
if (section) {
  // The navigation's new label is a message: into each locale's XLIFF, its English standing in
  // until it is translated (test/node/localize.test.mjs wants every message with a target), and
  // into the locale modules built from them.
  const litLocalize = (command) => execFileSync('node_modules/.bin/lit-localize', [command], { stdio: 'pipe' });
  litLocalize('extract');
  for (const locale of JSON.parse(readFileSync('lit-localize.json', 'utf8')).targetLocales) {
    const xliff = `xliff/${locale}.xlf`;
    writeFileSync(
      xliff,
      readFileSync(xliff, 'utf8').replace(
        /(<source>((?:(?!<\/source>)[\s\S])*)<\/source>)(\s*)(<\/trans-unit>)/g,
        (_, source, text, space, end) => `${source}\n  <target>${text}</target>${space}${end}`,
      ),
    );
  }
  litLocalize('build');
}
console.log(`Created <${tag}>: ${Object.keys(files).join(', ')}, and its line in ${registry}.
Next: give it data (DataTask or ListController, as the others), a sample in its registry line,
${viewPath ? '' : 'a view in the console (view: { path } in its registry line), '}${section ? `"${section}" translated in xliff/ (its English stands in until then), ` : ''}and its baseline pictures (npm run test:visual:update).`);
