/**
 * The collector's events as the ingest API takes them: fitted within its limits, and cleaned as
 * it would clean them for a store in the same process. `columns.ts` writes them for the wire.
 */
import { HEADER_NAME, INGEST_LIMITS as LIMIT, INGEST_METHODS, OTHER_METHOD, fit, fittedHeaders } from '@ops-console/contract/ingest-limits';
import type { MeasuredRequest } from '@ops-console/contract/request-event';
import { cleanText } from '@ops-console/contract/clean-text';

const METHODS = new Set<string>(INGEST_METHODS);

const fitOptional = (value: string | null | undefined, max: number) => (value ? fit(value, max) : undefined);

/** Text as the console server stores it (contract/src/clean-text.ts): for a store in this process, which no ingest API cleans. */
export function cleaned(e: MeasuredRequest): MeasuredRequest {
  const clean = (value: string | null | undefined) => (value ? cleanText(value) : value);
  return {
    ...e,
    route: cleanText(e.route),
    path: cleanText(e.path),
    apiVersion: clean(e.apiVersion),
    keyId: clean(e.keyId),
    customerId: clean(e.customerId),
    actor: e.actor && { id: cleanText(e.actor.id), name: cleanText(e.actor.name) },
    headers: e.headers && Object.fromEntries(Object.entries(e.headers).map(([name, value]) => [name, cleanText(value)])),
  };
}

/** The request as the ingest API accepts it: every value within its limits, nothing a server would refuse. */
export function fitted(e: MeasuredRequest): MeasuredRequest {
  // Nearly every request already fits: it is then taken as it is, with no copy made on the host's time.
  if (fits(e)) return e;
  const method = e.method.toUpperCase();
  return {
    ts: Math.round(e.ts),
    method: METHODS.has(method) ? method : OTHER_METHOD,
    route: fit(e.route.startsWith('/') ? e.route.replace(/\s/g, '_') : `/${e.route.replace(/\s/g, '_')}`, LIMIT.route),
    path: fit(e.path.startsWith('/') ? e.path : `/${e.path}`, LIMIT.path),
    status: e.status,
    durationMs: Number.isFinite(e.durationMs) ? Math.min(Math.max(e.durationMs, 0), 86_400_000) : 0,
    apiVersion: fitOptional(e.apiVersion, LIMIT.apiVersion),
    keyId: fitOptional(e.keyId, LIMIT.id),
    customerId: fitOptional(e.customerId, LIMIT.id),
    actor: e.actor?.id ? { id: fit(e.actor.id, LIMIT.id), name: fit(e.actor.name || e.actor.id, LIMIT.name) } : undefined,
    bytes: Number.isInteger(e.bytes) && e.bytes! >= 0 && e.bytes! <= 2 ** 40 ? e.bytes : undefined,
    headers: e.headers ? fittedHeaders(e.headers) : undefined,
    responseHeaders: e.responseHeaders ? fittedHeaders(e.responseHeaders) : undefined,
    requestBody: e.requestBody && fittedBody(e.requestBody),
    responseBody: e.responseBody && fittedBody(e.responseBody),
  };
}

/** A captured body (already cut to `capture.maxBodyBytes`) with its content type within the limit. */
const fittedBody = (body: NonNullable<MeasuredRequest['requestBody']>) => ({ ...body, contentType: fit(body.contentType, LIMIT.contentType) });

const within = (value: string | null | undefined, max: number) =>
  value === undefined || value === null || (typeof value === 'string' && value !== '' && value.length <= max);

/** The route of the last request that fitted: most requests have the same route as the one before. */
let lastFittingRoute = '';

/** Whether a request is within every limit as it is (the common case, checked without copying). */
function fits(e: MeasuredRequest): boolean {
  if (!METHODS.has(e.method) || !Number.isInteger(e.ts) || !(e.durationMs >= 0 && e.durationMs <= 86_400_000)) return false;
  if (e.route !== lastFittingRoute) {
    if (typeof e.route !== 'string' || e.route.length > LIMIT.route || e.route[0] !== '/' || /\s/.test(e.route)) return false;
    lastFittingRoute = e.route;
  }
  if (typeof e.path !== 'string' || e.path.length > LIMIT.path || e.path[0] !== '/') return false;
  if (!within(e.apiVersion, LIMIT.apiVersion) || !within(e.keyId, LIMIT.id) || !within(e.customerId, LIMIT.id)) return false;
  if (e.actor && !(within(e.actor.id, LIMIT.id) && e.actor.id && within(e.actor.name, LIMIT.name) && e.actor.name)) return false;
  if (e.bytes !== undefined && e.bytes !== null && !(Number.isInteger(e.bytes) && e.bytes >= 0 && e.bytes <= 2 ** 40)) return false;
  if (e.headers && !headersFit(e.headers)) return false;
  if (e.responseHeaders && !headersFit(e.responseHeaders)) return false;
  return bodyFits(e.requestBody) && bodyFits(e.responseBody);
}

function headersFit(headers: Readonly<Record<string, string>>): boolean {
  let count = 0;
  for (const name in headers) {
    const value = headers[name]!;
    if (
      ++count > LIMIT.headers ||
      typeof value !== 'string' ||
      !value ||
      value.length > LIMIT.headerValue ||
      name.length > LIMIT.headerName ||
      !HEADER_NAME.test(name)
    )
      return false;
  }
  return true;
}

/** A captured body is already cut to `capture.maxBodyBytes`: only its content type may be too long. */
const bodyFits = (body: MeasuredRequest['requestBody']) => !body || (typeof body.contentType === 'string' && body.contentType.length <= LIMIT.contentType);
