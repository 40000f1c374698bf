/**
 * The words of kept bodies, written beside them so that a search reads a few dozen bytes a row
 * instead of every body: the distinct words of both bodies, lower-cased, each between spaces
 * (` ord_42 upstream_timeout `). A word is a run of letters, digits, marks and underscores, as
 * `\w` reads it in any script, so a searched run of them is in a body exactly when it is in one
 * of its words: it is found by the words alone. A searched word with separators
 * (`ana@example.com`) finds its candidates by its runs and is checked against the bodies.
 */
import type { RequestPayload } from './types.ts';

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

/**
 * Lower case one character to one, as the SQL engines fold it: JavaScript's own writes İ as i
 * and a dot, and Σ at the end of a word as ς, so `İZMİR` would not hold `izmir`, nor `ΚΩΣΤΑΣ`
 * its own `ΚΩΣ`.
 */
const folded = (text: string) =>
  text
    .toLowerCase()
    .replace(/i\u0307/g, 'i')
    .replace(/ς/g, 'σ');

/** The words of a text, folded to lower case, in the order first met. */
export const wordsIn = (text: string): string[] => [...new Set(folded(text).match(WORD) ?? [])];

/** The `words` column of a payload: the distinct words of both bodies' kept text, each between spaces. */
export function searchWordsOf(payload: RequestPayload): string {
  const words = new Set([...wordsIn(payload.requestBody?.text ?? ''), ...wordsIn(payload.responseBody?.text ?? '')]);
  return words.size ? ` ${[...words].join(' ')} ` : ' ';
}

/** How a searched word is found: the runs a body's words must hold, and whether they alone prove the body holds it. */
export function searchPlan(searched: string): { words: string[]; exact: boolean } {
  const words = wordsIn(searched);
  return { words, exact: words.length === 1 && words[0] === folded(searched) };
}
