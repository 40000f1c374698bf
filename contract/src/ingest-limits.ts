/**
 * The ingest API's limits, read by both sides: the server checks events against them, and the
 * collector fits what it measured into them before sending, so no measured request is refused.
 */
export const INGEST_LIMITS = {
  /** Route template and concrete path, in UTF-16 code units. */
  route: 512,
  path: 2048,
  apiVersion: 64,
  /** Key, customer and actor ids. */
  id: 128,
  /** An actor's name. */
  name: 200,
  headerName: 64,
  headerValue: 1024,
  /** Kept headers per request, and per response. */
  headers: 32,
  /**
   * UTF-8 bytes of one captured body's text kept by default (`capture.maxBodyBytes`): a longer
   * text is cut there and kept with `truncated: true` and its real `size`, never refused.
   */
  bodyText: 64 * 1024,
  /** The most `capture.maxBodyBytes` may be set to. */
  bodyTextMax: 1024 * 1024,
  /** A body's content type, in characters. */
  contentType: 256,
  /** Bytes of one ingest or OTLP body, and events (or server spans) in one batch: the server's defaults. */
  maxBodyBytes: 10 * 1024 * 1024,
  maxBatch: 10_000,
} as const;

/** The methods the ingest API keeps as they are. */
export const INGEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'OTHER'] as const;

/** What the collector records a request with any other method (PROPFIND, TRACE, …) as. */
export const OTHER_METHOD = 'OTHER';

/** Ends a value the collector cut to fit a limit. */
export const TRUNCATED = '…';

/** A lower-case HTTP header name (an RFC 9110 token). */
export const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The content types whose bodies are kept as text (JSON, text, forms, XML, GraphQL); other bodies
 * keep only their type and size.
 */
export const TEXT_BODY = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|x-www-form-urlencoded|graphql|x-ndjson|javascript|yaml|x-yaml)\b)/i;

/**
 * `value` cut to `max` UTF-16 units, ending in `…` when cut (a surrogate pair split by the cut
 * becomes U+FFFD). Anything but text (a host's hook may hand it over) throws: its request is left out.
 */
export function fit(value: string, max: number): string {
  if (typeof value !== 'string') throw new TypeError(`expected text, not ${typeof value}`);
  return value.length <= max ? value : value.slice(0, max - 1).toWellFormed() + TRUNCATED;
}

/** The headers an event may keep: valid lower-case names, at most `INGEST_LIMITS.headers`, each value fitted; the others left out. */
export function fittedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> | undefined {
  let kept: Record<string, string> | undefined;
  let count = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (!value || name.length > INGEST_LIMITS.headerName || !HEADER_NAME.test(name)) continue;
    (kept ??= {})[name] = fit(value, INGEST_LIMITS.headerValue);
    if (++count === INGEST_LIMITS.headers) break;
  }
  return kept;
}
