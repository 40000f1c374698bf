//go:build !go1.23

package opsconsole

import "net/http"

// defaultRoute is the route template when no Route function gives one: before Go 1.23 ServeMux
// has no pattern to read, and the concrete path is recorded.
func defaultRoute(*http.Request) string { return "" }
