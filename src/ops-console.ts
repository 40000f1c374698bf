/**
 * The on-demand core for a `<script type="module">` tag, built to `dist/ops-console.js`: Lit, the
 * base element, the API client, the formatting and the `<ops-console>` wrapper, plus a loader
 * that imports each other `ops-*` element the first time one appears in the document. For one
 * request with everything in it, use `dist/ops-console.all.js`; bundlers import per-element
 * `define.js` files instead.
 *
 * A host that renders ops elements inside its own open shadow root calls
 * `observe(shadowRoot)` from this module so the loader sees them too. The contract's zod
 * schemas are not in the core: the client imports them with its first request.
 */
import './elements/console/define.ts';
import { observe } from './autoload/autoload.ts';

export { discover, load, observe } from './autoload/autoload.ts';
export { OpsElement } from './shared/ops-element.ts';
export * from './api/client.ts';
export * from './api/errors.ts';
export * from '@ops-console/contract/enums';
export * as format from './format/format.ts';
export { registerTranslations, localeReady, str } from './localize/localize.ts';

observe(document);
