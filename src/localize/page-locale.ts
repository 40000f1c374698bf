/** The page's side of the UI language: `<html lang>`, and telling elements when it or the translations change. */
import { onTranslationsChange } from './localize.ts';

const watchers = new Set<() => void>();
let langObserver: MutationObserver | undefined;

/** The page's language, from `<html lang>`, when there is one. */
export function pageLocale(): string | undefined {
  return (typeof document !== 'undefined' && document.documentElement.lang.trim()) || undefined;
}

/**
 * Calls `onChange` whenever what a locale shows may have changed: translations loaded or
 * registered, `<html lang>` edited (an app switching language). Returns the unsubscribe.
 */
export function watchLocale(onChange: () => void): () => void {
  watchers.add(onChange);
  if (!langObserver && typeof MutationObserver !== 'undefined' && typeof document !== 'undefined') {
    langObserver = new MutationObserver(() => watchers.forEach((watcher) => watcher()));
    langObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }
  const stop = onTranslationsChange(onChange);
  return () => {
    watchers.delete(onChange);
    stop();
  };
}
