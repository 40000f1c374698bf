/**
 * What the server and the collectors keep of a request's headers and bodies: masked (./masking.ts), and each body's
 * text cut to `capture.maxBodyBytes` UTF-8 bytes with `truncated` and its real size, never
 * refused. Only textual types keep their text: an image's bytes say nothing a person reads.
 */
import { INGEST_LIMITS, TEXT_BODY } from './ingest-limits.ts';
import type { Masker } from './masking.ts';

/** A body as it is kept: masked, its text cut to `capture.maxBodyBytes` (`truncated`), `size` its whole size. */
export interface CapturedBody {
  contentType: string;
  size: number;
  truncated: boolean;
  /** The body's text, masked; null for types that are not text. */
  text: string | null;
}

/** A body as the ingest API takes it. */
export interface BodyInput {
  contentType: string;
  size: number;
  text?: string | null | undefined;
  truncated?: boolean | undefined;
}

/** Characters past the cut that are masked with the rest, so a card number or secret the cut splits is still seen whole. */
export const MASK_OVERLAP = 256;
/** The characters before a cut that may hold the start of a secret the cut split: a card number with its spaces is 23. */
const CUT_MARGIN = 64;

/** The first `maxBytes` UTF-8 bytes of text, never splitting a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  // Each UTF-16 unit takes at most 3 bytes: a text this short fits whatever it holds.
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
    // A lone surrogate is cut as the U+FFFD it is encoded as.
    if (bytes + size > maxBytes) return text.slice(0, i).toWellFormed();
    bytes += size;
    if (pair) i++;
  }
  return text;
}

/**
 * What two maskings agree on from the start: the text masked whole, and masked without the part
 * next to the cut. A secret that spans where the shorter one ends is masked in the first and not
 * (or not alike) in the second, so what is kept stops before it.
 */
function agreeing(whole: string, shorter: string): string {
  const max = Math.min(whole.length, shorter.length);
  let same = 0;
  while (same < max && whole.charCodeAt(same) === shorter.charCodeAt(same)) same++;
  return whole.slice(0, same).toWellFormed();
}

/** UTF-8 bytes of a text, counted without encoding it (a lone surrogate as the 3 bytes of U+FFFD it is encoded as); in browsers and collectors too, where there is no Buffer. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit <= 0xdbff && unit >= 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: two units, four bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** A body as it is kept: its text masked and cut, `null` text for types that are not text. */
export function keptBody(body: BodyInput, mask: Masker, maxBytes: number): CapturedBody {
  const contentType = body.contentType.trim();
  const sent = body.text;
  if (typeof sent !== 'string' || !(TEXT_BODY.test(contentType) || contentType === '')) return { contentType, size: body.size, truncated: false, text: null };
  const sentBytes = utf8Length(sent);
  // Masked with a little past the cut, then cut: what is kept never ends in half a secret.
  const window = sent.length > maxBytes + MASK_OVERLAP ? sent.slice(0, maxBytes + MASK_OVERLAP).toWellFormed() : sent;
  const masked = mask.body(contentType, window);
  // Where the text we have ends before the body does (cut here, or by the sender), its last
  // characters are next to the cut and may be part of a secret the masker could not see whole:
  // they are never kept, even when masking an earlier secret made the rest short enough.
  // (A sender's `size` alone says nothing of where its text ends: only `truncated` does.)
  const cutEdge = window !== sent || body.truncated === true;
  const usable = cutEdge ? agreeing(masked, mask.body(contentType, window.slice(0, Math.max(0, window.length - CUT_MARGIN)).toWellFormed())) : masked;
  const text = cutToBytes(usable, maxBytes);
  const truncated = cutEdge || text !== masked;
  return { contentType, size: Math.max(body.size, sentBytes), truncated, text };
}

/** What a request carries that is kept apart from its figures. */
interface WithPayload {
  headers?: Record<string, string> | null | undefined;
  responseHeaders?: Record<string, string> | null | undefined;
  requestBody?: BodyInput | null | undefined;
  responseBody?: BodyInput | null | undefined;
}

/** A request with its headers masked and its bodies as they are kept. */
export function keptPayload<E extends WithPayload>(
  event: E,
  mask: Masker,
  maxBytes = INGEST_LIMITS.bodyText,
): E & { requestBody?: CapturedBody | null; responseBody?: CapturedBody | null } {
  const kept: E & { requestBody?: CapturedBody | null; responseBody?: CapturedBody | null } = { ...event, requestBody: undefined, responseBody: undefined };
  if (event.headers) kept.headers = mask.headers(event.headers);
  if (event.responseHeaders) kept.responseHeaders = mask.headers(event.responseHeaders);
  if (event.requestBody) kept.requestBody = keptBody(event.requestBody, mask, maxBytes);
  else delete kept.requestBody;
  if (event.responseBody) kept.responseBody = keptBody(event.responseBody, mask, maxBytes);
  else delete kept.responseBody;
  return kept;
}
