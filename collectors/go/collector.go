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
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	mrand "math/rand"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// MaxBackoff is the longest wait between attempts, whatever a Retry-After asks.
	MaxBackoff = 30 * time.Second
	// MaxFailures is the server errors (5xx but 503) after which a batch is dropped.
	MaxFailures = 5
	// maxAnswerBytes is the most of an ingest answer read.
	maxAnswerBytes = 1024 * 1024
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

// Problem kinds, as the Node collector names them.
const (
	ProblemUnauthorized   = "unauthorized"
	ProblemNotFound       = "not-found"
	ProblemRefused        = "refused"
	ProblemRejectedEvents = "rejected-events"
	ProblemUnreachable    = "unreachable"
	ProblemServerError    = "server-error"
	ProblemQueueFull      = "queue-full"
	ProblemDroppedAtClose = "dropped-at-close"
)

// Problem is something that went wrong sending events.
type Problem struct {
	Kind    string
	Message string
	// The ingest API's status, when it answered (else 0).
	Status int
	// How many events the problem cost, when it cost some.
	Events int
}

func (p Problem) Error() string { return p.Message }

// Stats are the collector's counts, as the Node collector's stats().
type Stats struct {
	// Events handed to the server and accepted.
	Sent int64
	// Events the ingest API answered but refused (listed as rejected in its 202).
	Rejected int64
	// Events recorded and neither sent nor dropped yet (waiting, or in the batch being sent).
	Queued int64
	// Events dropped because the queue was full.
	DroppedQueueFull int64
	// Events given up on after the server failed (not 429/503) or refused them.
	DroppedFailed int64
	// Events still waiting when Close reached its deadline.
	DroppedAtClose int64
	// Failed attempts to send a batch (each retried or dropped).
	FailedAttempts int64
}

// eventChunk is how many events a batch keeps in one array: a batch grows without copying its events.
const eventChunk = 256

// maxFreeChunks is how many event arrays are kept for reuse once their batch is written.
const maxFreeChunks = 64

type batch struct {
	chunks [][]Event
	// The events in order, made when the batch is first written (and split).
	events []*Event
	count  int
	bytes  int
	// Sent with every attempt of this batch, so the server keeps it once.
	key      string
	failures int
	// The batch as sent: written at its first attempt, the same bytes at every retry.
	body []byte
}

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

// problemTeller tells OnError of each problem, or logs each kind once; a hook that panics does not break the collector.
func problemTeller(onError func(Problem)) func(Problem) {
	if onError == nil {
		var mu sync.Mutex
		warned := map[string]bool{}
		onError = func(p Problem) {
			mu.Lock()
			defer mu.Unlock()
			if warned[p.Kind] {
				return
			}
			warned[p.Kind] = true
			log.Printf("[ops-console collector] %s (said once; pass OnError to hear each time)", p.Message)
		}
	}
	return func(p Problem) {
		defer func() { _ = recover() }()
		onError(p)
	}
}

// Record queues a measured request; it never blocks and never panics. The middleware calls it;
// call it yourself for requests measured some other way.
func (c *Collector) Record(e Event) {
	defer func() { _ = recover() }()
	c.record(&e)
}

