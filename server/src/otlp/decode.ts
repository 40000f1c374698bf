/**
 * Reads an OTLP/HTTP traces export (protobuf or JSON, unpacked by ../body/read.ts) into one
 * plain shape, and writes the answers in the encoding the exporter used. Protobuf is decoded by
 * protobufjs from the official OTLP .proto files (vendored under ./proto, Apache-2.0).
 */
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { parseCleanJson } from '@ops-console/contract/clean-text';

const PROTO_DIR = fileURLToPath(new URL('./proto/', import.meta.url));

const root = new protobuf.Root();
root.resolvePath = (_origin, target) => (target.startsWith(PROTO_DIR) ? target : PROTO_DIR + target);
root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto');
/** The OTLP ExportTraceServiceRequest message type (also used by the bench to write exports). */
export const ExportRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const ExportResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
/** google.rpc.Status, the body of an OTLP error answer (its `details` left out). */
const Status = new protobuf.Type('Status').add(new protobuf.Field('code', 1, 'int32')).add(new protobuf.Field('message', 2, 'string'));
new protobuf.Root().define('google.rpc').add(Status);

export type Encoding = 'json' | 'protobuf';

/** The encoding of a request's content type, or undefined when OTLP/HTTP has none for it. */
export function encodingOf(contentType: string | undefined): Encoding | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' ? 'json' : type === 'application/x-protobuf' ? 'protobuf' : undefined;
}

/**
 * Strings are read as proto3 asks, except that an invalid UTF-8 sequence becomes U+FFFD instead
 * of failing the whole export: JSON exports are read the same way, and one span's bad text must
 * cost only that span.
 */
class LooseReader extends protobuf.Reader {
  override stringVerify(): string {
    return this.string();
  }
}

// Field numbers of ExportTraceServiceRequest.resource_spans, ResourceSpans.scope_spans and ScopeSpans.spans.
const NESTED_SPANS = [1, 2, 2] as const;
const LENGTH_DELIMITED = 2;

/**
 * Counts the spans of a protobuf export by walking only the three levels that hold them, before
 * anything is decoded; it stops at the first span over `max`. Throws on a truncated message.
 */
function countSpans(bytes: Uint8Array, max: number): number {
  const reader = protobuf.Reader.create(bytes);
  let spans = 0;
  const walk = (end: number, level: number): void => {
    while (reader.pos < end && spans <= max) {
      const tag = reader.uint32();
      if (tag >>> 3 === NESTED_SPANS[level] && (tag & 7) === LENGTH_DELIMITED) {
        const length = reader.uint32();
        if (level === NESTED_SPANS.length - 1) {
          spans++;
          reader.skip(length);
        } else walk(reader.pos + length, level + 1);
      } else reader.skipType(tag & 7);
    }
  };
  walk(bytes.length, 0);
  return spans;
}

/** Counts the spans of a JSON export, stopping at the first over `max`. */
function countJsonSpans(request: unknown, max: number): number {
  let spans = 0;
  const list = (value: unknown, field: string): unknown[] => {
    const inner = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
    return Array.isArray(inner) ? inner : [];
  };
  for (const resource of list(request, 'resourceSpans'))
    for (const scope of list(resource, 'scopeSpans')) {
      spans += list(scope, 'spans').length;
      if (spans > max) return spans;
    }
  return spans;
}

const overSpans = (max: number) => ({ tooMany: `Send at most ${max.toLocaleString('en-US')} spans per export; this one has more.` });

/**
 * The export request (already unpacked) as plain data (field names in lowerCamelCase, 64-bit
 * numbers as strings), the reason it cannot be read, or `tooMany` when it has over `maxSpans`
 * spans: counted before the spans are decoded.
 */
export function decodeExport(bytes: Uint8Array, encoding: Encoding, maxSpans: number): { request: unknown } | { error: string } | { tooMany: string } {
  if (encoding === 'json') {
    let request: unknown;
    try {
      request = parseCleanJson(new TextDecoder('utf-8').decode(bytes));
    } catch {
      return { error: 'The body is not JSON (Content-Type: application/json).' };
    }
    return countJsonSpans(request, maxSpans) > maxSpans ? overSpans(maxSpans) : { request };
  }
  try {
    if (countSpans(bytes, maxSpans) > maxSpans) return overSpans(maxSpans);
    const message = ExportRequest.decode(new LooseReader(bytes));
    return { request: ExportRequest.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false, arrays: true }) };
  } catch (error) {
    return { error: `The body is not an OTLP ExportTraceServiceRequest (protobuf): ${error instanceof Error ? error.message : 'unreadable'}.` };
  }
}

/** The ExportTraceServiceResponse: a partial success when spans were rejected, or a warning to pass on. */
export function encodeResponse(encoding: Encoding, partialSuccess?: { rejectedSpans: number; errorMessage: string }): Uint8Array | string {
  const response = partialSuccess ? { partialSuccess } : {};
  if (encoding === 'json') return JSON.stringify(response);
  return ExportResponse.encode(ExportResponse.fromObject(response)).finish();
}

/** An OTLP error answer: a google.rpc.Status with its message. */
export function encodeStatus(encoding: Encoding, code: number, message: string): Uint8Array | string {
  if (encoding === 'json') return JSON.stringify({ code, message });
  return Status.encode(Status.fromObject({ code, message })).finish();
}
