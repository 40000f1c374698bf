package opsconsole

import (
	"net/http"
	"time"
)

// Options configure a Collector: where it sends, and how much it keeps while waiting.
type Options struct {
	// The console server's base URL (`https://ops.example.com`), or its ingest URL itself.
	URL string
	// The ingest key the console server gave this API (sent as `Authorization: Bearer …`).
	IngestKey string
	// How long an event may wait for its batch (default 5s); full batches go at once.
	FlushInterval time.Duration
	// Events kept while waiting to be sent (default 10,000); beyond, new events are dropped and counted.
	MaxQueue int
	// Bytes of events kept while waiting (default 32 MiB); beyond, new events are dropped and counted.
	MaxQueueBytes int
	// Events per batch (default 5,000, at most 10,000).
	MaxBatch int
	// Bytes per batch (default 4 MiB, at most 10 MiB).
	MaxBatchBytes int
	// How long one send may take in all (default 10s).
	SendTimeout time.Duration
	// How long Close may take when its context has no deadline (default 5s).
	CloseTimeout time.Duration
	// Hears every problem; by default each kind is logged once with the standard logger.
	OnError func(Problem)
	// The client batches are sent with (default: one of its own, two kept-alive connections).
	HTTPClient *http.Client
}