func (c *Collector) record(e *Event) {
	e.fit()
	bytes := e.bytes()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	if c.queued >= c.maxQueue || c.queuedBytes+bytes > c.maxQueueBytes {
		c.stats.DroppedQueueFull++
		first := !c.full
		c.full = true
		c.mu.Unlock()
		// Said when the queue fills, not for every request dropped while it stays full.
		if first {
			c.tell(Problem{Kind: ProblemQueueFull, Events: 1, Message: "The queue is full (the console server is slow or away): new requests are not recorded."})
		}
		return
	}
	c.full = false
	sealed := false
	if c.open != nil && c.open.bytes+bytes > c.maxBatchBytes {
		c.seal()
		sealed = true
	}
	if c.open == nil {
		c.open = &batch{}
	}
	last := len(c.open.chunks) - 1
	if last < 0 || len(c.open.chunks[last]) == cap(c.open.chunks[last]) {
		if free := len(c.freeChunks) - 1; free >= 0 && cap(c.freeChunks[free]) == minInt(c.batchSize, eventChunk) {
			c.open.chunks = append(c.open.chunks, c.freeChunks[free])
			c.freeChunks[free] = nil
			c.freeChunks = c.freeChunks[:free]
		} else {
			c.open.chunks = append(c.open.chunks, make([]Event, 0, minInt(c.batchSize, eventChunk)))
		}
		last++
	}
	c.open.chunks[last] = append(c.open.chunks[last], *e)
	c.open.count++
	c.open.bytes += bytes
	c.queued++
	c.queuedBytes += bytes
	if c.open.count >= c.batchSize {
		c.seal()
		sealed = true
	}
	c.mu.Unlock()
	if sealed {
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
}

// seal moves the open batch to the ready ones; the caller holds mu.
func (c *Collector) seal() {
	c.ready = append(c.ready, c.open)
	c.open = nil
}

// Stats answers the collector's counts.
func (c *Collector) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Queued = int64(c.queued)
	return s
}

// Flush sends everything queued now (a batch backing off is tried now too) and returns when done
// or given up on, or when ctx ends.
func (c *Collector) Flush(ctx context.Context) error {
	done := make(chan struct{})
	select {
	case c.flushes <- done:
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops recording, sends what waits (retrying while the server is away) and returns by
// ctx's deadline at the latest (CloseTimeout when ctx has none); what is still queued then is
// counted as DroppedAtClose. Calling it again waits for the first.
func (c *Collector) Close(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.closeTimeout)
		defer cancel()
	}
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if !already {
		c.closing <- ctx
	}
	select {
	case <-c.done:
	case <-ctx.Done():
		c.cancelRun() // ends the send under way
		<-c.done
	}
	return nil
}

func (c *Collector) run() {
	defer close(c.done)
	defer c.cancelRun()
	ticker := time.NewTicker(c.interval)
	defer ticker.Stop()
	for {
		select {
		case <-c.wake:
			readWallOffset()
			c.drain(false)
		case <-ticker.C:
			readWallOffset()
			c.drain(true)
		case done := <-c.flushes:
			c.retryAt = time.Time{}
			c.drain(true)
			close(done)
		case ctx := <-c.closing:
			ticker.Stop()
			c.closeWith(ctx)
			return
		}
	}
}

func (c *Collector) closeWith(ctx context.Context) {
	// At shutdown what waits is sent now, not after the backoff of a server that was away.
	c.retryAt = time.Time{}
	for c.queuedNow() > 0 && ctx.Err() == nil {
		if wait := time.Until(c.retryAt); wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
			}
			if ctx.Err() != nil {
				break
			}
		}
		c.drain(true)
	}
	c.mu.Lock()
	left := c.queued
	if left > 0 {
		c.stats.DroppedAtClose += int64(left)
		c.ready = nil
		c.open = nil
		c.queued = 0
		c.queuedBytes = 0
	}
	c.mu.Unlock()
	if left > 0 {
		c.tell(Problem{Kind: ProblemDroppedAtClose, Events: left, Message: fmt.Sprintf("Closed with %d event(s) not yet sent: the console server did not take them in time.", left)})
	}
}

func (c *Collector) queuedNow() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queued
}

type outcome int

const (
	outcomeSent outcome = iota
	outcomeRetry
	outcomeDrop
)

