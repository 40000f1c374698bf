/**
 * The language of the UI text. Every string a person reads goes through `msg()` of
 * `@lit/localize`, written in English; `lit-localize extract` lists them in `xliff/*.xlf` and
 * `lit-localize build` turns the translations into `generated/<locale>.ts`.
 *
 * Each element renders in its own locale (its `locale`, else the `<ops-console>` wrapper's, else
 * `<html lang>`), so two panels in two languages can share a page: `msg()` asks which templates
 * apply at the moment it is called, and the answer is those of the element rendering then
 * ({@link renderInLocale}).
 *
 * This `msg` is the library's own lookup (`runtimeMsg`) over those templates, not the global
 * one that `configureLocalization` installs: that one can be configured once per page, and a host
 * app sharing this copy of @lit/localize must stay free to configure it for its own text.
 */
import type { MsgFn, MsgOptions, LocaleModule, TemplateLike, TemplateMap } from '@lit/localize/internal/types.js';
import { runtimeMsg } from '@lit/localize/internal/runtime-msg.js';

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
/** The language those templates are in (a BCP 47 tag), for numbers and plurals inside sentences. */
let currentLanguage: string = SOURCE_LOCALE;

/**
 * Makes a string or template localizable: `msg('Retry')`, `msg(str\`${n} new\`)`. Answers in the
 * language of the element rendering now. `lit-localize extract` finds the calls by this type.
 */
export const msg: MsgFn = ((template: TemplateLike, options?: MsgOptions) => runtimeMsg(current, template, options)) as MsgFn;

/** The language `msg()` answers in now: the rendering element's, as a tag `Intl` accepts. */
export const renderingLanguage = (): string => currentLanguage;

/**
 * `count` with the message for its plural category in the rendering language (`Intl.PluralRules`):
 * `one` for a singular where the language has one (English and German 1; never in Japanese).
 */
export function plural<T>(count: number, forms: { one: () => T; other: () => T }): T {
  let rules = pluralRules.get(currentLanguage);
  if (!rules) pluralRules.set(currentLanguage, (rules = new Intl.PluralRules(currentLanguage)));
  return rules.select(count) === 'one' ? forms.one() : forms.other();
}
const pluralRules = new Map<string, Intl.PluralRules>();

/** `tag` if Intl accepts it (a host may register `de-informell`), else English. */
function intlTag(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? SOURCE_LOCALE;
  } catch {
    return SOURCE_LOCALE;
  }
}

/** `pt_BR`, `PT-br` → `pt-br`: one spelling per tag, however the host or the page writes it. */
const key = (tag: string) => tag.trim().toLowerCase().replace(/_/g, '-');

const isBuiltIn = (tag: string) => Object.hasOwn(builtIn, tag);
const exists = (tag: string) => isBuiltIn(tag) || registered.has(tag) || loaded.has(tag);

/** `zh-Hant-TW` → `['zh-hant-tw', 'zh-hant', 'zh']`: the full tag first, then ever shorter ones. */
function candidates(locale: string | undefined): string[] {
  if (!locale?.trim()) return [];
  const parts = key(locale).split('-');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('-')).filter(Boolean);
}

/** The locales that exist (built in, registered) and serve `locale`, most specific first. */
function matches(locale: string | undefined): string[] {
  return candidates(locale).filter(exists);
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
  merged.clear();
  if (isBuiltIn(tag) && !loaded.has(tag)) {
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
  merged.clear();
  for (const listener of listeners) listener();
}

/** Calls `onChange` whenever translations are loaded or registered. Returns the unsubscribe. */
export function onTranslationsChange(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/** Templates merged along a locale's chain, by its most specific tag; cleared when any arrive. */
const merged = new Map<string, TemplateMap>();

/**
 * The templates for `locale` and the language they are in: those of each locale that serves it,
 * the more specific over the more general (a host's `de-CH` corrections over the built-in `de`),
 * starting the download of built-in ones not here yet (the caller hears of their arrival
 * through {@link watchLocale}).
 */
function translationsFor(locale: string | undefined): { templates: TemplateMap | undefined; language: string } {
  const chain = matches(locale);
  for (const tag of chain) if (isBuiltIn(tag) && !loaded.has(tag)) void loadLocale(tag);
  const here = chain.filter((tag) => loaded.has(tag));
  if (!here.length) return { templates: undefined, language: SOURCE_LOCALE };
  let templates = merged.get(here[0]!);
  if (!templates) {
    templates = Object.assign({}, ...here.map((tag) => loaded.get(tag)).reverse()) as TemplateMap;
    merged.set(here[0]!, templates);
  }
  return { templates, language: intlTag(here[0]!) };
}

/** Runs `work` with `msg()` answering in `locale`; the previous locale is back afterwards, even if `work` throws. */
export function renderInLocale<T>(locale: string | undefined, work: () => T): T {
  const previous = [current, currentLanguage] as const;
  ({ templates: current, language: currentLanguage } = translationsFor(locale));
  try {
    return work();
  } finally {
    [current, currentLanguage] = previous;
  }
}

/** Resolves once the translations for `locale` are loaded (at once when they need no download). */
export function localeReady(locale: string | undefined): Promise<void> {
  return Promise.all(
    matches(locale)
      .filter((tag) => isBuiltIn(tag) && !loaded.has(tag))
      .map(loadLocale),
  ).then(() => undefined);
}
