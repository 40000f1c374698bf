/**
 * Defines each `ops-*` tag the moment it first appears, importing that element's chunk then
 * (the pattern Shoelace and Web Awesome call an autoloader): a page with one panel downloads one
 * panel. Side-effect free; `src/ops-console.ts` starts it on the document.
 */

import { ELEMENT_CHUNKS } from './element-chunks.ts';

export { ELEMENT_CHUNKS };

const loading = new Map<string, Promise<void>>();

/**
 * Imports the chunk that defines `tag`, once. Resolves when the tag is defined, or when the
 * import failed (said in the page's console; the element stays blank); the next call for the
 * tag, such as one more element of it added to the page, tries again. An unknown tag resolves
 * at once.
 */
export function load(tag: string): Promise<void> {
  const chunk = ELEMENT_CHUNKS[tag];
  if (!chunk || customElements.get(tag)) return Promise.resolve();
  let pending = loading.get(tag);
  if (!pending) {
    pending = chunk().then(
      () => undefined,
      (error: unknown) => {
        loading.delete(tag);
        // The page's own console is where a host developer looks; nothing is thrown into the page.
        console.error(`ops-console: could not load <${tag}>`, error);
      },
    );
    loading.set(tag, pending);
  }
  return pending;
}

/** Loads every undefined `ops-*` element in `root` (the node itself included); resolves when all are settled. */
export function discover(root: ParentNode): Promise<void> {
  const tags = new Set<string>();
  if (root instanceof Element && root.localName.startsWith('ops-')) tags.add(root.localName);
  for (const element of root.querySelectorAll(':not(:defined)')) if (element.localName.startsWith('ops-')) tags.add(element.localName);
  return Promise.all([...tags].map(load)).then(() => undefined);
}

/**
 * Loads the elements in `root` now and each one added later. The document is watched from the
 * start; a shadow root is not visible from outside it, so a host that renders ops elements in
 * its own open shadow root passes that root here. Answers a function that stops watching.
 */
export function observe(root: Document | ShadowRoot | Element): () => void {
  const observer = new MutationObserver((mutations) => {
    for (const { addedNodes } of mutations) for (const node of addedNodes) if (node instanceof Element) void discover(node);
  });
  observer.observe(root, { childList: true, subtree: true });
  void discover(root);
  return () => observer.disconnect();
}
