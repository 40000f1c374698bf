package opsconsole

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math"
	"math/rand"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// epoch is where the middleware's monotonic clock starts (the package's start).
var epoch = time.Now()

// monoNow is the time since epoch on the monotonic clock: one clock read (time.Now reads two).
func monoNow() time.Duration { return time.Since(epoch) }

// wallOffset is the wall clock (Unix ns) at epoch as it was last read: the wall clock minus the
// monotonic one, refreshed by every sending goroutine at each flush interval and batch.
var wallOffset int64 = epoch.UnixNano()

// readWallOffset refreshes wallOffset from the clocks now (so a step of the wall clock counts
// from the next refresh on).
func readWallOffset() {
	now := time.Now()
	atomic.StoreInt64(&wallOffset, now.UnixNano()-int64(now.Sub(epoch)))
}

// wallMillis is the wall clock (Unix ms) when the monotonic clock read at.
func wallMillis(at time.Duration) int64 {
	ns := atomic.LoadInt64(&wallOffset) + int64(at)
	return time.Unix(0, ns).UnixMilli()
}

// CollectOptions say what the middleware records of each request, beyond what it always records
// (method, route, path without its query string, status, duration, response bytes).
type CollectOptions struct {
	// The route template of a request (`/contacts/{id}`), read after the handler ran, so rows group
	// by route; "" or nil: the ServeMux pattern on Go ≥ 1.23, else the concrete path.
	Route func(*http.Request) string
	// Where the API version comes from: a header, the path's first segment (`/v2/…`), a fixed value, or a function.
	APIVersion Version
	// Who called: key id, customer and actor. Runs after the handler; a panic in it leaves the request out.
	Identify func(*http.Request) *Identity
	// Sees each measured request before it is queued: change it (hide ids in the path) or return nil to leave it out.
	Redact func(*Event) *Event
	// Request headers to keep, by name (`User-Agent`, `X-Request-Id`); none unless named. Credential
	// headers (`Authorization`, `Cookie`, `X-Api-Key` …) are kept as `[masked]`, card numbers in a
	// value masked, before anything is sent.
	Headers []string
	// More header names, field names and patterns masked before sending, as the server's `capture.mask`.
	Mask MaskOptions
	// Headers of both sides and bodies, captured when set (off by default) and masked before they are sent.
	Capture *Capture
	// Which requests keep their bodies (nil: all); every request is still counted.
	Sample *Sample
}

// Version says where the API version comes from; the first field set is used.
type Version struct {
	// A request header holding it.
	Header string
	// The path's first segment (`/v2/…`); the route then leaves it out (`/contacts/{id}` under v2).
	PathPrefix bool
	// One version for every request.
	Fixed string
	// Your own function ("" for none).
	Func func(*http.Request) string
}

// Capture mirrors the Node collector's `capture` option.
type Capture struct {
	// Headers kept on both sides, by name; AllHeaders keeps all of them. Credentials are kept as `[masked]`.
	Headers    []string
	AllHeaders bool
	// Keep the request's and the response's bodies (of ContentTypes), masked before they are sent.
	Bodies bool
	// UTF-8 bytes of a body kept, at most (0: 64 KiB): a longer one is cut and sent with its whole size.
	MaxBodyBytes int
	// Content types whose bodies are kept, by prefix; nil: JSON, text, forms, XML, GraphQL and YAML.
	ContentTypes []string
}

// Sample mirrors the Node collector's `sample` option: which requests keep their bodies.
type Sample struct {
	// The share of other requests that keep their bodies, from 0 to 1.
	Rate float64
	// Requests that always keep them.
	Always SampleAlways
}

// SampleAlways names the requests that always keep their bodies.
type SampleAlways struct {
	// "5xx" or "4xx" (which includes 5xx); "" for none.
	Status string
	// Requests slower than this (0 for none).
	SlowerThan time.Duration
}

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

// tappedBody tees the request body as the handler reads it.
type tappedBody struct {
	io.ReadCloser
	tap *bodyTap
}

