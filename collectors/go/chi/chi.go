// Package opsconsolechi installs the Ops Console collector on a chi router, with chi's route
// patterns (`/contacts/{id}`) as the recorded route templates.
package opsconsolechi

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	opsconsole "github.com/ops-console/ops-console/collectors/go"
)

// Middleware measures every request; install it with router.Use, or wrap the router with it
// (then 404s and 405s are measured too). The route is chi's pattern, read after the handler ran;
// a request no route matched is recorded with its path. A Route function in options wins.
func Middleware(c *opsconsole.Collector, options opsconsole.CollectOptions) func(http.Handler) http.Handler {
	if options.Route == nil {
		options.Route = RoutePattern
		// A request a mounted router (`r.Route("/v2", …)`) did not match has only the mount's
		// pattern (`/v2/*`): it is recorded with its path, as a request no route matched.
		redact := options.Redact
		options.Redact = func(e *opsconsole.Event) *opsconsole.Event {
			if (e.Status == http.StatusNotFound || e.Status == http.StatusMethodNotAllowed) && strings.HasSuffix(e.Route, "/*") {
				e.Route = e.Path
				if prefix := "/" + e.APIVersion; e.APIVersion != "" && options.APIVersion.PathPrefix && strings.HasPrefix(e.Route, prefix+"/") {
					e.Route = e.Route[len(prefix):]
				}
			}
			if redact != nil {
				return redact(e)
			}
			return e
		}
	}
	measure := opsconsole.Middleware(c, options)
	return func(next http.Handler) http.Handler {
		measured := measure(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if chi.RouteContext(r.Context()) == nil {
				// Outside the router: chi takes a routing context it finds, so its pattern can be read after.
				r = r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, chi.NewRouteContext()))
			}
			measured.ServeHTTP(w, r)
		})
	}
}

// RoutePattern is the chi pattern that matched the request ("" when none did).
func RoutePattern(r *http.Request) string {
	if rctx := chi.RouteContext(r.Context()); rctx != nil {
		return rctx.RoutePattern()
	}
	return ""
}
