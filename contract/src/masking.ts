/**
 * Secrets masked before anything is written: credential headers, fields whose names say they hold
 * a secret (in query strings and form bodies), card numbers (by their Luhn check digit) and the
 * config's patterns in any text. A masked value reads `[masked]`, so what is stored and answered
 * cannot give it back. The config adds names and patterns to the defaults; it cannot remove one.
 * Dependency-free: the collectors mask with it before sending, inside the host's API.
 */

/** What a masked value reads. */
export const MASKED = '[masked]';

/** Headers that always carry a credential. */
export const MASKED_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'] as const;

/**
 * Field names that hold a secret, compared without case, `_`, `-`, `.` or spaces: a name holding
 * one of the first (`client_secret`, `newPassword`, `x-api-key`) or ending in one of the second
 * (`X-Auth-Token`, `card_number`, `cvv`, `ssn`, `iban`; not `max_tokens`).
 */
export const MASKED_FIELDS = {
  holding: ['password', 'passwd', 'secret', 'apikey', 'authorization'],
  endingIn: ['token', 'card', 'cardnumber', 'cvc', 'cvv', 'ssn', 'iban'],
} as const;

/** What the config adds (`capture.mask`). */
export interface MaskOptions {
  /** More header names whose values are masked. */
  headers?: readonly string[] | undefined;
  /** More field names (compared as the defaults are) whose values are masked. */
  fields?: readonly string[] | undefined;
  /** Regular expressions (JavaScript syntax, matched without case): every match in any text is masked. */
  patterns?: readonly string[] | undefined;
}

export interface Masker {
  /** A header's value as it may be kept: `[masked]` for a credential header, else its text masked. */
  header(name: string, value: string): string;
  /** Header values of credential headers masked; names as sent. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string>;
  /** A path with its query string's secret fields masked, and card numbers and patterns in it. */
  path(path: string): string;
  /** Card numbers and the config's patterns masked in text. */
  text(text: string): string;
  /**
   * A body's text by its content type: JSON with each secret field's value masked at any depth
   * (and card numbers and patterns in its strings), a form as a query string, other text as text.
   * A body cut short is masked as far as it goes.
   */
  body(contentType: string | undefined, text: string): string;
  /** Whether a field of this name holds a secret. */
  isSecretField(name: string): boolean;
}

/** The longest field name remembered: V8 keeps shorter substrings as copies, longer ones as slices of their parent text. */
const SHORT_NAME = 12;

