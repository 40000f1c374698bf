package opsconsolemux_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/gorilla/mux"
	opsconsole "github.com/ops-console/ops-console/collectors/go"
	opsconsolemux "github.com/ops-console/ops-console/collectors/go/gorillamux"
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

func router() *mux.Router {
	r := mux.NewRouter()
	v2 := r.PathPrefix("/v2").Subrouter()
	v2.HandleFunc("/contacts/{id}", consoletest.Contact).Methods("GET")
	v2.HandleFunc("/messages", consoletest.Messages).Methods("POST")
	v2.HandleFunc("/webhooks", consoletest.Webhooks).Methods("POST")
	v2.HandleFunc("/usage/stream", consoletest.Stream).Methods("GET")
	v2.HandleFunc("/slow", consoletest.Slow).Methods("GET")
	v2.HandleFunc("/orders", consoletest.Orders).Methods("POST")
	return r
}

func TestGorillaMuxHandler(t *testing.T) {
	consoletest.Suite(t, needConsole(t), func(c *opsconsole.Collector, options opsconsole.CollectOptions) http.Handler {
		return opsconsolemux.Handler(c, router(), options)
	})
}

// With router.Use, the matched routes are measured with their templates (and no 404: gorilla/mux runs no middleware for them).
func TestGorillaMuxUse(t *testing.T) {
	s := needConsole(t)
	account := s.Account()
	c := consoletest.NewCollector(t, s, account, nil)
	r := router()
	r.Use(opsconsolemux.Middleware(c, consoletest.Options()))
	app := httptest.NewServer(r)
	defer app.Close()
	for _, path := range []string{"/v2/contacts/c_1", "/v2/contacts/c_2", "/v2/usage/stream", "/v2/nowhere"} {
		response, err := http.Get(app.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, response.Body)
		response.Body.Close()
	}
	requests, err := s.Eventually(account, 3, func() { _ = c.Flush(context.Background()) })
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range requests {
		got[fmt.Sprintf("%s %d", r.Route, r.Status)]++
	}
	if fmt.Sprint(got) != fmt.Sprint(map[string]int{"/contacts/{id} 200": 2, "/usage/stream 200": 1}) {
		t.Errorf("recorded %v", got)
	}
}
