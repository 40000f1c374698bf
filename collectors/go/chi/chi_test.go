package opsconsolechi_test

import (
	"errors"
	"net/http"
	"os"
	"testing"

	"github.com/go-chi/chi/v5"
	opsconsole "github.com/ops-console/ops-console/collectors/go"
	opsconsolechi "github.com/ops-console/ops-console/collectors/go/chi"
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

func routes(r chi.Router) {
	r.Route("/v2", func(r chi.Router) {
		r.Get("/contacts/{id}", consoletest.Contact)
		r.Post("/messages", consoletest.Messages)
		r.Post("/webhooks", consoletest.Webhooks)
		r.Get("/usage/stream", consoletest.Stream)
		r.Get("/slow", consoletest.Slow)
		r.Post("/orders", consoletest.Orders)
	})
}

// Installed with router.Use, as chi's users install middleware.
func TestChiUse(t *testing.T) {
	consoletest.Suite(t, needConsole(t), func(c *opsconsole.Collector, options opsconsole.CollectOptions) http.Handler {
		r := chi.NewRouter()
		r.Use(opsconsolechi.Middleware(c, options))
		routes(r)
		return r
	})
}

// Wrapping the router from outside.
func TestChiWrapped(t *testing.T) {
	consoletest.Suite(t, needConsole(t), func(c *opsconsole.Collector, options opsconsole.CollectOptions) http.Handler {
		r := chi.NewRouter()
		routes(r)
		return opsconsolechi.Middleware(c, options)(r)
	})
}
