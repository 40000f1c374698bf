package opsconsole

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
)

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
