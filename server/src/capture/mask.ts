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

/**
 * JSON's tokens, one after another: white space, a string (its end may be cut off), a punctuator,
 * or anything else up to the next of those (numbers, literals, and what is not JSON).
 */
const JSON_TOKEN = /\s+|"(?:[^"\\]|\\.)*(?:"|\\?$)|[{}[\],:]|[^\s{}[\],:"]+/gy;

/** A JSON string token's text, or its raw content when it does not read as one (cut off, bad escapes). */
function decodeJsonString(token: string): string {
  try {
    return JSON.parse(token.endsWith('"') && token.length > 1 ? token : `${token}"`) as string;
  } catch {
    return token.slice(1, token.endsWith('"') ? -1 : undefined);
  }
}

const fieldKey = (name: string) => name.toLowerCase().replace(/[\s_.-]/g, '');

/** 13 to 19 digits, alone or in groups split by one space or dash: the shapes card numbers are written in. */
const CARD_SHAPE = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;

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
  const isSecretField = (name: string) => {
    const key = fieldKey(name);
    return extraFields.has(key) || MASKED_FIELDS.holding.some((word) => key.includes(word)) || MASKED_FIELDS.endingIn.some((word) => key.endsWith(word));
  };
  const text = (value: string) => {
    let masked = /\d/.test(value) ? value.replace(CARD_SHAPE, (found) => (luhn(found.replace(/[ -]/g, '')) ? MASKED : found)) : value;
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
  const json = (body: string) => {
    let out = '';
    /** A string just read that may be a key; the key whose value comes next. */
    let pending: string | undefined;
    let key: string | undefined;
    JSON_TOKEN.lastIndex = 0;
    // Every character starts one of the tokens, so they cover the whole body.
    for (let match = JSON_TOKEN.exec(body); match; match = JSON_TOKEN.exec(body)) {
      const token = match[0];
      const first = token.charCodeAt(0);
      if (/^\s/.test(token)) {
        out += token;
        continue;
      }
      if (token === ':') {
        key = pending;
        pending = undefined;
        out += token;
        continue;
      }
      const secret = key !== undefined && isSecretField(key) && token !== '{' && token !== '[';
      pending = first === 34 ? decodeJsonString(token) : undefined;
      key = undefined;
      out += secret ? `"${MASKED}"` : first === 34 ? text(token) : token;
    }
    return out;
  };
  const header = (name: string, value: string) => (headerNames.has(name.toLowerCase()) ? MASKED : text(value));
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
      // JSON's numbers are left as they are (13 digits is also a time in ms); text that is no JSON object or array is text.
      if ((type === 'application/json' || type.endsWith('+json')) && /^\s*[{[]/.test(body)) return json(body);
      if (type === 'application/x-www-form-urlencoded') return text(query(body));
      return text(body);
    },
  };
}
