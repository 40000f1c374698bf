package opsconsole

import (
	"net/http"
	"time"
)

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
