package opsconsole

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"time"
)

// canceled says whether the request's context was canceled (the client went away).
func canceled(r *http.Request) bool {
	err := r.Context().Err()
	return err != nil && errors.Is(err, context.Canceled)
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
