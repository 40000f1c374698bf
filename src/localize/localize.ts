/**
 * The language of the UI text. Every string a person reads goes through `msg()` of
 * `@lit/localize`, written in English; `lit-localize extract` lists them in `xliff/*.xlf` and
 * `lit-localize build` turns the translations into `generated/<locale>.ts`.
 *
 * Each element renders in its own locale (its `locale`, else the `<ops-console>` wrapper's, else
 * `<html lang>`), so two panels in two languages can share a page. That is why this uses the
 * library's reentrant mode: `msg()` asks which templates apply at the moment it is called, and
 * the answer is those of the element rendering then ({@link renderInLocale}).
 */
import { configureReentrantLocalization } from '@lit/localize/init/reentrant.js';
import type { LocaleModule, TemplateMap } from '@lit/localize/internal/types.js';

export { msg } from '@lit/localize/init/install.js';
export { str } from '@lit/localize/internal/str-tag.js';
export type { TemplateMap } from '@lit/localize/internal/types.js';

/** The language the messages are written in. */
export const SOURCE_LOCALE = 'en';

const builtIn: Record<string, () => Promise<LocaleModule>> = {
  de: () => import('./generated/de.ts'),
  ja: () => import('./generated/ja.ts'),
};

/** Loaded templates by locale tag (lower case): the built-in ones with the host's over them. */
const loaded = new Map<string, TemplateMap>();
const loading = new Map<string, Promise<void>>();
/** What the host registered, kept apart so a built-in locale loaded later still gives way to it. */
const registered = new Map<string, TemplateMap>();

/** The templates of the element rendering now; `undefined` means English. */
let current: TemplateMap | undefined;

try {
  configureReentrantLocalization({
    sourceLocale: SOURCE_LOCALE,
    targetLocales: ['x-rendering'],
    getLocale: () => (current ? 'x-rendering' : SOURCE_LOCALE),
    loadLocaleSync: () => (current ? { templates: current } : undefined),
  });
} catch {
  // The page configured @lit/localize itself (one copy shared with this library): its msg() wins.
  console.warn('ops-console: @lit/localize is already configured on this page, so ops-* elements show their English text.');
}

/** `pt_BR`, `PT-br` → `pt-br`: one spelling per tag, however the host or the page writes it. */
const key = (tag: string) => tag.trim().toLowerCase().replace(/_/g, '-');

/** `de-CH` → `['de-ch', 'de']`: the full tag first, then its language. */
function candidates(locale: string | undefined): string[] {
  if (!locale) return [];
  const tag = key(locale);
  const language = tag.split('-')[0] ?? '';
  return language && language !== tag ? [tag, language] : [tag];
}

/** The locale among those that exist (built in, registered) that serves `locale`, if any. */
function match(locale: string | undefined): string | undefined {
  return candidates(locale).find((tag) => tag in builtIn || registered.has(tag) || loaded.has(tag));
}

/**
 * Registers translations of the UI text for a locale, or corrections to a built-in one (`de`,
 * `ja`). `templates` has the shape `lit-localize build` writes: message id → text, with
 * `str\`…${0}…\`` where a message has values. The ids and English sources are in the package's
 * `xliff/*.xlf`. Messages left out stay in English (or in the built-in translation). Elements
 * already on the page re-render.
 */
export function registerTranslations(locale: string, templates: TemplateMap): void {
  const tag = key(locale);
  registered.set(tag, { ...registered.get(tag), ...templates });
  if (tag in builtIn && !loaded.has(tag)) {
    // The built-in ones arrive later and are merged under these then.
    void loadLocale(tag);
    return;
  }
  loaded.set(tag, { ...loaded.get(tag), ...registered.get(tag) });
  notify();
}

function loadLocale(tag: string): Promise<void> {
  let pending = loading.get(tag);
  if (!pending) {
    pending = builtIn[tag]!()
      .then(
        (module) => loaded.set(tag, { ...module.templates, ...registered.get(tag) }),
        (error: unknown) => {
          // A chunk that cannot be fetched leaves the text in English rather than the panel blank.
          console.warn(`ops-console: could not load the "${tag}" translations; showing English.`, error);
          loaded.set(tag, { ...registered.get(tag) });
        },
      )
      .then(notify);
    loading.set(tag, pending);
  }
  return pending;
}

/** Elements that re-render when translations arrive. */
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Calls `onChange` whenever translations are loaded or registered. Returns the unsubscribe. */
export function onTranslationsChange(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/**
 * The templates for `locale`, starting their download when they are built in and not here yet
 * (the caller hears of their arrival through {@link watchLocale}).
 */
function templatesFor(locale: string | undefined): TemplateMap | undefined {
  const tag = match(locale);
  if (!tag) return undefined;
  const templates = loaded.get(tag);
  if (!templates && tag in builtIn) void loadLocale(tag);
  return templates;
}

/** Runs `work` with `msg()` answering in `locale`; the previous locale is back afterwards, even if `work` throws. */
export function renderInLocale<T>(locale: string | undefined, work: () => T): T {
  const previous = current;
  current = templatesFor(locale);
  try {
    return work();
  } finally {
    current = previous;
  }
}

/** Resolves once the translations for `locale` are loaded (at once when they need no download). */
export function localeReady(locale: string | undefined): Promise<void> {
  const tag = match(locale);
  return tag && tag in builtIn && !loaded.has(tag) ? loadLocale(tag) : Promise.resolve();
}
