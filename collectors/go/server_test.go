package opsconsole_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
	"github.com/ops-console/ops-console/collectors/go/internal/consoletest"
)

var console *consoletest.Server
var consoleErr error

func TestMain(m *testing.M) {
	console, consoleErr = consoletest.Start()
	code := m.Run()
	if console != nil {
		console.Stop()
	}
	os.Exit(code)
}

// needConsole skips a test when there is no Node to run the server with, and fails it when the server would not start.
func needConsole(t *testing.T) *consoletest.Server {
	t.Helper()
	if errors.Is(consoleErr, consoletest.ErrNoNode) {
		t.Skip(consoleErr)
	}
	if consoleErr != nil {
		t.Fatalf("the console server did not start: %v", consoleErr)
	}
	return console
}

// The suite's API on a net/http ServeMux, with a Route function giving its templates (Go < 1.23 has no patterns).
func mountServeMux(c *opsconsole.Collector, options opsconsole.CollectOptions) http.Handler {
	mux := http.NewServeMux()
	method := func(m string, h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Method != m {
				http.NotFound(w, r)
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("/v2/contacts/", method("GET", consoletest.Contact))
	mux.HandleFunc("/v2/messages", method("POST", consoletest.Messages))
	mux.HandleFunc("/v2/webhooks", method("POST", consoletest.Webhooks))
	mux.HandleFunc("/v2/usage/stream", method("GET", consoletest.Stream))
	mux.HandleFunc("/v2/slow", method("GET", consoletest.Slow))
	mux.HandleFunc("/v2/orders", method("POST", consoletest.Orders))
	options.Route = func(r *http.Request) string {
		path := r.URL.Path
		switch {
		case strings.HasPrefix(path, "/v2/contacts/") && strings.Count(path, "/") == 3:
			return "/v2/contacts/{id}"
		case path == "/v2/messages", path == "/v2/webhooks", path == "/v2/usage/stream", path == "/v2/slow", path == "/v2/orders":
			return path
		}
		return ""
	}
	return c.Handler(mux, options)
}

func TestServeMux(t *testing.T) {
	consoletest.Suite(t, needConsole(t), mountServeMux)
}

func newCollector(t *testing.T, s *consoletest.Server, account consoletest.Account, change func(*opsconsole.Options)) *opsconsole.Collector {
	return consoletest.NewCollector(t, s, account, change)
}

func get(t *testing.T, url string) {
	t.Helper()
	response, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, response.Body)
	response.Body.Close()
}

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

// A handler that panics is recorded as 500 and the panic still reaches the server; a hook that
// panics leaves its request out and changes nothing for the host.
func TestPanicsStayTheHosts(t *testing.T) {
	s := needConsole(t)
	account := s.Account()
	c := newCollector(t, s, account, nil)
	mux := http.NewServeMux()
	mux.HandleFunc("/boom", func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	mux.HandleFunc("/ok", consoletest.Contact)
	mux.HandleFunc("/hook", consoletest.Contact)
	app := httptest.NewUnstartedServer(c.Handler(mux, opsconsole.CollectOptions{
		Identify: func(r *http.Request) *opsconsole.Identity {
			if r.URL.Path == "/hook" {
				panic("identify failed")
			}
			return nil
		},
	}))
	app.Config.ErrorLog = log.New(io.Discard, "", 0)
	app.Start()
	defer app.Close()
	if response, err := http.Get(app.URL + "/boom"); err == nil {
		response.Body.Close()
		t.Errorf("the panic did not reach the server: %d", response.StatusCode)
	}
	get(t, app.URL+"/hook")
	get(t, app.URL+"/ok")
	requests, err := s.Eventually(account, 2, func() { _ = c.Flush(context.Background()) })
	if err != nil || len(requests) != 2 {
		t.Fatalf("%d requests: %v", len(requests), err)
	}
	got := map[string]int{}
	for _, r := range requests {
		got[r.Route] = r.Status
	}
	if fmt.Sprint(got) != fmt.Sprint(map[string]int{"/boom": 500, "/ok": 200}) {
		t.Errorf("recorded %v", got)
	}
}

// The writer handed to the handler keeps the server's optional interfaces, and adds none.
func TestWriterInterfaces(t *testing.T) {
	c, _ := opsconsole.New(opsconsole.Options{URL: "http://127.0.0.1:1", IngestKey: "ik_interfaces_key", OnError: func(opsconsole.Problem) {}})
	defer c.Close(context.Background())
	var flusher, hijacker, readerFrom bool
	app := httptest.NewServer(c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, flusher = w.(http.Flusher)
		_, hijacker = w.(http.Hijacker)
		_, readerFrom = w.(io.ReaderFrom)
		_, _ = w.(io.ReaderFrom).ReadFrom(strings.NewReader("sent with ReadFrom"))
	})))
	defer app.Close()
	get(t, app.URL)
	if !flusher || !hijacker || !readerFrom {
		t.Errorf("HTTP/1 writer: Flusher %v, Hijacker %v, ReaderFrom %v", flusher, hijacker, readerFrom)
	}
	recorder := httptest.NewRecorder()
	c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, flusher = w.(http.Flusher)
		_, hijacker = w.(http.Hijacker)
	})).ServeHTTP(recorder, httptest.NewRequest("GET", "/", nil))
	if !flusher || hijacker {
		t.Errorf("ResponseRecorder: Flusher %v, Hijacker %v", flusher, hijacker)
	}
	if _, err := opsconsole.New(opsconsole.Options{URL: "http://127.0.0.1:1", IngestKey: "undefined"}); err == nil {
		t.Error("a missing ingest key is refused when the collector is made")
	}
}
