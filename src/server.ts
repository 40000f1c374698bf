/**
 * What `ops-console.js` is under the `node` export condition (server rendering): every element
 * defined, as `all.ts` does, and the loader's functions as no-ops, since on a server every tag
 * is defined already and there is no document to watch. A host component that calls
 * `observe(this.shadowRoot)` imports and renders on the server unchanged.
 */
export * from './all.ts';

/** Nothing to load on a server: every element is defined. */
export const load = (): Promise<void> => Promise.resolve();
/** Nothing to discover on a server: every element is defined. */
export const discover = (): Promise<void> => Promise.resolve();
/** Nothing to watch on a server; returns the function that would stop watching. */
export const observe = (): (() => void) => () => undefined;