func (b *tappedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.tap.add(p[:n])
	}
	return n, err
}

// canceled says whether the request's context was canceled (the client went away).
func canceled(r *http.Request) bool {
	err := r.Context().Err()
	return err != nil && errors.Is(err, context.Canceled)
}

// pathBytes are the bytes url.URL.EscapedPath leaves as they are in a path (shouldEscape(c, encodePath) is false).
var pathBytes = func() (set [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		set[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		set[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		set[c] = true
	}
	for _, c := range "-_.~$&+,/:;=@" {
		set[c] = true
	}
	return set
}()

// escapedPath is u.EscapedPath(), without its scans for a path with nothing to escape.
func escapedPath(u *url.URL) string {
	if u.RawPath == "" && u.Path != "*" {
		p := u.Path
		plain := true
		for i := 0; i < len(p); i++ {
			if !pathBytes[p[i]] {
				plain = false
				break
			}
		}
		if plain {
			return p
		}
	}
	return u.EscapedPath()
}

// versionOf is the path's first segment when it is a version (`/v2/…` → `v2`), as /^\/(v\d+)(?:\/|$)/.
func versionOf(path string) string {
	if len(path) < 3 || path[0] != '/' || path[1] != 'v' {
		return ""
	}
	end := 2
	for end < len(path) && isDigit(path[end]) {
		end++
	}
	if end == 2 || (end < len(path) && path[end] != '/') {
		return ""
	}
	return path[1:end]
}

func (m *measurer) finish(rw *responseWriter, r *http.Request, start time.Duration, requestTap *bodyTap) {
	elapsed := monoNow() - start
	defer func() {
		_ = recover() // a request the host's hooks cannot read is left out
		release(rw)
	}()
	status := rw.status
	switch {
	case !rw.returned && !rw.wroteHeader:
		status = http.StatusInternalServerError // the handler panicked before answering
	case rw.hijacked && !rw.wroteHeader:
		status = http.StatusSwitchingProtocols
	case status == 0:
		status = http.StatusOK
	}
	if !rw.hijacked && (rw.writeFailed || canceled(r)) {
		status = ClientClosed
	}
	path := escapedPath(r.URL)
	if path == "" {
		path = "/"
	}
	route := ""
	if m.options.Route != nil {
		route = m.options.Route(r)
	}
	if route == "" {
		route = defaultRoute(r)
	}
	if route == "" {
		route = path
	}
	e := Event{
		TS:         wallMillis(start),
		Method:     r.Method,
		Route:      route,
		Path:       path,
		Status:     status,
		DurationMs: math.Round(float64(elapsed)/1e3) / 1e3,
		Bytes:      rw.bytes,
	}
	o := &m.options
	switch v := &o.APIVersion; {
	case v.Header != "":
		e.APIVersion = r.Header.Get(v.Header)
	case v.PathPrefix:
		if version := versionOf(path); version != "" {
			e.APIVersion = version
			prefix := path[:len(version)+1]
			if e.Route == prefix {
				e.Route = "/"
			} else if len(e.Route) > len(prefix) && e.Route[len(prefix)] == '/' && strings.HasPrefix(e.Route, prefix) {
				e.Route = e.Route[len(prefix):]
			}
		}
	case v.Fixed != "":
		e.APIVersion = v.Fixed
	case v.Func != nil:
		e.APIVersion = v.Func(r)
	}
	if o.Identify != nil {
		if who := o.Identify(r); who != nil {
			e.KeyID, e.CustomerID = who.KeyID, who.CustomerID
			if who.Actor != nil {
				actor := *who.Actor
				e.Actor = &actor
			}
		}
	}
	for _, h := range m.headers {
		values := r.Header[h.key]
		if len(values) == 0 {
			continue
		}
		if e.Headers == nil {
			e.Headers = make(map[string]string, len(m.headers))
		}
		e.Headers[h.lower] = m.masker.Header(h.lower, strings.Join(values, ", "))
	}
	if capture := o.Capture; capture != nil {
		m.capture(&e, capture, rw, r, requestTap)
	}
	if o.Redact != nil {
		// Only then on the heap: Redact may keep or swap the event it is given.
		event := new(Event)
		*event = e
		if event = o.Redact(event); event == nil {
			return
		}
		m.c.record(event)
		return
	}
	m.c.record(&e)
}

// capture adds what Capture keeps: headers of both sides, and the bodies when the sample keeps them, all masked.
func (m *measurer) capture(e *Event, capture *Capture, rw *responseWriter, r *http.Request, requestTap *bodyTap) {
	if m.captureHeaders {
		if picked := pickedHeaders(r.Header, m.captureNames, m.masker, r.Host); picked != nil {
			if e.Headers == nil {
				e.Headers = picked
			} else {
				for name, value := range picked {
					e.Headers[name] = value
				}
			}
		}
		if rw.responseHeaders == nil && !rw.wroteHeader {
			rw.snapshot()
		}
		e.ResponseHeaders = rw.responseHeaders
	}
	if !capture.Bodies || !keepsBodies(m.options.Sample, e.Status, e.DurationMs) {
		return
	}
	e.RequestBody = capturedBody(requestTap, r.Header.Get("Content-Type"), r.Header.Get("Content-Encoding"), m.masker, capture, m.maxBodyBytes)
	e.ResponseBody = capturedBody(rw.tap, rw.contentType, rw.contentEncoding, m.masker, capture, m.maxBodyBytes)
}

// keepsBodies says whether a request answered so keeps its bodies: always for the Always ones, else at Rate.
func keepsBodies(sample *Sample, status int, durationMs float64) bool {
	if sample == nil {
		return true
	}
	switch sample.Always.Status {
	case "5xx":
		if status >= 500 {
			return true
		}
	case "4xx":
		if status >= 400 {
			return true
		}
	}
	if sample.Always.SlowerThan > 0 && durationMs > float64(sample.Always.SlowerThan)/1e6 {
		return true
	}
	return rand.Float64() < sample.Rate
}

// responseWriter counts what a handler writes, and keeps its status (and with Capture its headers and body).
type responseWriter struct {
	w               http.ResponseWriter
	m               *measurer
	status          int
	bytes           int64
	wroteHeader     bool
	returned        bool
	hijacked        bool
	writeFailed     bool
	tap             *bodyTap
	responseHeaders map[string]string
	contentType     string
	contentEncoding string
	// The wrapper holding this (for its pool) and its kind.
	self interface{}
	kind int
}

func (rw *responseWriter) Header() http.Header { return rw.w.Header() }

// Unwrap lets http.ResponseController (Go ≥ 1.20) reach the server's own writer.
func (rw *responseWriter) Unwrap() http.ResponseWriter { return rw.w }

func (rw *responseWriter) WriteHeader(code int) {
	if !rw.wroteHeader && !(code >= 100 && code < 200 && code != http.StatusSwitchingProtocols) {
		rw.wroteHeader = true
		rw.status = code
		if rw.m != nil && (rw.m.captureHeaders || rw.m.captureBodies) {
			rw.snapshot()
		}
	}
	rw.w.WriteHeader(code)
}

// snapshot keeps the response headers as sent (what Capture keeps of them).
func (rw *responseWriter) snapshot() {
	h := rw.w.Header()
	if rw.m.captureHeaders {
		rw.responseHeaders = pickedHeaders(h, rw.m.captureNames, rw.m.masker, "")
	}
	if rw.m.captureBodies {
		rw.contentType = h.Get("Content-Type")
		rw.contentEncoding = h.Get("Content-Encoding")
	}
}

// implicitHeader is the 200 a first write sends, with the content type net/http sniffs when none was set.
func (rw *responseWriter) implicitHeader(p []byte) {
	rw.wroteHeader = true
	rw.status = http.StatusOK
	if rw.m != nil && (rw.m.captureHeaders || rw.m.captureBodies) {
		rw.snapshot()
		if rw.m.captureBodies && rw.contentType == "" && len(p) > 0 {
			if _, set := rw.w.Header()["Content-Type"]; !set {
				rw.contentType = http.DetectContentType(p)
			}
		}
	}
}

func (rw *responseWriter) Write(p []byte) (int, error) {
	if !rw.wroteHeader {
		rw.implicitHeader(p)
	}
	n, err := rw.w.Write(p)
	rw.bytes += int64(n)
	if rw.tap != nil && n > 0 {
		rw.tap.add(p[:n])
	}
	if err != nil && !errors.Is(err, http.ErrBodyNotAllowed) && !errors.Is(err, http.ErrHijacked) {
		rw.writeFailed = true
	}
	return n, err
}

// WriteString is Write for a string, without a copy when the server's writer takes strings (as
// net/http's does): io.WriteString would copy it into a []byte otherwise.
func (rw *responseWriter) WriteString(s string) (int, error) {
	sw, ok := rw.w.(io.StringWriter)
	if !ok || rw.tap != nil {
		return rw.Write([]byte(s))
	}
	if !rw.wroteHeader {
		rw.implicitHeader(nil) // no tap: no body kept, no content type to sniff
	}
	n, err := sw.WriteString(s)
	rw.bytes += int64(n)
	if err != nil && !errors.Is(err, http.ErrBodyNotAllowed) && !errors.Is(err, http.ErrHijacked) {
		rw.writeFailed = true
	}
	return n, err
}

func (rw *responseWriter) flush() {
	if !rw.wroteHeader {
		rw.implicitHeader(nil)
	}
	rw.w.(http.Flusher).Flush()
}

func (rw *responseWriter) hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, buf, err := rw.w.(http.Hijacker).Hijack()
	if err == nil {
		rw.hijacked = true
	}
	return conn, buf, err
}

// writerOnly hides a writer's ReadFrom, so io.Copy goes through Write.
type writerOnly struct{ io.Writer }

func (rw *responseWriter) readFrom(src io.Reader) (int64, error) {
	if rw.tap != nil {
		return io.Copy(writerOnly{rw}, src)
	}
	if !rw.wroteHeader {
		rw.implicitHeader(nil)
	}
	n, err := rw.w.(io.ReaderFrom).ReadFrom(src)
	rw.bytes += n
	return n, err
}

func (rw *responseWriter) push(target string, opts *http.PushOptions) error {
	return rw.w.(http.Pusher).Push(target, opts)
}

// The writer handed to the handler has the optional interfaces the server's writer has, no more
// (and io.StringWriter, which io.WriteString would do in its place).
type (
	plainW   struct{ responseWriter }
	fW       struct{ responseWriter }
	hW       struct{ responseWriter }
	rW       struct{ responseWriter }
	fhW      struct{ responseWriter }
	frW      struct{ responseWriter }
	hrW      struct{ responseWriter }
	fhrW     struct{ responseWriter }
	fPusherW struct{ responseWriter }
)

func (w *fW) Flush()                                       { w.flush() }
func (w *hW) Hijack() (net.Conn, *bufio.ReadWriter, error) { return w.hijack() }
func (w *rW) ReadFrom(src io.Reader) (int64, error)        { return w.readFrom(src) }
func (w *fhW) Flush()                                      { w.flush() }
func (w *fhW) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.hijack()
}
func (w *frW) Flush()                                { w.flush() }
func (w *frW) ReadFrom(src io.Reader) (int64, error) { return w.readFrom(src) }
func (w *hrW) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.hijack()
}
func (w *hrW) ReadFrom(src io.Reader) (int64, error) { return w.readFrom(src) }
func (w *fhrW) Flush()                               { w.flush() }
func (w *fhrW) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.hijack()
}
func (w *fhrW) ReadFrom(src io.Reader) (int64, error)             { return w.readFrom(src) }
func (w *fPusherW) Flush()                                        { w.flush() }
func (w *fPusherW) Push(target string, o *http.PushOptions) error { return w.push(target, o) }

