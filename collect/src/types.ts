/** What the collector's users configure and read: its options, sink, problems and counts. */
import type { MeasuredRequest, RequestEvent } from '@ops-console/contract/request-event';

export type { MeasuredRequest, RequestEvent };

/** A store in the same process (the console server's telemetry store): the collector appends what it measured. */
export interface EventStore {
  append(events: RequestEvent[]): Promise<unknown>;
}

/** `ingestKey` may be read straight from the environment: a missing one is refused when the collector is made. */
export type Sink = { store: EventStore; accountId: string } | { url: string; ingestKey: string | undefined };

/** Something that went wrong sending events: each kind is warned about once unless you pass `onError`. */
export interface CollectorProblem {
  kind: 'unauthorized' | 'not-found' | 'refused' | 'rejected-events' | 'unreachable' | 'server-error' | 'queue-full' | 'dropped-at-close';
  message: string;
  /** The ingest API's status, when it answered. */
  status?: number;
  /** How many events the problem cost, when it cost some. */
  events?: number;
}

export interface CollectorOptions {
  /** Where events go: a store in this process, or `POST <url>/ingest/v1/requests` with an ingest key. */
  sink: Sink;
  /** Events kept while waiting to be sent (default 10,000); beyond it new events are dropped and counted. */
  maxQueue?: number;
  /** Bytes of events kept while waiting (default 32 MiB; their texts and a margin per event); beyond it new events are dropped and counted. */
  maxQueueBytes?: number;
  /** Events per batch (default 5,000: at a few thousand requests a second the timer, not the size, sends — fewer sends cost the host less at p99). */
  batchSize?: number;
  /** Bytes per batch (default 4 MiB, well below the server's 10 MB body limit). */
  maxBatchBytes?: number;
  /**
   * How long an event may wait for its batch (default 5,000 ms, as OpenTelemetry's batch span
   * processor). Each send costs the host about a millisecond of CPU whatever its size, so fewer,
   * larger batches cost it less per request; set 1,000 for a console that trails by a second.
   */
  flushIntervalMs?: number;
  /** How long one send may take in all, however slowly the sink answers (default 10,000 ms). */
  sendTimeoutMs?: number;
  /** Hears every problem; by default each kind is written once to `console.warn`. */
  onError?: (problem: CollectorProblem) => void;
  /** The clock (for tests). */
  now?: () => number;
}

export interface CollectorStats {
  /** Events handed to the sink and accepted. */
  sent: number;
  /** Events the ingest API answered but refused (listed as `rejected` in its 202). */
  rejected: number;
  /** Events recorded and neither sent nor dropped yet (waiting, or in the batch being sent). */
  queued: number;
  /** Events dropped because the queue was full (`maxQueue` events or `maxQueueBytes` waiting or being sent). */
  droppedQueueFull: number;
  /** Events given up on after the sink failed (not 429/503) or refused them. */
  droppedFailed: number;
  /** Events still waiting when `close()` reached its deadline. */
  droppedAtClose: number;
  /** Failed attempts to send a batch (each retried or dropped). */
  failedAttempts: number;
}

export interface Collector {
  record(request: MeasuredRequest): void;
  /** Sends everything queued now; resolves when done (or given up). */
  flush(): Promise<void>;
  stats(): CollectorStats;
  /** Stops recording, sends what waits (retrying while the sink is away) and resolves by `timeoutMs` (default 5,000) at the latest. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}
