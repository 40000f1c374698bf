/**
 * A captured request or response body, drawn as text whatever it holds: JSON pretty-printed and
 * foldable, other text as it is, `[masked]` marked, and a long body drawn in part until asked for
 * the rest. A body is hostile input (markup, 10 MB, nesting 10,000 deep): it is only ever text,
 * and JSON that nests too deep or runs too long is shown as text instead of a tree.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { RequestDetail } from '../api/schemas.ts';
import { formatBytes, formatNumber, type FormatOptions } from '../format/format.ts';
import { msg, str } from '../localize/localize.ts';

export type CapturedBody = NonNullable<RequestDetail['requestBody']>;

/** What a masked value reads, as the server writes it. */
export const MASKED = '[masked]';

/** Text drawn before "Show all": a screenful or two, never a megabyte's layout. */
const FIRST_CHARS = 20_000;
const FIRST_NODES = 400;
/** JSON drawn as a tree at most this deep and this big; beyond, as text. */
const MAX_TREE_DEPTH = 64;
const MAX_TREE_NODES = 20_000;
const MAX_TREE_CHARS = 1_000_000;

/** After these a long value may wrap (`https://hooks.example.com/` | `cus_`), as paths do. */
const WRAP_AFTER = /(?<=[/_\-.&=?,])/;

/** Text with a line-break opportunity after each separator; short text as it is. */
const wrappable = (text: string): unknown => (text.length <= 24 ? text : text.split(WRAP_AFTER).map((part, i) => (i ? [html`<wbr />`, part] : part)));

/** Text with each `[masked]` marked; the rest stays text (Lit escapes it). `wrap`: a short value that may wrap at its separators. */
export function renderMasked(text: string, { wrap = false } = {}): unknown[] {
  const parts = text.split(MASKED);
  const plain = (part: string) => (wrap ? wrappable(part) : part);
  return parts.map((part, i) => (i ? [html`<mark class="masked">${MASKED}</mark>`, plain(part)] : plain(part)));
}

