// Package opsconsolemux installs the Ops Console collector on a gorilla/mux router, with the
// routes' path templates (`/v2/contacts/{id}`) as the recorded route templates.
package opsconsolemux

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"
	opsconsole "github.com/ops-console/ops-console/collectors/go"
)

type holderKey struct{}

// holder carries the matched route's template from inside the router out to the collector.
type holder struct{ template string }

// Handler measures every request the router serves, 404s and 405s included (recorded with their
// path): it adds a middleware to the router (router.Use) that reads the matched route's template,
// and wraps the router. Serve what it returns instead of the router.
func Handler(c *opsconsole.Collector, router *mux.Router, options opsconsole.CollectOptions) http.Handler {
	router.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if h, ok := r.Context().Value(holderKey{}).(*holder); ok {
				h.template = Template(r)
			}
			next.ServeHTTP(w, r)
		})
	})
	if options.Route == nil {
		options.Route = func(r *http.Request) string {
			if h, ok := r.Context().Value(holderKey{}).(*holder); ok {
				return h.template
			}
			return ""
		}
	}
	measured := opsconsole.Middleware(c, options)(router)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		measured.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), holderKey{}, &holder{})))
	})
}

// Middleware measures the requests a route matched, for router.Use (gorilla/mux runs no
// middleware for a request no route matched: use Handler to measure 404s and 405s too).
func Middleware(c *opsconsole.Collector, options opsconsole.CollectOptions) mux.MiddlewareFunc {
	if options.Route == nil {
		options.Route = Template
	}
	return mux.MiddlewareFunc(opsconsole.Middleware(c, options))
}

// Template is the path template of the route that matched the request ("" when none did).
func Template(r *http.Request) string {
	if route := mux.CurrentRoute(r); route != nil {
		if template, err := route.GetPathTemplate(); err == nil {
			return template
		}
	}
	return ""
}