/** Where the JSON string starting at `start` (its opening quote) ends: the index of its closing quote, or -1 when the text is cut first. */
function stringEnd(body: string, start: number): number {
  for (let at = body.indexOf('"', start + 1); at !== -1; at = body.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (body.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** A key's name: its raw content, decoded only when it holds an escape (or as it is, when the escape is broken). */
function keyName(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Where the object or array starting at `start` ends: the index of its closing bracket, or -1 when the text is cut first. */
function containerEnd(body: string, start: number): number {
  let depth = 0;
  for (let at = start; at < body.length; at++) {
    const c = body.charCodeAt(at);
    if (c === 34) {
      at = stringEnd(body, at);
      if (at === -1) return -1;
    } else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return at;
  }
  return -1;
}

/** JSON's white space, skipped. */
function skipSpace(body: string, at: number): number {
  let c = body.charCodeAt(at);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = body.charCodeAt(++at);
  return at;
}

/** Where a bare value (a number or literal) starting at `at` ends. */
function literalEnd(body: string, at: number): number {
  let c = body.charCodeAt(at);
  while (at < body.length && c !== 44 && c !== 125 && c !== 93 && c !== 32 && c !== 10 && c !== 13 && c !== 9) c = body.charCodeAt(++at);
  return at;
}

const fieldKey = (name: string) => name.toLowerCase().replace(/[\s_.-]/g, '');

/** The fewest characters a card number takes. */
const SHORTEST_CARD = 13;

/** 13 to 19 digits, alone or in groups split by one space or dash: the shapes card numbers are written in. */
const CARD_SHAPE = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;

/** Whether a text may hold a card number anywhere (CARD_SHAPE without its state). */
const ANY_CARD = new RegExp(CARD_SHAPE.source);

/** Whether digits pass the Luhn check, as every card number does. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Refuses a pattern that is not a regular expression, by name, for the config's message. */
export function checkPattern(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'giu');
    return undefined;
  } catch (error) {
    return `"${pattern}" is not a regular expression: ${(error as Error).message}`;
  }
}

export function createMasker(options: MaskOptions = {}): Masker {
  const headerNames = new Set([...MASKED_HEADERS, ...(options.headers ?? []).map((h) => h.toLowerCase())]);
  const extraFields = new Set((options.fields ?? []).map(fieldKey));
  const patterns = (options.patterns ?? []).map((p) => new RegExp(p, 'giu'));
  /** Field names seen, and whether each is secret: a body repeats its names, and so do a host's requests. */
  const known = new Map<string, boolean>();
  const isSecretField = (name: string) => {
    let secret = known.get(name);
    if (secret === undefined) {
      const key = fieldKey(name);
      secret = extraFields.has(key) || MASKED_FIELDS.holding.some((word) => key.includes(word)) || MASKED_FIELDS.endingIn.some((word) => key.endsWith(word));
      // Only short names are kept: V8 may hold a longer one as a slice of its whole body.
      if (name.length <= SHORT_NAME) {
        if (known.size >= 10_000) known.clear();
        known.set(name, secret);
      }
    }
    return secret;
  };
  const text = (value: string) => {
    // Most values are shorter than a card number, and skip the search.
    let masked =
      value.length >= SHORTEST_CARD && /\d/.test(value) ? value.replace(CARD_SHAPE, (found) => (luhn(found.replace(/[ -]/g, '')) ? MASKED : found)) : value;
    for (const pattern of patterns) masked = masked.replace(pattern, MASKED);
    return masked;
  };
  /** `a=1&token=x` with each secret field's value masked; the separators and every other byte as sent. */
  const query = (q: string) =>
    q
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        if (equals === -1) return pair;
        let name = pair.slice(0, equals);
        try {
          name = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          // A name that is not percent-encoded text is compared as sent.
        }
        return isSecretField(name) ? `${pair.slice(0, equals)}=${MASKED}` : pair;
      })
      .join('&');
  /**
   * A JSON body with each secret field's value masked, string by string: the text between is
   * copied as it is (numbers stay, layout stays), and only the strings are looked at. A body cut
   * short is masked as far as it goes; nesting costs nothing (there is no stack).
   */
  const json = (body: string) => {
    let out = '';
    let copied = 0;
    const replace = (from: number, to: number, text: string) => {
      out += body.slice(copied, from) + text;
      copied = to;
    };
    // Which strings are searched: every one for the config's patterns, which may match a short one; for card numbers,
    // those long enough to hold one, and only when the body holds a card's shape at all (most hold none).
    const cardsAnywhere = ANY_CARD.test(body);
    const searched = (length: number) => patterns.length > 0 || (cardsAnywhere && length >= SHORTEST_CARD);
    for (let start = body.indexOf('"'); start !== -1;) {
      const end = stringEnd(body, start);
      if (end === -1) {
        // A last string cut short: a value, its text masked as text.
        replace(start, body.length, text(body.slice(start)));
        break;
      }
      const after = skipSpace(body, end + 1);
      if (body.charCodeAt(after) !== 58) {
        // A value (of a field that is not secret, or in an array): card numbers and patterns in it.
        if (searched(end - start - 1)) {
          const value = body.slice(start, end + 1);
          const masked = text(value);
          if (masked !== value) replace(start, end + 1, masked);
        }
        start = body.indexOf('"', end + 1);
        continue;
      }
      const valueAt = skipSpace(body, after + 1);
      const key = body.slice(start + 1, end);
      if (!isSecretField(keyName(key)) || valueAt >= body.length) {
        // A key is text too: an email or a card number may be one.
        const masked = searched(key.length) ? text(key) : key;
        if (masked !== key) replace(start + 1, end, masked);
        start = body.indexOf('"', after + 1);
        continue;
      }
      const first = body.charCodeAt(valueAt);
      // A secret name's value goes whole, an object or array too (`"api_keys": [ … ]`).
      const valueEnd = first === 34 ? stringEnd(body, valueAt) : first === 123 || first === 91 ? containerEnd(body, valueAt) : literalEnd(body, valueAt) - 1;
      replace(valueAt, valueEnd === -1 ? body.length : valueEnd + 1, `"${MASKED}"`);
      start = valueEnd === -1 ? -1 : body.indexOf('"', valueEnd + 1);
    }
    return out + body.slice(copied);
  };
  // A header whose name says it holds a secret (`x-auth-token`, `private-token`) goes whole, as the credential headers do.
  const header = (name: string, value: string) => (headerNames.has(name.toLowerCase()) || isSecretField(name) ? MASKED : text(value));
  return {
    header,
    headers: (headers) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, header(name, value)])),
    path(path) {
      const at = path.indexOf('?');
      if (at === -1) return text(path);
      const hash = path.indexOf('#', at);
      const end = hash === -1 ? path.length : hash;
      return text(`${path.slice(0, at + 1)}${query(path.slice(at + 1, end))}${path.slice(end)}`);
    },
    text,
    isSecretField,
    body(contentType, body) {
      const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
      if (type === 'application/x-www-form-urlencoded') return text(query(body));
      // Text that starts as JSON does, whatever its type says (NDJSON, JSON sequences, text/plain),
      // is masked field by field; JSON's numbers are left as they are (13 digits is also a time in ms).
      if (/^\s*[{[]/.test(body)) return json(body);
      return text(body);
    },
  };
}
