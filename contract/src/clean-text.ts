/**
 * The one rule for text from outside (ingest, OTLP, admin and console bodies): it is stored and
 * shown as well-formed text. A lone UTF-16 surrogate, a control character (C0 but tab, line feed
 * and carriage return; DEL; C1) and a bidirectional control (U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069, which could make a path read backwards) each become U+FFFD. The length stays
 * the same, so limits read the same before and after.
 */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export const cleanText = (value: string): string => value.toWellFormed().replace(UNSAFE, '\ufffd');

/** A JSON.parse reviver applying the rule to every string value. */
export const cleanStrings = (_key: string, value: unknown): unknown => (typeof value === 'string' ? cleanText(value) : value);

/**
 * Where JSON text may hold a string the rule changes: an unsafe character as it is, or an escape
 * that can spell one (`\u…`, `\b`, `\f`). Decoded UTF-8 is already well formed, so text without
 * either parses to clean strings as it is.
 */
const MAY_BE_UNSAFE = new RegExp(`\\\\[ubf]|${UNSAFE.source}`);

/** JSON.parse with every string value clean: the reviver (a few times slower) only for text that needs it. */
export const parseCleanJson = (text: string): unknown => (MAY_BE_UNSAFE.test(text) ? JSON.parse(text, cleanStrings) : JSON.parse(text));
