/**
 * Defines each `ops-*` tag the moment it first appears, importing that element's chunk then
 * (the pattern Shoelace and Web Awesome call an autoloader): a page with one panel downloads one
 * panel. Side-effect free; `src/ops-console.ts` starts it on the document.
 */

/** Every element the loader knows, by tag: each import is a chunk of its own in the build. */
export const ELEMENT_CHUNKS: Readonly<Record<string, () => Promise<unknown>>> = {
  'ops-activity-feed': () => import('../elements/activity-feed/define.ts'),
  'ops-customer': () => import('../elements/customer/define.ts'),
  'ops-customer-list': () => import('../elements/customer-list/define.ts'),
  'ops-webhook-list': () => import('../elements/webhook-list/define.ts'),
  'ops-time-range': () => import('../elements/time-range/define.ts'),
  'ops-endpoint-table': () => import('../elements/endpoint-table/define.ts'),
  'ops-error': () => import('../elements/error/define.ts'),
  'ops-error-form': () => import('../elements/error-form/define.ts'),
  'ops-error-list': () => import('../elements/error-list/define.ts'),
  'ops-overview': () => import('../elements/overview/define.ts'),
  'ops-request-detail': () => import('../elements/request-detail/define.ts'),
  'ops-endpoint-detail': () => import('../elements/endpoint-detail/define.ts'),
  'ops-request-log': () => import('../elements/request-log/define.ts'),
  'ops-traffic': () => import('../elements/traffic/define.ts'),
  'ops-webhook': () => import('../elements/webhook/define.ts'),
  'ops-chart': () => import('../shared/chart/define.ts'),
};

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
