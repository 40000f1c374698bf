package opsconsole

import (
	"math"
	"strings"
)

// Event is one measured request, as it is queued and sent (the ingest API's request event).
// Redact sees it before it is queued and may change it.
type Event struct {
	// Wall-clock milliseconds since the Unix epoch when the request arrived.
	TS int64
	// The HTTP method (other methods than the ingest API's are sent as OTHER).
	Method string
	// The route template (`/contacts/{id}`), the concrete path when no template is known.
	Route string
	// The concrete path, without its query string (never recorded).
	Path string
	// The status answered; 499 when the client went away first.
	Status int
	// Milliseconds from the request's arrival to the handler's return, on a monotonic clock.
	DurationMs float64
	// Response body bytes written; -1 when unknown.
	Bytes int64
	// The API version, "" for none.
	APIVersion string
	// Who called (from Identify), "" for none.
	KeyID      string
	CustomerID string
	Actor      *Actor
	// Request headers kept (lower-case names), already masked.
	Headers map[string]string
	// Response headers kept with Capture, already masked.
	ResponseHeaders map[string]string
	// Bodies kept with Capture, already masked and cut.
	RequestBody  *Body
	ResponseBody *Body
}

// Actor is the person (or machine) that made a request.
type Actor struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Identity is who called, as Identify answers it.
type Identity struct {
	KeyID      string
	CustomerID string
	Actor      *Actor
}

// Body is a captured body as the ingest API takes it: Text is nil for types that are not text.
type Body struct {
	ContentType string  `json:"contentType"`
	Size        int64   `json:"size"`
	Truncated   bool    `json:"truncated"`
	Text        *string `json:"text"`
}

// The ingest API's limits (contract/src/ingest-limits.ts), in UTF-16 units as the server counts them.
const (
	limitRoute       = 512
	limitPath        = 2048
	limitAPIVersion  = 64
	limitID          = 128
	limitName        = 200
	limitHeaderName  = 64
	limitHeaderValue = 1024
	limitHeaders     = 32
	limitContentType = 256
	limitMaxBatch    = 10_000
	limitBodyBytes   = 10 * 1024 * 1024
	truncatedMark    = "…"
)

var ingestMethods = map[string]bool{"GET": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "HEAD": true, "OPTIONS": true, "OTHER": true}

// fitText cuts a value to max UTF-16 units, ending in `…` when cut.
func fitText(value string, max int) string {
	if len(value) <= max || utf16Len(value) <= max {
		return value
	}
	return utf16Prefix(value, max-1) + truncatedMark
}

func validHeaderName(name string) bool {
	if name == "" || len(name) > limitHeaderName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strings.IndexByte("!#$%&'*+.^_`|~-", c) != -1 {
			continue
		}
		return false
	}
	return true
}

func fitHeaders(headers map[string]string) map[string]string {
	if headers == nil {
		return nil
	}
	fits := len(headers) <= limitHeaders
	if fits {
		for name, value := range headers {
			if value == "" || !validHeaderName(name) || len(value) > limitHeaderValue && utf16Len(value) > limitHeaderValue {
				fits = false
				break
			}
		}
	}
	if fits {
		return headers
	}
	var kept map[string]string
	for name, value := range headers {
		if value == "" || !validHeaderName(name) {
			continue
		}
		if kept == nil {
			kept = map[string]string{}
		}
		kept[name] = fitText(value, limitHeaderValue)
		if len(kept) == limitHeaders {
			break
		}
	}
	return kept
}

// hasASCIISpace is strings.ContainsAny(s, " \t\n\r\v\f"), in one pass.
func hasASCIISpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' && (c == ' ' || c >= '\t' && c <= '\r') {
			return true
		}
	}
	return false
}

// fit makes an event fit the ingest API's limits, so the server never refuses a measured request.
func (e *Event) fit() {
	switch e.Method {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "OTHER":
	default:
		method := strings.ToUpper(e.Method)
		if !ingestMethods[method] {
			method = "OTHER"
		}
		e.Method = method
	}
	if !strings.HasPrefix(e.Route, "/") || hasASCIISpace(e.Route) {
		route := strings.Map(func(r rune) rune {
			if jsSpace(r) {
				return '_'
			}
			return r
		}, e.Route)
		if !strings.HasPrefix(route, "/") {
			route = "/" + route
		}
		e.Route = route
	}
	e.Route = fitText(e.Route, limitRoute)
	if !strings.HasPrefix(e.Path, "/") {
		e.Path = "/" + e.Path
	}
	e.Path = fitText(e.Path, limitPath)
	if math.IsNaN(e.DurationMs) || math.IsInf(e.DurationMs, 0) || e.DurationMs < 0 {
		e.DurationMs = 0
	} else if e.DurationMs > 86_400_000 {
		e.DurationMs = 86_400_000
	}
	if e.Bytes > 1<<40 {
		e.Bytes = -1
	}
	e.APIVersion = fitText(e.APIVersion, limitAPIVersion)
	e.KeyID = fitText(e.KeyID, limitID)
	e.CustomerID = fitText(e.CustomerID, limitID)
	if e.Actor != nil {
		if e.Actor.ID == "" {
			e.Actor = nil
		} else {
			name := e.Actor.Name
			if name == "" {
				name = e.Actor.ID
			}
			e.Actor = &Actor{ID: fitText(e.Actor.ID, limitID), Name: fitText(name, limitName)}
		}
	}
	e.Headers = fitHeaders(e.Headers)
	e.ResponseHeaders = fitHeaders(e.ResponseHeaders)
	if e.RequestBody != nil || e.ResponseBody != nil {
		for _, b := range []*Body{e.RequestBody, e.ResponseBody} {
			if b != nil && len(b.ContentType) > limitContentType {
				b.ContentType = fitText(b.ContentType, limitContentType)
			}
		}
	}
}

// eventBytes is about how many bytes an event adds to a batch's JSON, for the byte bounds.
func (e *Event) bytes() int {
	n := 64 + len(e.Path) + len(e.Route) + len(e.APIVersion) + len(e.KeyID) + len(e.CustomerID) + 9
	if e.Actor != nil {
		n += len(e.Actor.ID) + len(e.Actor.Name) + 20
	}
	if len(e.Headers) > 0 {
		for name, value := range e.Headers {
			n += len(name) + len(value) + 6
		}
	}
	if len(e.ResponseHeaders) > 0 {
		for name, value := range e.ResponseHeaders {
			n += len(name) + len(value) + 6
		}
	}
	if e.RequestBody == nil && e.ResponseBody == nil {
		return n
	}
	for _, b := range []*Body{e.RequestBody, e.ResponseBody} {
		if b != nil {
			n += 64 + len(b.ContentType)
			if b.Text != nil {
				n += len(*b.Text) * 11 / 10
			}
		}
	}
	return n
}
