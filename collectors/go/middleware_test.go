package opsconsole_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	opsconsole "github.com/ops-console/ops-console/collectors/go"
	"github.com/ops-console/ops-console/collectors/go/internal/consoletest"
)

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
