// Writes dist/jsx-react.d.ts from custom-elements.json: every element's attributes, properties
// and events for React 19 (and Preact through its React compatibility types), so JSX users get
// attribute and event checking. Generated, so it cannot drift from the manifest.
import { readFileSync, writeFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('dist/custom-elements.json', 'utf8'));
const exported = new Set(['NavigateDetail', 'LoadErrorDetail', 'ErrorRecordDetail', 'CancelDetail', 'EndpointSort']);
/** Keeps a manifest type when every name in it is a primitive, a literal or exported; otherwise `string`. */
const safe = (text = 'string') => {
  const names = text.replace(/'[^']*'/g, '').match(/[A-Za-z_]\w*/g) ?? [];
  return names.every((n) => ['string', 'number', 'boolean', 'undefined', 'null', 'CustomEvent', 'Event'].includes(n) || exported.has(n)) ? text : 'string';
};

const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName && d.customElement && d.tagName !== 'ops-chart');

/** The same element types for React 19 (`jsx-react`) and Preact (`jsx-preact`). */
function write(framework) {
  const base =
    framework === 'react'
      ? [
          "import type { HTMLAttributes, RefAttributes } from 'react';",
          'type Base<E> = Omit<HTMLAttributes<E>, "onChange"> & RefAttributes<E> & { class?: string };',
        ]
      : ["import type { HTMLAttributes } from 'preact';", 'type Base<E extends EventTarget> = HTMLAttributes<E>;'];
  const lines = [
    '// Generated from custom-elements.json by scripts/jsx-types.mjs. Do not edit.',
    base[0],
    `import type { ${[...exported].sort().join(', ')}, ${elements.map((e) => e.name).join(', ')} } from './src/index.js';`,
    '',
    base[1],
    '',
  ];
  for (const el of elements) {
    lines.push(`/** ${el.summary ?? el.tagName} */`);
    lines.push(`export interface ${el.name}JsxProps extends Base<${el.name}> {`);
    for (const attr of el.attributes ?? []) {
      if (!attr.name) continue;
      lines.push(`  /** ${(attr.description ?? '').replace(/\*\//g, '')} */`);
      lines.push(`  '${attr.name}'?: ${safe(attr.type?.text).replace(/ \| undefined$/, '')};`);
    }
    for (const event of el.events ?? []) {
      lines.push(`  /** ${(event.description ?? '').replace(/\*\//g, '')} */`);
      lines.push(`  'on${event.name}'?: (event: ${safe(event.type?.text ?? 'Event')}) => void;`);
    }
    lines.push('}', '');
  }
  lines.push(`declare module '${framework}' {`, '  namespace JSX {', '    interface IntrinsicElements {');
  for (const el of elements) lines.push(`      '${el.tagName}': ${el.name}JsxProps;`);
  lines.push('    }', '  }', '}', '');
  writeFileSync(`dist/jsx-${framework}.d.ts`, lines.join('\n'));
  writeFileSync(`dist/jsx-${framework}.js`, `// Types only: see jsx-${framework}.d.ts.\nexport {};\n`);
}

write('react');
write('preact');
console.log(`Wrote dist/jsx-react.d.ts and dist/jsx-preact.d.ts (${elements.length} elements)`);
