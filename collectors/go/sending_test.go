package opsconsole_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
	"github.com/ops-console/ops-console/collectors/go/internal/consoletest"
)

// A server that answers nothing in time: the queue fills, drops are counted, the host's answers all arrive.
func TestQueueFullDropsAreCounted(t *testing.T) {
	hang := make(chan struct{})
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer stub.Close()
	defer close(hang)
	var problems sync.Map
	c, err := opsconsole.New(opsconsole.Options{URL: stub.URL, IngestKey: "ik_hanging_server_key", MaxQueue: 4, MaxBatch: 2, FlushInterval: 10 * time.Millisecond,
		SendTimeout: time.Hour, OnError: func(p opsconsole.Problem) { problems.Store(p.Kind, true) }})
	if err != nil {
		t.Fatal(err)
	}
	app := httptest.NewServer(c.Middleware(http.HandlerFunc(consoletest.Contact)))
	defer app.Close()
	started := time.Now()
	for i := 0; i < 10; i++ {
		get(t, fmt.Sprintf("%s/v2/contacts/c_%d", app.URL, i))
	}
	if elapsed := time.Since(started); elapsed > 5*time.Second {
		t.Errorf("the host's answers waited for the collector: %v", elapsed)
	}
	stats := c.Stats()
	if stats.Queued > 4 || stats.DroppedQueueFull != 6 || stats.Queued+stats.DroppedQueueFull != 10 || stats.Sent != 0 {
		t.Errorf("stats %+v", stats)
	}
	if _, ok := problems.Load(opsconsole.ProblemQueueFull); !ok {
		t.Error("OnError did not hear the queue fill")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_ = c.Close(ctx)
	if stats := c.Stats(); stats.DroppedAtClose != 4 || stats.Queued != 0 {
		t.Errorf("after close: %+v", stats)
	}
	if _, ok := problems.Load(opsconsole.ProblemDroppedAtClose); !ok {
		t.Error("OnError did not hear the drop at close")
	}
}

// A batch whose answer was lost (the server kept it, the collector heard 503) is retried with the
// same Idempotency-Key, and kept once.
func TestRetriedBatchIsKeptOnce(t *testing.T) {
	s := needConsole(t)
	account := s.Account()
	target, _ := url.Parse(s.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var keys []string
	var attempts int32
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		mu.Unlock()
		if atomic.AddInt32(&attempts, 1) == 1 {
			// Kept by the server, but the answer is lost: 503 with Retry-After.
			proxy.ServeHTTP(httptest.NewRecorder(), r)
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer stub.Close()
	c := newCollector(t, s, account, func(o *opsconsole.Options) { o.URL = stub.URL; o.FlushInterval = time.Hour })
	app := httptest.NewServer(c.Middleware(http.HandlerFunc(consoletest.Contact)))
	defer app.Close()
	for i := 0; i < 3; i++ {
		get(t, fmt.Sprintf("%s/v2/contacts/c_%d", app.URL, i))
	}
	ctx := context.Background()
	_ = c.Flush(ctx)
	if stats := c.Stats(); stats.FailedAttempts != 1 || stats.Queued != 3 || stats.Sent != 0 {
		t.Fatalf("after the 503: %+v", stats)
	}
	_ = c.Flush(ctx) // a flush tries a batch backing off at once
	if stats := c.Stats(); stats.Sent != 3 || stats.Queued != 0 {
		t.Fatalf("after the retry: %+v", stats)
	}
	mu.Lock()
	if len(keys) != 2 || keys[0] != keys[1] || len(keys[0]) != 36 {
		t.Errorf("the retry did not carry the same Idempotency-Key: %q", keys)
	}
	mu.Unlock()
	time.Sleep(200 * time.Millisecond)
	requests, err := s.Requests(account)
	if err != nil || len(requests) != 3 {
		t.Errorf("the batch was kept %d times over (want 3 requests): %v", len(requests), err)
	}
}

// A server that keeps failing (500) costs a batch MaxFailures attempts, then it is dropped and counted.
func TestServerErrorsDropAfterMaxFailures(t *testing.T) {
	var attempts int32
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt32(&attempts, 1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer stub.Close()
	var kinds sync.Map
	c, _ := opsconsole.New(opsconsole.Options{URL: stub.URL, IngestKey: "ik_failing_server_key", FlushInterval: time.Hour, OnError: func(p opsconsole.Problem) { kinds.Store(p.Kind, p.Status) }})
	defer c.Close(context.Background())
	c.Record(opsconsole.Event{TS: time.Now().UnixMilli(), Method: "GET", Route: "/a", Path: "/a", Status: 200, DurationMs: 1, Bytes: 2})
	for i := 0; i < opsconsole.MaxFailures; i++ {
		_ = c.Flush(context.Background())
	}
	stats := c.Stats()
	if atomic.LoadInt32(&attempts) != opsconsole.MaxFailures || stats.DroppedFailed != 1 || stats.FailedAttempts != opsconsole.MaxFailures || stats.Queued != 0 {
		t.Errorf("attempts %d, stats %+v", attempts, stats)
	}
	if status, _ := kinds.Load(opsconsole.ProblemServerError); status != 500 {
		t.Errorf("OnError heard %v", status)
	}
}

// A refused key is dropped at once and said.
func TestUnauthorized(t *testing.T) {
	s := needConsole(t)
	var heard int32
	c, _ := opsconsole.New(opsconsole.Options{URL: s.URL, IngestKey: "ik_not_a_key_of_this_server", FlushInterval: time.Hour, OnError: func(p opsconsole.Problem) {
		if p.Kind == opsconsole.ProblemUnauthorized {
			atomic.AddInt32(&heard, 1)
		}
	}})
	defer c.Close(context.Background())
	c.Record(opsconsole.Event{TS: time.Now().UnixMilli(), Method: "GET", Route: "/a", Path: "/a", Status: 200, DurationMs: 1, Bytes: -1})
	_ = c.Flush(context.Background())
	if stats := c.Stats(); stats.DroppedFailed != 1 || atomic.LoadInt32(&heard) != 1 {
		t.Errorf("stats %+v, heard %d", stats, heard)
	}
}

// Close sends what is queued, however long the flush interval.
func TestCloseSendsWhatIsQueued(t *testing.T) {
	s := needConsole(t)
	account := s.Account()
	c := newCollector(t, s, account, func(o *opsconsole.Options) { o.FlushInterval = time.Hour })
	app := httptest.NewServer(c.Middleware(http.HandlerFunc(consoletest.Contact)))
	defer app.Close()
	for i := 0; i < 5; i++ {
		get(t, fmt.Sprintf("%s/v2/contacts/c_%d", app.URL, i))
	}
	if stats := c.Stats(); stats.Queued != 5 || stats.Sent != 0 {
		t.Fatalf("before close: %+v", stats)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = c.Close(ctx)
	if stats := c.Stats(); stats.Sent != 5 || stats.Queued != 0 || stats.DroppedAtClose != 0 {
		t.Errorf("after close: %+v", stats)
	}
	requests, err := s.Eventually(account, 5, nil)
	if err != nil || len(requests) != 5 {
		t.Fatalf("%d requests kept: %v", len(requests), err)
	}
	// Without a Route function (Go < 1.23) the route is the path; the query string is never recorded.
	c.Record(opsconsole.Event{Method: "GET", Route: "/late", Path: "/late"})
	if stats := c.Stats(); stats.Queued != 0 {
		t.Errorf("a closed collector still records: %+v", stats)
	}
}
