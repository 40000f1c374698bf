// Writes the template types of every element from custom-elements.json, so they cannot drift
// from the manifest: dist/jsx-react.d.ts (React 19), dist/jsx-preact.d.ts (Preact) and
// dist/vue.d.ts (Vue's GlobalComponents, for vue-tsc and Volar). Each attribute and property is
// typed by the element class's own property (`OpsEndpointTable['status']`), so literal unions
// (`status`, `view`, `theme`, `credentials`) stay literal unions; events carry their details.
import { readFileSync, writeFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('dist/custom-elements.json', 'utf8'));
const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName && d.customElement && d.tagName !== 'ops-chart');
/** Every event any element fires, from the manifest. */
const EVENT_TYPES = [...new Set(elements.flatMap((el) => (el.events ?? []).map((event) => event.name)))];
const doc = (text) => `/** ${(text ?? '').replace(/\*\//g, '').replace(/\s+/g, ' ').trim()} */`;

/** Public properties that are not attributes: functions and objects, set as properties (`getToken`, `clock`, `routes`). */
const propertiesOf = (el) => (el.members ?? []).filter((m) => m.kind === 'field' && !m.static && !m.readonly && !m.attribute && !m.privacy);
/** Its events; `<ops-console>` also has every element's, which bubble through it. */
const eventsOf = (el) =>
  el.tagName === 'ops-console' ? EVENT_TYPES.map((name) => ({ name, description: `Any ${name} of an element inside.` })) : (el.events ?? []);
const eventType = (name) => `OpsEventMap['${name}']`;

const header = (framework) => [
  '// Generated from custom-elements.json by scripts/jsx-types.mjs. Do not edit.',
  framework === 'vue'
    ? "import type { DefineComponent } from 'vue';"
    : framework === 'react'
      ? "import type { HTMLAttributes, RefAttributes } from 'react';"
      : "import type { HTMLAttributes } from 'preact';",
  `import type { OpsEventMap, ${elements.map((e) => e.name).join(', ')} } from './src/index.js';`,
  '',
];

/** React 19 sets a prop as a property when the element has one, so properties are typed by their own names. */
function writeJsx(framework) {
  const lines = header(framework);
  lines.push(
    framework === 'react'
      ? 'type Base<E> = Omit<HTMLAttributes<E>, "onChange"> & RefAttributes<E> & { class?: string };'
      : 'type Base<E extends EventTarget> = HTMLAttributes<E>;',
    '',
  );
  for (const el of elements) {
    lines.push(doc(el.summary ?? el.tagName), `export interface ${el.name}JsxProps extends Base<${el.name}> {`);
    for (const attr of el.attributes ?? []) {
      if (!attr.name || !attr.fieldName) continue;
      lines.push(`  ${doc(attr.description)}`, `  '${attr.name}'?: ${el.name}['${attr.fieldName}'];`);
    }
    for (const prop of propertiesOf(el)) lines.push(`  ${doc(prop.description)}`, `  ${prop.name}?: ${el.name}['${prop.name}'];`);
    for (const event of eventsOf(el)) lines.push(`  ${doc(event.description)}`, `  'on${event.name}'?: (event: ${eventType(event.name)}) => void;`);
    lines.push('}', '');
  }
  lines.push(`declare module '${framework}' {`, '  namespace JSX {', '    interface IntrinsicElements {');
  for (const el of elements) lines.push(`      '${el.tagName}': ${el.name}JsxProps;`);
  lines.push('    }', '  }', '}', '');
  writeFileSync(`dist/jsx-${framework}.d.ts`, lines.join('\n'));
  writeFileSync(`dist/jsx-${framework}.js`, `// Types only: see jsx-${framework}.d.ts.\nexport {};\n`);
}

/**
 * Vue: each tag as a component whose props are the element's properties (Vue matches `api-base`
 * to `apiBase`) and whose emits are its events, the shape Vue's guide gives for custom elements.
 */
function writeVue() {
  const lines = header('vue');
  for (const el of elements) {
    const props = [
      ...(el.attributes ?? []).filter((a) => a.fieldName).map((a) => [a.fieldName, a.description]),
      ...propertiesOf(el).map((p) => [p.name, p.description]),
    ];
    lines.push(doc(el.summary ?? el.tagName), `export interface ${el.name}VueProps {`);
    for (const [name, description] of props) lines.push(`  ${doc(description)}`, `  ${name}?: ${el.name}['${name}'];`);
    lines.push('}');
    // A type, not an interface: Vue's EmitsOptions wants the index signature a type literal has.
    lines.push(`export type ${el.name}VueEvents = {`);
    for (const event of eventsOf(el)) lines.push(`  ${doc(event.description)}`, `  '${event.name}': (event: ${eventType(event.name)}) => void;`);
    lines.push('};', '');
  }
  lines.push("declare module 'vue' {", '  interface GlobalComponents {');
  for (const el of elements) lines.push(`    '${el.tagName}': DefineComponent<${el.name}VueProps, {}, {}, {}, {}, {}, {}, ${el.name}VueEvents>;`);
  lines.push('  }', '}', '');
  writeFileSync('dist/vue.d.ts', lines.join('\n'));
  writeFileSync('dist/vue.js', '// Types only: see vue.d.ts.\nexport {};\n');
}

writeJsx('react');
writeJsx('preact');
writeVue();
console.log(`Wrote dist/jsx-react.d.ts, dist/jsx-preact.d.ts and dist/vue.d.ts (${elements.length} elements)`);