/** Whether JSON text nests deeper than `max` (objects and arrays, outside strings), found without parsing it. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** The body's JSON value when it is JSON small and shallow enough for a tree; undefined otherwise. */
function jsonOf(body: CapturedBody): { value: unknown } | undefined {
  const text = body.text ?? '';
  if (body.truncated || !/json/i.test(body.contentType) || text.length > MAX_TREE_CHARS || !/^\s*[[{]/.test(text)) return undefined;
  if (nestsDeeperThan(text, MAX_TREE_DEPTH)) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Values of a JSON tree, each a line, folded by <details>; stops when `budget.left` runs out. */
function renderJson(value: unknown, budget: { left: number; format: FormatOptions }, key?: string, last = true): TemplateResult | typeof nothing {
  if (budget.left-- <= 0) return nothing;
  const label = key === undefined ? nothing : html`<span class="json-key">${JSON.stringify(key)}</span>: `;
  const comma = last ? '' : ',';
  if (value === null || typeof value !== 'object')
    return html`<div class="json-line">${label}<span class=${`json-${value === null ? 'null' : typeof value}`}>${renderMasked(JSON.stringify(value), { wrap: true })}</span>${comma}</div>`;
  const entries: [string | undefined, unknown][] = Array.isArray(value) ? value.map((v) => [undefined, v]) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (!entries.length) return html`<div class="json-line">${label}${open}${close}${comma}</div>`;
  return html`<details open class="json-node">
    <summary>${label}${open}<span class="json-count">${Array.isArray(value) ? formatItems(entries.length, budget.format) : formatKeys(entries.length, budget.format)}</span></summary>
    <div class="json-children">${entries.map(([k, v], i) => renderJson(v, budget, k, i === entries.length - 1))}</div>
    <div class="json-line">${close}${comma}</div>
  </details>`;
}

const formatItems = (n: number, format: FormatOptions) => (n === 1 ? msg('1 item') : msg(str`${formatNumber(n, format, 0)} items`));
const formatKeys = (n: number, format: FormatOptions) => (n === 1 ? msg('1 key') : msg(str`${formatNumber(n, format, 0)} keys`));

/** Nodes of a JSON value, counted no further than `max`. */
function countNodes(value: unknown, max: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length && count <= max) {
    const next = stack.pop();
    count++;
    // One at a time: spreading a big array's items as arguments overflows the call stack.
    if (next !== null && typeof next === 'object') for (const child of Object.values(next) as unknown[]) stack.push(child);
  }
  return count;
}

export interface BodyViewOptions {
  /** What the body is, for screen readers: "Request body". */
  label: string;
  format: FormatOptions;
  /** Whether the whole body is drawn (after "Show all"). */
  whole: boolean;
  showAll: () => void;
  copy: (text: string) => void;
}

/** A body's line of facts (type, size, what was cut), its content, and its actions. */
export function renderBody(body: CapturedBody | null | undefined, { label, format, whole, showAll, copy }: BodyViewOptions) {
  if (!body) return html`<p class="muted">${msg('No body.')}</p>`;
  const kept = body.text === null ? 0 : new TextEncoder().encode(body.text).length;
  const facts = html`<p class="body-facts">
    <span class="mono">${body.contentType || msg('No content type')}</span> · ${formatBytes(body.size, format)}
    ${body.truncated ? html` · <strong class="truncated">${msg(str`Truncated: ${formatBytes(body.size, format)}, ${formatBytes(kept, format)} kept`)}</strong>` : nothing}
  </p>`;
  if (body.text === null) return html`${facts}<p class="muted">${msg('Not text: only its type and size are kept.')}</p>`;
  const text = body.text;
  const json = jsonOf(body);
  const nodes = json ? countNodes(json.value, MAX_TREE_NODES) : 0;
  const tree = json && nodes <= MAX_TREE_NODES;
  const partial = !whole && (tree ? nodes > FIRST_NODES : text.length > FIRST_CHARS);
  const content = tree
    ? html`<div class="json">${renderJson(json.value, { left: partial ? FIRST_NODES : MAX_TREE_NODES, format })}</div>`
    : html`<pre class="body-text">${renderMasked(partial ? text.slice(0, FIRST_CHARS) : text)}</pre>`;
  return html`${facts}
    <div class="body-actions">
      <button type="button" class="button" @click=${() => copy(text)}>${msg('Copy body')}</button>
      ${partial ? html`<button type="button" class="button" @click=${showAll}>${msg('Show all')}</button>` : nothing}
    </div>
    <div class="body-view" role="region" aria-label=${label} tabindex="0">${content}</div>`;
}

/** `curl` for the request as kept: its method, path, headers and body, masked values still masked. */
export function curlOf(request: Pick<RequestDetail, 'method' | 'path' | 'headers' | 'requestBody'>): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const lines = [`curl -X ${request.method} "$API_URL"${quote(request.path)}`];
  for (const { name, value } of request.headers ?? []) if (!/^(host|content-length)$/i.test(name)) lines.push(`  -H ${quote(`${name}: ${value}`)}`);
  if (request.requestBody?.text) lines.push(`  --data-raw ${quote(request.requestBody.text)}`);
  return lines.join(' \\\n');
}

export const bodyStyles = css`
  .body-facts {
    margin: 0 0 var(--_space);
    color: var(--_muted);
  }
  .body-actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    margin-bottom: var(--_space);
  }
  .body-view {
    max-height: 32rem;
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: var(--_space);
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.8125rem;
  }
  .body-text {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .json-children {
    padding-inline-start: 1.25rem;
  }
  .json-node > summary {
    cursor: pointer;
  }
  .json-count {
    margin-inline-start: var(--_space);
    color: var(--_muted);
  }
  .json-key {
    color: var(--_accent);
  }
  .json-line {
    overflow-wrap: anywhere;
  }
  /* A masked value reads as a placeholder, not as data: tinted, and outlined where colours are forced. */
  mark.masked {
    background: color-mix(in srgb, var(--_warning) 20%, transparent);
    color: var(--_text);
    border-radius: 3px;
    outline: 1px solid transparent;
    padding: 0 2px;
  }
`;
