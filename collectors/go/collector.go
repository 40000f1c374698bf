// Package opsconsole is the Ops Console collector for Go APIs: net/http middleware that measures
// each request (method, route template, path, status, duration, bytes, API version, caller) and
// sends batches to the console server's ingest API (`POST /ingest/v1/requests`). It never blocks
// or fails the host's requests: when the queue is full or the server is away, events are dropped
// and counted, Stats says so, and OnError hears it. Standard library only.
//
// It mirrors the Node reference collector (collect/src in the Ops Console repository): the same
// column form, the same answers to the ingest API's statuses, the same masking.
package opsconsole

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Collector queues measured requests and sends them in batches. Safe for concurrent use.
type Collector struct {
	ingestURL     string
	ingestKey     string
	client        *http.Client
	interval      time.Duration
	maxQueue      int
	maxQueueBytes int
	batchSize     int
	maxBatchBytes int
	sendTimeout   time.Duration
	closeTimeout  time.Duration
	tell          func(Problem)

	mu          sync.Mutex
	open        *batch
	ready       []*batch
	queued      int
	queuedBytes int
	stats       Stats
	closed      bool
	full        bool

	wake      chan struct{}
	flushes   chan chan struct{}
	closing   chan context.Context
	done      chan struct{}
	runCtx    context.Context
	cancelRun context.CancelFunc

	// Event arrays of batches written, cleared, for new batches (at most maxFreeChunks).
	freeChunks [][]Event

	// Owned by the sending goroutine.
	scratch     columnScratch
	spareEvents []*Event
	retryAt     time.Time
	backoff     time.Duration
	serverAsked time.Duration
}

var ingestPath = regexp.MustCompile(`/ingest/v1/requests/?$`)

// IngestURL is the ingest URL of a console server's base URL (or the ingest URL itself).
func IngestURL(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("the collector's URL must be an http(s) URL, not %q", base)
	}
	if !ingestPath.MatchString(u.Path) {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/ingest/v1/requests"
		u.RawPath = ""
	}
	return u.String(), nil
}

func isCredential(value string) bool {
	v := strings.TrimSpace(value)
	return v != "" && v != "undefined" && v != "null"
}

// New makes a collector and starts its sending goroutine; Close stops it.
func New(options Options) (*Collector, error) {
	ingestURL, err := IngestURL(options.URL)
	if err != nil {
		return nil, err
	}
	if !isCredential(options.IngestKey) {
		return nil, fmt.Errorf("the collector's IngestKey is missing (it is %q): pass the key the console server gave this API", options.IngestKey)
	}
	c := &Collector{
		ingestURL:     ingestURL,
		ingestKey:     options.IngestKey,
		client:        options.HTTPClient,
		interval:      orDuration(options.FlushInterval, 5*time.Second),
		maxQueue:      orInt(options.MaxQueue, 10_000),
		maxQueueBytes: orInt(options.MaxQueueBytes, 32*1024*1024),
		batchSize:     minInt(orInt(options.MaxBatch, 5_000), limitMaxBatch),
		maxBatchBytes: minInt(orInt(options.MaxBatchBytes, 4*1024*1024), limitBodyBytes),
		sendTimeout:   orDuration(options.SendTimeout, 10*time.Second),
		closeTimeout:  orDuration(options.CloseTimeout, 5*time.Second),
		tell:          problemTeller(options.OnError),
		wake:          make(chan struct{}, 1),
		flushes:       make(chan chan struct{}),
		closing:       make(chan context.Context, 1),
		done:          make(chan struct{}),
	}
	if c.client == nil {
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.MaxIdleConnsPerHost = 2
		transport.MaxConnsPerHost = 2
		c.client = &http.Client{Transport: transport}
	}
	c.runCtx, c.cancelRun = context.WithCancel(context.Background())
	go c.run()
	return c, nil
}

func orInt(v, fallback int) int {
	if v > 0 {
		return v
	}
	return fallback
}

func orDuration(v, fallback time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return fallback
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}