// drain sends the ready batches in turn until one must wait; everything includes the open batch.
func (c *Collector) drain(everything bool) {
	if time.Now().Before(c.retryAt) {
		return
	}
	c.mu.Lock()
	// While backing off the open batch stays open (above): no batch per tick of an outage.
	if everything && c.open != nil {
		c.seal()
	}
	c.mu.Unlock()
	for c.runCtx.Err() == nil {
		c.mu.Lock()
		if len(c.ready) == 0 {
			c.mu.Unlock()
			return
		}
		b := c.ready[0]
		c.mu.Unlock()
		if b.body == nil && !c.write(b) {
			continue
		}
		result, rejected := c.send(b)
		c.mu.Lock()
		if len(c.ready) == 0 || c.ready[0] != b {
			c.mu.Unlock()
			return
		}
		if result == outcomeRetry {
			// Stays at the front; wait longer each time (with jitter), or as long as the server asked.
			c.stats.FailedAttempts++
			c.mu.Unlock()
			if c.backoff == 0 {
				c.backoff = 500 * time.Millisecond
			} else if c.backoff *= 2; c.backoff > MaxBackoff {
				c.backoff = MaxBackoff
			}
			wait := time.Duration(float64(c.backoff) * (0.5 + mrand.Float64()/2))
			if c.serverAsked > wait {
				wait = c.serverAsked
			}
			c.serverAsked = 0
			c.retryAt = time.Now().Add(wait)
			return
		}
		c.ready = c.ready[1:]
		c.queued -= b.count
		c.queuedBytes -= b.bytes
		if result == outcomeSent {
			c.stats.Sent += int64(b.count - rejected)
			c.stats.Rejected += int64(rejected)
			c.backoff = 0
		} else {
			c.stats.FailedAttempts++
			c.stats.DroppedFailed += int64(b.count)
		}
		c.mu.Unlock()
	}
}

// write makes the front batch's body; a body over maxBatchBytes is split in two batches (the
// second with a key of its own). Answers whether the batch is ready to send.
func (c *Collector) write(b *batch) bool {
	if b.events == nil {
		b.events, c.spareEvents = c.spareEvents[:0], nil
		if cap(b.events) < b.count {
			b.events = make([]*Event, 0, b.count)
		}
		for _, chunk := range b.chunks {
			for i := range chunk {
				b.events = append(b.events, &chunk[i])
			}
		}
	}
	// A new body each time: the transport may still read a sent one after an early answer.
	body, err := c.scratch.write(nil, b.events)
	if err != nil {
		c.mu.Lock()
		c.ready = c.ready[1:]
		c.queued -= b.count
		c.queuedBytes -= b.bytes
		c.stats.DroppedFailed += int64(b.count)
		c.mu.Unlock()
		c.tell(Problem{Kind: ProblemRefused, Events: b.count, Message: fmt.Sprintf("A batch could not be written as JSON (%v): %d event(s) dropped.", err, b.count)})
		return false
	}
	if b.key == "" {
		b.key = newUUID()
	}
	if len(body) <= c.maxBatchBytes || b.count == 1 {
		b.body = body
		if b.chunks != nil {
			// The events are in the body now: their arrays go back, cleared, for new batches.
			c.spareEvents = b.events[:0]
			for i := range c.spareEvents[:cap(c.spareEvents)] {
				c.spareEvents[:cap(c.spareEvents)][i] = nil
			}
			for _, chunk := range b.chunks {
				chunk = chunk[:cap(chunk)]
				for i := range chunk {
					chunk[i] = Event{}
				}
			}
			c.mu.Lock()
			for _, chunk := range b.chunks {
				if len(c.freeChunks) < maxFreeChunks {
					c.freeChunks = append(c.freeChunks, chunk[:0])
				}
			}
			c.mu.Unlock()
		}
		b.events = nil
		b.chunks = nil
		return true
	}
	half := (b.count + 1) / 2
	firstBytes := int(math.Round(float64(b.bytes) * float64(half) / float64(b.count)))
	first := &batch{events: b.events[:half], count: half, bytes: firstBytes, key: b.key}
	second := &batch{events: b.events[half:], count: b.count - half, bytes: b.bytes - firstBytes}
	c.mu.Lock()
	c.ready = append([]*batch{first, second}, c.ready[1:]...)
	c.mu.Unlock()
	return false
}

