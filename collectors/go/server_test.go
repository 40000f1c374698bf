package opsconsole_test

import (
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

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
