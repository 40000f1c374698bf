// The requests a store keeps, each with the headers kept apart from it (request_payloads) put back: what a collector's or sender's test compares.
import type { RequestQuery, StoredRequest, TelemetryStore } from '../src/store/types.ts';

export type KeptRequest = Omit<StoredRequest, 'hasPayload'>;

/** The request log's rows as the store answers them, with their kept headers. */
export async function keptRequests(telemetry: TelemetryStore, accountId: string, query: RequestQuery): Promise<KeptRequest[]> {
  const rows = await telemetry.requests(accountId, query);
  return Promise.all(
    rows.map(async ({ hasPayload, ...request }) => ({
      ...request,
      headers: hasPayload ? ((await telemetry.payload(accountId, request))?.headers ?? null) : null,
    })),
  );
}
