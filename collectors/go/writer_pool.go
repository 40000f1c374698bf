package opsconsole

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"reflect"
	"sync"
)

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
