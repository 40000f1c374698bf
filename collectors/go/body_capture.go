package opsconsole

import (
	"io"
	"math/rand"
	"net/http"
)

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
