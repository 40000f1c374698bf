package opsconsole

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestAppendMillisMatchesAppendFloat(t *testing.T) {
	check := func(v float64) {
		if got, want := string(appendMillis(nil, v)), strconv.FormatFloat(v, 'f', -1, 64); got != want {
			t.Fatalf("%v: %s, want %s", v, got, want)
		}
	}
	for _, v := range []float64{0, 0.001, 0.01, 0.1, 0.5, 1, 12.5, 86_400_000, 1e9, 1e9 + 0.5, 1.0005, 0.0004, 123.4567, math.Nextafter(1, 2)} {
		check(v)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2_000_000; i++ {
		micros := r.Int63n(86_400_000_000)
		if i%2 == 0 {
			micros = r.Int63n(100_000)
		}
		check(math.Round(float64(micros)) / 1e3)
		check(r.Float64() * 1000)
	}
}

func TestEscapedPathMatchesURL(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, raw := range []string{"/", "*", "/v2/contacts/c_1", "/a b", "/a%2Fb", "/caf%C3%A9", "/x!y", "/x*(y)'", "/a?b", "/%7Euser", "/a;b=c,d@e:f$g&h+i"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := escapedPath(u), u.EscapedPath(); got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	}
	for i := 0; i < 200_000; i++ {
		b := make([]byte, 1+r.Intn(12))
		for j := range b {
			b[j] = byte(r.Intn(256))
		}
		u := &url.URL{Path: "/" + string(b)}
		if got, want := escapedPath(u), u.EscapedPath(); got != want {
			t.Fatalf("%q: %q, want %q", u.Path, got, want)
		}
	}
}

func TestHasASCIISpace(t *testing.T) {
	for i := 0; i < 256; i++ {
		s := "/a" + string([]byte{byte(i)})
		if got, want := hasASCIISpace(s), strings.ContainsAny(s, " \t\n\r\v\f"); got != want {
			t.Fatalf("%d: %v", i, got)
		}
	}
}

// sinkOf is an ingest end keeping the batches it takes, decoded.
func sinkOf(t *testing.T) (*httptest.Server, func() []map[string]json.RawMessage) {
	var mu sync.Mutex
	var batches []map[string]json.RawMessage
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Columns map[string]json.RawMessage `json:"columns"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Error(err)
		}
		mu.Lock()
		batches = append(batches, body.Columns)
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"accepted":1,"rejected":[]}`)
	}))
	t.Cleanup(s.Close)
	return s, func() []map[string]json.RawMessage {
		mu.Lock()
		defer mu.Unlock()
		return append([]map[string]json.RawMessage(nil), batches...)
	}
}

func column(t *testing.T, batch map[string]json.RawMessage, name string, out interface{}) {
	t.Helper()
	if err := json.Unmarshal(batch[name], out); err != nil {
		t.Fatalf("%s: %v (%s)", name, err, batch[name])
	}
}

// The arrival time comes from one monotonic clock read and the wall clock's offset; the writer
// is pooled (its state does not pass from one request to the next); io.WriteString reaches the
// server's writer as a string and is counted.
func TestRequestPathDetails(t *testing.T) {
	sink, batches := sinkOf(t)
	c, err := New(Options{URL: sink.URL, IngestKey: "ik_fast_path_key"})
	if err != nil {
		t.Fatal(err)
	}
	var sawStringWriter int32
	// Told when the middleware has returned, so its event is recorded: a hijacked connection's
	// client can read the whole answer before the handler returns.
	// Buffered: net/http sends a small answer only once the handler has returned.
	served := make(chan struct{}, 8)
	var middleware http.Handler
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		middleware.ServeHTTP(w, r)
		served <- struct{}{}
	}))
	middleware = c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(io.StringWriter); ok {
			atomic.AddInt32(&sawStringWriter, 1)
		}
		switch r.URL.Path {
		case "/created":
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, "12345")
		case "/hijack":
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
				_ = buf.Flush()
				conn.Close()
			}
		default:
			_, _ = io.WriteString(w, "ab")
		}
	}))
	defer app.Close()
	before := time.Now().UnixMilli()
	paths := []string{"/created", "/plain", "/hijack", "/plain", "/created", "/plain"}
	for _, p := range paths {
		response, err := http.Get(app.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, response.Body)
		response.Body.Close()
		<-served
	}
	after := time.Now().UnixMilli()
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := batches()
	if len(got) != 1 {
		t.Fatalf("%d batches", len(got))
	}
	var tsBase int64
	var ts []int64
	var status []int
	var bytes []int64
	var path []string
	column(t, got[0], "tsBase", &tsBase)
	column(t, got[0], "ts", &ts)
	column(t, got[0], "status", &status)
	column(t, got[0], "bytes", &bytes)
	column(t, got[0], "path", &path)
	wantStatus := map[string]int{"/created": 201, "/plain": 200, "/hijack": 101}
	wantBytes := map[string]int64{"/created": 5, "/plain": 2, "/hijack": 0}
	if len(path) != len(paths) {
		t.Fatalf("paths %v", path)
	}
	for i, p := range path {
		if status[i] != wantStatus[p] || bytes[i] != wantBytes[p] {
			t.Errorf("%s: status %d bytes %d", p, status[i], bytes[i])
		}
		if at := tsBase + ts[i]; at < before || at > after {
			t.Errorf("%s: arrived at %d, not within %d..%d", p, at, before, after)
		}
	}
	if n := atomic.LoadInt32(&sawStringWriter); n != int32(len(paths)) {
		t.Errorf("the handler's writer was an io.StringWriter %d times of %d", n, len(paths))
	}
}

// A handler that panics: its writer is not reused, the request is recorded as 500, the panic goes on.
func TestPanickingHandlerWriterNotPooled(t *testing.T) {
	sink, _ := sinkOf(t)
	c, err := New(Options{URL: sink.URL, IngestKey: "ik_fast_path_key"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	var held http.ResponseWriter
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held = w
		panic("boom")
	}))
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not go on")
			}
		}()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/p", nil))
	}()
	h2 := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if w == held {
			t.Error("a panicked request's writer was reused")
		}
	}))
	for i := 0; i < 100; i++ {
		h2.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/q", nil))
	}
	if s := c.Stats(); s.Queued != 101 {
		t.Errorf("queued %d", s.Queued)
	}
}
