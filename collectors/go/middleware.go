package opsconsole

import (
	"net/http"
	"net/textproto"
	"strings"
	"sync/atomic"
)

// ClientClosed is the status recorded when the client went away before the response was written (as nginx logs it).
const ClientClosed = 499

// Middleware measures every request of next with the collector's default options: the route is the
// ServeMux pattern on Go ≥ 1.23, else the concrete path. Use Handler or Middleware for options.
func (c *Collector) Middleware(next http.Handler) http.Handler {
	return c.Handler(next, CollectOptions{})
}

// Handler measures every request of next with options.
func (c *Collector) Handler(next http.Handler, options CollectOptions) http.Handler {
	return Middleware(c, options)(next)
}

// Middleware is the collector as a middleware (`func(http.Handler) http.Handler`), for routers'
// Use. It panics at once when a mask pattern does not compile.
func Middleware(c *Collector, options CollectOptions) func(http.Handler) http.Handler {
	masker, err := NewMasker(options.Mask)
	if err != nil {
		panic("opsconsole: a mask pattern does not compile: " + err.Error())
	}
	m := &measurer{c: c, options: options, masker: masker}
	for _, name := range options.Headers {
		m.headers = append(m.headers, keptHeader{lower: strings.ToLower(name), key: textproto.CanonicalMIMEHeaderKey(name)})
	}
	if capture := options.Capture; capture != nil {
		m.captureHeaders = capture.AllHeaders || len(capture.Headers) > 0
		if !capture.AllHeaders {
			m.captureNames = map[string]bool{}
			for _, name := range capture.Headers {
				m.captureNames[strings.ToLower(name)] = true
			}
		}
		m.maxBodyBytes = capture.MaxBodyBytes
		if m.maxBodyBytes <= 0 {
			m.maxBodyBytes = DefaultMaxBodyBytes
		}
		m.captureBodies = capture.Bodies
	}
	return func(next http.Handler) http.Handler {
		return &handler{m: m, next: next}
	}
}

type keptHeader struct{ lower, key string }

type measurer struct {
	c              *Collector
	options        CollectOptions
	masker         *Masker
	lastKind       atomic.Pointer[writerKind]
	headers        []keptHeader
	captureHeaders bool
	captureNames   map[string]bool
	captureBodies  bool
	maxBodyBytes   int
}

type handler struct {
	m    *measurer
	next http.Handler
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := h.m
	start := monoNow()
	var requestTap *bodyTap
	if m.captureBodies && r.Body != nil && r.Body != http.NoBody {
		// A little past the limit, so masking sees a secret the cut splits whole before the text is cut.
		requestTap = &bodyTap{max: m.maxBodyBytes + maskOverlap}
		r.Body = &tappedBody{ReadCloser: r.Body, tap: requestTap}
	}
	wrapped, rw := m.wrap(w)
	rw.m = m
	if m.captureBodies {
		rw.tap = &bodyTap{max: m.maxBodyBytes + maskOverlap}
	}
	// Runs when the handler returns, and when it panics: the panic goes on to the host as it would without the collector.
	defer m.finish(rw, r, start, requestTap)
	h.next.ServeHTTP(wrapped, r)
	rw.returned = true
}
