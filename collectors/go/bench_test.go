package opsconsole_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
)

// A handler as small as an API's: a JSON answer with a header.
var bareHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"id":"c_1","name":"Ada"}`)
})

// discardSink takes batches and answers 202, as the ingest API does.
func discardSink() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"accepted":0,"rejectedCount":0,"rejected":[]}`)
	}))
}

func serve(b *testing.B, h http.Handler) {
	request := httptest.NewRequest("GET", "/v2/contacts/c_1?expand=all", nil)
	request.Header.Set("User-Agent", "bench")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.ServeHTTP(httptest.NewRecorder(), request)
	}
}

func BenchmarkBareHandler(b *testing.B) { serve(b, bareHandler) }

func BenchmarkCollectorMiddleware(b *testing.B) {
	sink := discardSink()
	defer sink.Close()
	c, err := opsconsole.New(opsconsole.Options{URL: sink.URL, IngestKey: "ik_bench_key_0123456789", MaxQueue: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	h := c.Handler(bareHandler, opsconsole.CollectOptions{
		Route:      func(*http.Request) string { return "/v2/contacts/{id}" },
		APIVersion: opsconsole.Version{PathPrefix: true},
		Headers:    []string{"User-Agent"},
	})
	serve(b, h)
	b.StopTimer()
	if s := c.Stats(); s.DroppedQueueFull > 0 {
		b.Logf("dropped (queue full): %d of %d", s.DroppedQueueFull, b.N)
	}
}

// fakeWriter has net/http's writer's interfaces and costs nothing: what the middleware alone costs shows.
type fakeWriter struct{ h http.Header }

func (f *fakeWriter) Header() http.Header                          { return f.h }
func (f *fakeWriter) Write(p []byte) (int, error)                  { return len(p), nil }
func (f *fakeWriter) WriteString(s string) (int, error)            { return len(s), nil }
func (f *fakeWriter) WriteHeader(int)                              {}
func (f *fakeWriter) Flush()                                       {}
func (f *fakeWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) { return nil, nil, nil }
func (f *fakeWriter) ReadFrom(r io.Reader) (int64, error)          { return 0, nil }

// The middleware's own request path (and its sender, on another CPU), with -benchmem: no allocation per request.
func BenchmarkMiddlewareOnly(b *testing.B) {
	sink := discardSink()
	defer sink.Close()
	c, err := opsconsole.New(opsconsole.Options{URL: sink.URL, IngestKey: "ik_bench_key_0123456789", MaxQueue: 1 << 20, MaxQueueBytes: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	h := c.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"id":"c_1","name":"Contact"}`)
	}), opsconsole.CollectOptions{Route: func(*http.Request) string { return "/v2/contacts/{id}" }, APIVersion: opsconsole.Version{PathPrefix: true}})
	request := httptest.NewRequest("GET", "/v2/contacts/c_1", nil)
	w := &fakeWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.ServeHTTP(w, request)
	}
	b.StopTimer()
	if s := c.Stats(); s.DroppedQueueFull > 0 {
		b.Logf("dropped (queue full): %d of %d", s.DroppedQueueFull, b.N)
	}
}
