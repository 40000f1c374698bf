/**
 * What a collector captures of a request when told to (`capture`), off by default: headers on
 * both sides, and bodies of textual types read as they pass, never buffered past
 * `maxBodyBytes`, and never read a second time: the host's body parser reads the stream as it
 * would without the collector. Whether a request keeps its bodies is decided once it is answered
 * (`sample`): errors and slow requests always, the rest at `rate`. Every request is still counted.
 */
import type { IncomingMessage } from 'node:http';
import { INGEST_LIMITS, TEXT_BODY } from '@ops-console/contract/ingest-limits';

export interface CaptureOptions {
  /** Headers kept on both sides: these names, or `true` for all of them; credentials are kept as `[masked]`. */
  headers?: readonly string[] | true;
  /** Keep the request's and the response's bodies (of the `contentTypes`), masked before they are sent. */
  bodies?: boolean;
  /** UTF-8 bytes of a body kept, at most (default 64 KB): a longer one is cut and sent with its whole size. */
  maxBodyBytes?: number;
  /** Content types whose bodies are kept, by prefix (`['application/json']`); default JSON, text, forms, XML, GraphQL and YAML. */
  contentTypes?: readonly string[];
}

export interface SampleOptions {
  /** The share of other requests that keep their bodies, from 0 to 1 (default 1). */
  rate: number;
  /** Requests that always keep them: answered with this class of status (`4xx` includes `5xx`), or slower than this. */
  always?: { status?: '5xx' | '4xx'; slowerThanMs?: number };
}

/** A body read as it passes: at most `max` bytes kept, every byte counted. */
export class BodyTap {
  /** Bytes as they came (copied: a stream may reuse its buffer), or text as the host wrote it (utf8). */
  readonly chunks: (Uint8Array | string)[] = [];
  kept = 0;
  size = 0;
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  /** Adds a chunk as written or read; `bytes`, its UTF-8 size when the caller has counted it already. */
  add(chunk: unknown, encoding?: unknown, bytes?: number): void {
    if (typeof chunk === 'string') {
      // Text the host wrote is kept as text: no encoding to bytes and back. Its size is counted in bytes.
      const utf8 = encoding === undefined || encoding === 'utf8' || encoding === 'utf-8';
      if (!utf8) {
        this.add(Buffer.from(chunk, encoding as BufferEncoding));
        return;
      }
      bytes ??= Buffer.byteLength(chunk);
      this.size += bytes;
      if (this.kept >= this.max) return;
      // A text longer than what is left is cut by characters, a little generously: bodies are cut to bytes later.
      this.chunks.push(bytes <= this.max - this.kept ? chunk : chunk.slice(0, this.max - this.kept));
      this.kept += Math.min(bytes, this.max - this.kept);
      return;
    }
    if (!(chunk instanceof Uint8Array)) return;
    this.size += chunk.byteLength;
    if (this.kept >= this.max) return;
    const part = chunk.byteLength <= this.max - this.kept ? chunk : chunk.subarray(0, this.max - this.kept);
    // A copy: the stream's own buffer may be reused once the chunk has been handled.
    this.chunks.push(Uint8Array.prototype.slice.call(part));
    this.kept += part.byteLength;
  }

  /** The body as the ingest API takes it, its text decoded (a character the cut split becomes U+FFFD, then dropped). */
  body(contentType: string): { contentType: string; size: number; text: string; truncated: boolean } {
    // Bytes are decoded together (a character may span two chunks); a host writes text or bytes, rarely both.
    const [only] = this.chunks;
    const text =
      this.chunks.length === 1 && only instanceof Uint8Array
        ? Buffer.from(only.buffer, only.byteOffset, only.byteLength).toString('utf8')
        : this.chunks.every((chunk) => typeof chunk === 'string')
          ? this.chunks.join('')
          : Buffer.concat(this.chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))).toString('utf8');
    const truncated = this.size > this.kept;
    return { contentType, size: this.size, text: truncated ? text.replace(/\ufffd$/, '') : text, truncated };
  }
}

const TAPPED = Symbol('ops-console.tap');
type Tapped = IncomingMessage & { [TAPPED]?: BodyTap };

/**
 * Taps a request stream's 'data' events, which Node emits however the stream is read (listeners,
 * pipes, `read()`, async iteration), without adding a listener: the stream stays paused until
 * the host reads it, and a body nobody reads is not captured.
 */
export function tapRequest(request: IncomingMessage, max: number): BodyTap {
  const tapped = request as Tapped;
  const existing = tapped[TAPPED];
  if (existing) return existing;
  const tap = new BodyTap(max);
  tapped[TAPPED] = tap;
  // The stream's own emit, called on it with its own `this` and arguments.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emit = request.emit;
  request.emit = function emitTapped(this: IncomingMessage, event: string | symbol, ...args: unknown[]) {
    if (event === 'data') tap.add(args[0]);
    return emit.call(this, event, ...args);
  } as IncomingMessage['emit'];
  return tap;
}

/** The tap on a request, if capture put one there. */
export const tapOf = (request: IncomingMessage): BodyTap | undefined => (request as Tapped)[TAPPED];

/** Whether a body of this type is kept. */
export function isCaptured(contentType: string | undefined, option: CaptureOptions): boolean {
  if (!contentType) return false;
  if (!option.contentTypes) return TEXT_BODY.test(contentType);
  const type = contentType.toLowerCase();
  return option.contentTypes.some((prefix) => type.startsWith(prefix.toLowerCase()));
}

export const maxBodyBytesOf = (option: CaptureOptions | undefined) => Math.max(0, option?.maxBodyBytes ?? INGEST_LIMITS.bodyText);

/** Whether a request answered so keeps its bodies: always for the `always` ones, else at `rate`. */
export function keepsBodies(sample: SampleOptions | undefined, status: number, durationMs: number): boolean {
  if (!sample) return true;
  const always = sample.always;
  if (always?.status && status >= (always.status === '5xx' ? 500 : 400)) return true;
  if (always?.slowerThanMs !== undefined && durationMs > always.slowerThanMs) return true;
  return Math.random() < sample.rate;
}
