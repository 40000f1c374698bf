/**
 * One way every story shows an element, driven by the manifest: each public field is a control
 * (its attribute when it has one, else the property), each `ops-*` event reaches the Actions panel,
 * and "Show code" is the element as a host would write it.
 */
import type { Preview, StoryContext } from '@storybook/web-components-vite';
import rawManifest from '../../custom-elements.json';

interface Field {
  kind: string;
  name: string;
  attribute?: string;
  description?: string;
  type?: { text: string };
}
interface Declaration {
  tagName?: string;
  members?: Field[];
  attributes?: { name: string; fieldName?: string }[];
  events?: { name: string }[];
}
interface Manifest {
  modules: { declarations?: Declaration[] }[];
}

type ArgTypesEnhancer = NonNullable<Preview['argTypesEnhancers']>[number];

const manifest = rawManifest as unknown as Manifest;
const declarations = new Map(manifest.modules.flatMap((m) => m.declarations ?? []).flatMap((d) => (d.tagName ? [[d.tagName, d] as const] : [])));

/** The story arg that Storybook gives an event's action: `ops-navigate` → `onOpsNavigate`. */
export const actionArg = (event: string) => `on${event.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase())}`;

/**
 * The manifest as Storybook should show it: a field's attribute is named in its description
 * rather than listed again as an attribute row of its own (whose control would set nothing).
 */
export function forStorybook(): Manifest {
  const copy = structuredClone(manifest);
  for (const declaration of copy.modules.flatMap((m) => m.declarations ?? [])) {
    const fields = new Set(declaration.members?.filter((m) => m.kind === 'field').map((m) => m.name));
    declaration.attributes = declaration.attributes?.filter((a) => !a.fieldName || !fields.has(a.fieldName));
    for (const member of declaration.members ?? []) {
      if (member.attribute) member.description = `Attribute \`${member.attribute}\`. ${member.description ?? ''}`.trim();
    }
  }
  return copy;
}

/** `'light' | 'dark' | 'auto' | undefined` → `['light', 'dark', 'auto']`; anything else → undefined. */
function literals(type: string | undefined): string[] | undefined {
  const parts = (type ?? '')
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== 'undefined');
  return parts.length > 1 && parts.every((part) => /^'[^']*'$/.test(part)) ? parts.map((part) => part.slice(1, -1)) : undefined;
}

/**
 * Controls that work: radios for a union of strings, none for rows nothing can set from a
 * control (events, parts, tokens, functions, methods).
 */
export const controlsFromTypes: ArgTypesEnhancer = ({ argTypes }) => {
  const enhanced: typeof argTypes = {};
  for (const [name, argType] of Object.entries(argTypes)) {
    const category = argType.table?.category;
    const summary = argType.table?.type?.summary;
    const options = literals(summary);
    if (options) enhanced[name] = { ...argType, control: { type: 'inline-radio' }, options };
    else if (category !== 'properties' || /=>|\(|typeof /.test(summary ?? '')) enhanced[name] = { ...argType, control: false };
    else enhanced[name] = argType;
  }
  return enhanced;
};

/** An attribute's text for an arg: a list space-separated (`token-origins`), a number as written. */
const attributeText = (value: unknown): string => (typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : JSON.stringify(value));

/** Story args that are not the element's: the width of the frame around it. */
export interface FrameArgs {
  width?: string;
}

/**
 * `<tag>` with every arg the manifest knows: an attribute for a field that has one (a boolean
 * as present or absent, an empty value left out), the property otherwise; actions as listeners.
 * Inside a frame of `width` (a sidebar, a column).
 */
export function renderElement(tag: string, args: Record<string, unknown> & FrameArgs): HTMLElement {
  const declaration = declarations.get(tag);
  const element = document.createElement(tag);
  for (const field of declaration?.members ?? []) {
    if (field.kind !== 'field' || !(field.name in args)) continue;
    const value = args[field.name];
    if (field.attribute) {
      if (value === undefined || value === '' || value === false || value === null) continue;
      element.setAttribute(field.attribute, value === true ? '' : attributeText(value));
    } else if (value !== undefined) {
      (element as unknown as Record<string, unknown>)[field.name] = value;
    }
  }
  for (const { name } of declaration?.events ?? []) {
    const handler = args[actionArg(name)];
    if (typeof handler === 'function') element.addEventListener(name, handler as EventListener);
  }
  const frame = document.createElement('div');
  frame.style.maxWidth = args.width ?? '100%';
  frame.append(element);
  return frame;
}

/** The element as a host writes it, for "Show code": its attributes only, none left empty. */
export function snippet(tag: string, args: Record<string, unknown>): string {
  const declaration = declarations.get(tag);
  const attributes = (declaration?.members ?? []).flatMap((field) => {
    const value = args[field.name];
    if (!field.attribute || value === undefined || value === '' || value === false || value === null) return [];
    return [value === true ? field.attribute : `${field.attribute}="${attributeText(value).replace(/"/g, '&quot;')}"`];
  });
  return `<${tag}${attributes.map((a) => `\n  ${a}`).join('')}${attributes.length ? '\n' : ''}></${tag}>`;
}

/** `docs.source.transform`: the clean snippet of a story that shows one element. */
export const sourceOfStory = (code: string, context: StoryContext): string =>
  typeof context.component === 'string' && declarations.has(context.component) ? snippet(context.component, context.args) : code;
