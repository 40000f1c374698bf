/**
 * The elements, served by the console server itself: a portal needs one
 * `<script type="module" src="https://console.example.com/elements/ops-console.js">` and no CDN.
 * `ops-console.js` is a one-line stub that names the hashed core, so it is revalidated; the
 * hashed files under `chunks/` never change under their name and are cached for a year.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import type { Env, Hono, MiddlewareHandler } from 'hono';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ElementsOptions {
  /** The elements package's `dist/` (default: found through `@ops-console/elements` where it is installed). */
  dir?: string;
}

/** The elements' built files: the option's, else the installed `@ops-console/elements` package's; none when neither is there. */
export function elementsDir(option: ElementsOptions | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option?.dir !== undefined) return option.dir;
  try {
    // Through package.json: in Node, `@ops-console/elements/ops-console.js` is the server-side module, not the bundle.
    return join(dirname(fileURLToPath(import.meta.resolve('@ops-console/elements/package.json'))), 'dist');
  } catch {
    return undefined;
  }
}

/** Names esbuild gives the files it hashes: `ops-webhook-XCMJ4OII.js` (and its source map). */
const HASHED = /-[A-Z0-9]{8}\.js(\.map)?$/;

/** Serves `dir` under `/elements/`, to pages of any origin (module scripts are fetched with CORS). */
export function mountElements<E extends Env>(app: Hono<E>, dir: string | undefined): void {
  const headers: MiddlewareHandler = async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    c.res.headers.set('access-control-allow-origin', '*');
    c.res.headers.set('cross-origin-resource-policy', 'cross-origin');
    c.res.headers.set('x-content-type-options', 'nosniff');
    c.res.headers.set('cache-control', HASHED.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
  const built = dir !== undefined && existsSync(join(dir, 'ops-console.js'));
  const reason = (path: string) =>
    built
      ? `No element file ${path.slice('/elements'.length)}.`
      : dir
        ? 'The elements are not built: run npm run build in the elements package.'
        : 'The elements are not installed beside the server: install @ops-console/elements, or set elements.dir to its dist/ folder.';
  const missing: MiddlewareHandler = (c) =>
    Promise.resolve(
      c.json({ type: 'about:blank', title: 'Not found', status: 404, detail: reason(c.req.path) }, 404, { 'content-type': 'application/problem+json' }),
    );
  if (!built) {
    app.get('/elements/*', missing);
    return;
  }
  app.get('/elements/*', headers, serveStatic({ root: dir, rewriteRequestPath: (path) => path.slice('/elements'.length) }), missing);
}