// The kinds of wrapper, each with a pool: a writer is reused once its request is measured.
const (
	kindPlain = iota
	kindF
	kindH
	kindR
	kindFH
	kindFR
	kindHR
	kindFHR
	kindFPusher
	kinds
)

var wrappers = [kinds]sync.Pool{
	kindPlain:   {New: func() interface{} { x := new(plainW); x.self = x; return x }},
	kindF:       {New: func() interface{} { x := new(fW); x.self = x; return x }},
	kindH:       {New: func() interface{} { x := new(hW); x.self = x; return x }},
	kindR:       {New: func() interface{} { x := new(rW); x.self = x; return x }},
	kindFH:      {New: func() interface{} { x := new(fhW); x.self = x; return x }},
	kindFR:      {New: func() interface{} { x := new(frW); x.self = x; return x }},
	kindHR:      {New: func() interface{} { x := new(hrW); x.self = x; return x }},
	kindFHR:     {New: func() interface{} { x := new(fhrW); x.self = x; return x }},
	kindFPusher: {New: func() interface{} { x := new(fPusherW); x.self = x; return x }},
}

// writerKind is the wrapper kind of a server's writer type, kept by the measurer for the next request.
type writerKind struct {
	t    reflect.Type
	kind int
}

// wrap answers the writer for the handler (from its kind's pool) and its counting part; the kind
// of the writer type seen last is kept, so a server's writer is looked at once, not at every request.
func (m *measurer) wrap(w http.ResponseWriter) (http.ResponseWriter, *responseWriter) {
	t := reflect.TypeOf(w)
	var kind int
	if last := m.lastKind.Load(); last != nil && last.t == t {
		kind = last.kind
	} else {
		kind = kindOf(w)
		m.lastKind.Store(&writerKind{t: t, kind: kind})
	}
	// Asserted to their own types (no interface table to look up).
	var x http.ResponseWriter
	var rw *responseWriter
	switch pool := &wrappers[kind]; kind {
	case kindFHR:
		v := pool.Get().(*fhrW)
		x, rw = v, &v.responseWriter
	case kindFPusher:
		v := pool.Get().(*fPusherW)
		x, rw = v, &v.responseWriter
	case kindFH:
		v := pool.Get().(*fhW)
		x, rw = v, &v.responseWriter
	case kindFR:
		v := pool.Get().(*frW)
		x, rw = v, &v.responseWriter
	case kindHR:
		v := pool.Get().(*hrW)
		x, rw = v, &v.responseWriter
	case kindF:
		v := pool.Get().(*fW)
		x, rw = v, &v.responseWriter
	case kindH:
		v := pool.Get().(*hW)
		x, rw = v, &v.responseWriter
	case kindR:
		v := pool.Get().(*rW)
		x, rw = v, &v.responseWriter
	default:
		v := pool.Get().(*plainW)
		x, rw = v, &v.responseWriter
	}
	rw.w, rw.kind = w, kind
	return x, rw
}

// release puts a writer back in its pool once its request is measured; not one whose handler
// panicked or hijacked the connection (something may still hold it), nor one with a body tap.
func release(rw *responseWriter) {
	if !rw.returned || rw.hijacked || rw.tap != nil {
		return
	}
	self, kind := rw.self, rw.kind
	*rw = responseWriter{self: self}
	wrappers[kind].Put(self)
}

// kindOf is the wrapper kind with the optional interfaces w has.
func kindOf(w http.ResponseWriter) int {
	_, f := w.(http.Flusher)
	_, h := w.(http.Hijacker)
	_, r := w.(io.ReaderFrom)
	_, p := w.(http.Pusher)
	kind := kindPlain
	switch {
	case f && h && r:
		kind = kindFHR
	case f && p && !h && !r:
		kind = kindFPusher
	case f && h:
		kind = kindFH
	case f && r:
		kind = kindFR
	case h && r:
		kind = kindHR
	case f:
		kind = kindF
	case h:
		kind = kindH
	case r:
		kind = kindR
	}
	return kind
}
