/**
 * Reads an OTLP/HTTP traces export (protobuf or JSON, optionally gzip-compressed) into one
 * plain shape, and writes the answers in the encoding the exporter used. Protobuf is decoded by
 * protobufjs from the official OTLP .proto files (vendored under ./proto, Apache-2.0).
 */
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { cleanStrings } from '../text.ts';

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

/** The export request as plain data (field names in lowerCamelCase, 64-bit numbers as strings), or the reason it cannot be read. */
export function decodeExport(
  body: Uint8Array,
  encoding: Encoding,
  contentEncoding: string | undefined,
  maxBytes: number,
): { request: unknown } | { error: string } {
  let bytes = body;
  const compression = (contentEncoding ?? '').trim().toLowerCase();
  if (compression === 'gzip') {
    try {
      bytes = gunzipSync(body, { maxOutputLength: maxBytes });
    } catch {
      return { error: `The body is not gzip data, or it is larger than ${maxBytes.toLocaleString('en-US')} bytes unpacked.` };
    }
  } else if (compression && compression !== 'identity') {
    return { error: `Content-Encoding "${compression}" is not supported; send gzip or none.` };
  }
  if (encoding === 'json') {
    try {
      return { request: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes), cleanStrings) as unknown };
    } catch {
      return { error: 'The body is not JSON (Content-Type: application/json).' };
    }
  }
  try {
    const message = ExportRequest.decode(bytes);
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