// send posts one batch; answers whether to keep it for a retry, and how many events the server refused.
func (c *Collector) send(b *batch) (outcome, int) {
	ctx, cancel := context.WithTimeout(c.runCtx, c.sendTimeout)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, c.ingestURL, bytes.NewReader(b.body))
	if err != nil {
		c.tell(Problem{Kind: ProblemRefused, Events: b.count, Message: err.Error()})
		return outcomeDrop, 0
	}
	request.Header.Set("Authorization", "Bearer "+c.ingestKey)
	request.Header.Set("Content-Type", "application/json")
	request.Header.Set("Idempotency-Key", b.key)
	request.Header.Set("User-Agent", "ops-console-collector-go")
	response, err := c.client.Do(request)
	var answer []byte
	if err == nil {
		answer, err = io.ReadAll(io.LimitReader(response.Body, maxAnswerBytes))
		response.Body.Close()
	}
	if err != nil {
		// The network is away: keep the events while the queue has room.
		origin := c.ingestURL
		if u, e := url.Parse(c.ingestURL); e == nil {
			origin = u.Scheme + "://" + u.Host
		}
		c.tell(Problem{Kind: ProblemUnreachable, Message: fmt.Sprintf("Could not send events to %s: %v; retrying.", origin, err)})
		return outcomeRetry, 0
	}
	status := response.StatusCode
	switch {
	case status == http.StatusAccepted:
		count, first := rejectedOf(answer)
		if count > 0 {
			c.tell(Problem{Kind: ProblemRejectedEvents, Status: status, Events: count, Message: fmt.Sprintf("The console server refused %d event(s): %s", count, first)})
		}
		return outcomeSent, count
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		c.serverAsked = RetryAfter(response.Header.Get("Retry-After"), time.Now())
		return outcomeRetry, 0
	}
	c.tell(problemOf(status, c.ingestURL, b.count))
	// A server error may pass (the Idempotency-Key makes a retry safe), but a batch that keeps failing must not hold up the rest.
	if status >= 500 {
		b.failures++
		if b.failures < MaxFailures {
			return outcomeRetry, 0
		}
	}
	return outcomeDrop, 0
}

func problemOf(status int, ingestURL string, events int) Problem {
	switch {
	case status == 401 || status == 403:
		return Problem{Kind: ProblemUnauthorized, Status: status, Events: events, Message: fmt.Sprintf("The console server refused the ingest key (%d): %d event(s) dropped. Check IngestKey.", status, events)}
	case status == 404:
		return Problem{Kind: ProblemNotFound, Status: status, Events: events, Message: fmt.Sprintf("Nothing answers at %s (404): %d event(s) dropped. The URL is the console server's base URL.", ingestURL, events)}
	case status >= 500:
		return Problem{Kind: ProblemServerError, Status: status, Events: events, Message: fmt.Sprintf("The console server failed (%d); a batch is tried %d times before it is dropped.", status, MaxFailures)}
	}
	return Problem{Kind: ProblemRefused, Status: status, Events: events, Message: fmt.Sprintf("The console server refused a batch (%d): %d event(s) dropped.", status, events)}
}

// rejectedOf is how many events a 202 lists as rejected, and the first reason.
func rejectedOf(body []byte) (int, string) {
	var answer struct {
		Rejected []struct {
			Reason string `json:"reason"`
		} `json:"rejected"`
		RejectedCount *float64 `json:"rejectedCount"`
	}
	if json.Unmarshal(body, &answer) != nil || answer.Rejected == nil {
		return 0, ""
	}
	count := len(answer.Rejected)
	if answer.RejectedCount != nil {
		count = int(*answer.RejectedCount)
	}
	first := ""
	if len(answer.Rejected) > 0 {
		first = answer.Rejected[0].Reason
	}
	return count, first
}

// RetryAfter is a Retry-After value (seconds or an HTTP date) as a wait from now, at most MaxBackoff.
func RetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	var wait time.Duration
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		wait = time.Duration(seconds) * time.Second
	} else if at, err := http.ParseTime(value); err == nil {
		wait = at.Sub(now)
	} else {
		return 0
	}
	if wait < 0 {
		return 0
	}
	if wait > MaxBackoff {
		return MaxBackoff
	}
	return wait
}

func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// Never without a key: time and math/rand make one unique enough.
		mrand.Read(b[:])
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 36)
	j := 0
	for i, v := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hex[v>>4], hex[v&0xf]
		j += 2
	}
	return string(out)
}
